package curate

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// prose returns n words of English-like text; seed picks the words.
func prose(n, seed int) string {
	words := []string{"the", "data", "of", "model", "and", "training", "to", "with", "cluster", "that",
		"gradient", "have", "batch", "memory", "network", "be", "storage", "layer", "token", "corpus"}
	var b strings.Builder
	x := uint32(seed*2654435761 + 1)
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[x%uint32(len(words))])
	}
	return b.String()
}

// testCorpus has one document for each rule, an exact copy that differs only in case
// and punctuation, and a near copy with two words changed.
func testCorpus() []Doc {
	base := prose(300, 1)
	w := strings.Fields(base)
	near := slices.Clone(w)
	near[100], near[200] = "zebra", "quokka"
	texts := []string{
		base,          // 0 kept
		prose(300, 2), // 1 kept
		strings.ToUpper(strings.ReplaceAll(base, " ", "  \n")) + "!", // 2 exact copy of 0
		strings.Join(near, " "),                              // 3 near copy of 0
		prose(49, 3),                                         // 4 words
		strings.Repeat("a b cc ", 30) + "the of",             // 5 word-length (mean < 3)
		strings.Repeat("## the data of model\n", 20),         // 6 hash: 20 '#'… 40 '#' / 100 words
		strings.Repeat("the data of model... ", 20),          // 7 ellipsis: 20 / 80 words
		strings.Repeat("the data 12345 67890 1.5 ", 20),      // 8 alpha: 40 % of words have a letter
		strings.Repeat("données modèle réseau mémoire ", 20), // 9 stop words
	}
	docs := make([]Doc, len(texts))
	for i, t := range texts {
		docs[i] = Doc{ID: int64(i), Source: fmt.Sprintf("doc%d", i), Text: t}
	}
	return docs
}

func TestQualityRules(t *testing.T) {
	want := []Rule{"", "", "", "", RuleWords, RuleWordLength, RuleHash, RuleEllipsis, RuleAlpha, RuleStopWords}
	q := Gopher()
	for i, d := range testCorpus() {
		if got := q.Reason(d.Text); got != want[i] {
			t.Errorf("doc %d: Reason = %q, want %q", i, got, want[i])
		}
	}
	if got := q.Reason(""); got != RuleWords {
		t.Errorf("empty document: %q, want %q", got, RuleWords)
	}
	// Java's \s is ASCII whitespace only: a no-break space does not split words.
	if got := len(Words("a\u00a0b c\td\ne")); got != 4 {
		t.Errorf("Words counts %d, want 4", got)
	}
}

func TestShinglesAndJaccard(t *testing.T) {
	tok := Tokens("The cat, the CAT; the cat sat.")
	if want := []string{"the", "cat", "the", "cat", "the", "cat", "sat"}; !slices.Equal(tok, want) {
		t.Fatalf("Tokens = %q, want %q", tok, want)
	}
	sh := Shingles(tok, 2)
	if want := []string{"cat sat", "cat the", "the cat"}; !slices.Equal(sh, want) {
		t.Fatalf("Shingles = %q, want %q", sh, want)
	}
	if got := Shingles([]string{"a", "b"}, 5); !slices.Equal(got, []string{"a b"}) {
		t.Errorf("short document: %q", got)
	}
	if got := Jaccard([]string{"a", "b", "c"}, []string{"b", "c", "d"}); got != 0.5 {
		t.Errorf("Jaccard = %v, want 0.5", got)
	}
	if got := Jaccard([]uint64{}, []uint64{}); got != 1 {
		t.Errorf("Jaccard of two empty sets = %v, want 1", got)
	}
}

func TestPairsIsExhaustive(t *testing.T) {
	docs := testCorpus()[:4]
	got := Pairs(docs, 5, 0)
	if len(got) != 6 {
		t.Fatalf("%d pairs at similarity ≥ 0, want all 6", len(got))
	}
	for _, p := range got {
		a, b := Shingles(Tokens(docs[p.A].Text), 5), Shingles(Tokens(docs[p.B].Text), 5)
		if want := Jaccard(a, b); math.Abs(p.Jaccard-want) > 1e-15 {
			t.Errorf("pair %d-%d: %v, comparing the strings gives %v", p.A, p.B, p.Jaccard, want)
		}
	}
	// Two changed words touch at most 2×5 of ~296 shingles of each side.
	if p := got[2]; p.A != 0 || p.B != 3 || p.Jaccard < 0.9 || p.Jaccard > 0.99 {
		t.Errorf("near copy: %+v, want 0-3 with a similarity in [0.9, 0.99]", p)
	}
}

func TestProbability(t *testing.T) {
	for _, c := range []struct {
		s    float64
		b, r int
		want float64
	}{{0, 16, 8, 0}, {1, 16, 8, 1}, {0.5, 1, 1, 0.5}, {0.5, 2, 1, 0.75}, {0.5, 1, 2, 0.25}} {
		if got := Probability(c.s, c.b, c.r); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("Probability(%v, %d, %d) = %v, want %v", c.s, c.b, c.r, got, c.want)
		}
	}
}

func TestReference(t *testing.T) {
	r, err := Reference(testCorpus(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Exact, []Copy{{2, 0}}) {
		t.Errorf("Exact = %v, want [{2 0}]", r.Exact)
	}
	if len(r.Near) != 1 || r.Near[0].A != 0 || r.Near[0].B != 3 || !slices.Equal(r.Removed, []int64{3}) {
		t.Errorf("Near = %v, Removed = %v: want the pair 0-3 and 3 removed", r.Near, r.Removed)
	}
	if r.RejectedTotal() != 6 || r.Kept != 2 {
		t.Errorf("rejected %v, kept %d: want one per rule and 2 kept", r.Rejected, r.Kept)
	}
}

func TestBadInput(t *testing.T) {
	for cfg, want := range map[*Config]string{
		{K: -1}:                 "K=-1",
		{Threshold: 1.5}:        "Threshold=1.5",
		{View: "drop table x;"}: "names Spark views",
	} {
		if _, err := Reference(nil, *cfg); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: error %v, want one mentioning %q", *cfg, err, want)
		}
	}
	if _, err := Run(context.Background(), nil, "a`b", Config{}); err == nil || !strings.Contains(err.Error(), "backquote") {
		t.Errorf("a path with a backquote: %v", err)
	}
	empty := t.TempDir()
	if _, err := Collect(0, empty); err == nil || !strings.Contains(err.Error(), "no text documents under "+empty) {
		t.Errorf("Collect of an empty folder: %v", err)
	}
}

func TestCollect(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"a/README.md":         "hello",
		"a/LICENSE":           "licence",
		"a/main.go":           "package main",             // not a text document
		"cache/download/x.md": "zip cache",                // the module cache's download cache
		"b/notes.md":          string([]byte{0xff, 0xfe}), // not UTF-8
		"b/big.md":            strings.Repeat("x", MaxFileBytes+1),
	}
	for p, s := range files {
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(root, p), []byte(s), 0o644)
	}
	c, err := Collect(1, root)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Base(root)
	if len(c.Docs) != 1 || c.Docs[0].Source != base+"/a/LICENSE" || c.Over != 1 || c.NotUTF8 != 1 || c.TooBig != 1 {
		t.Errorf("Collect = %+v, want a/LICENSE kept, README.md over the limit, one not UTF-8, one too big", c)
	}
}

func TestSparkMatchesReference(t *testing.T) {
	got, _ := checkAgainstReference(t, testCorpus(), Config{})
	if len(got.Near) != 1 || got.Kept != 2 {
		t.Errorf("Spark: near %v, kept %d", got.Near, got.Kept)
	}
}

// TestSparkOnGoDocs runs the notebook's corpus, the text documents of the Go module cache
// and GOROOT, through Spark and the reference.
func TestSparkOnGoDocs(t *testing.T) {
	c, err := Collect(0)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := checkAgainstReference(t, c.Docs, Config{})
	if len(got.Exact) == 0 || len(got.Near) == 0 {
		t.Errorf("the Go documentation has copied licences: exact %d, near %d", len(got.Exact), len(got.Near))
	}
}
