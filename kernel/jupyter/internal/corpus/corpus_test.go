package corpus

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

const (
	notebooksDir = "../../../../notebooks"
	corpusFile   = "../../testdata/completion_corpus.json"
)

// TestCorpusUpToDate: the committed corpus is what the generator makes
// from the notebooks as they are now.
func TestCorpusUpToDate(t *testing.T) {
	c, err := Generate(notebooksDir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	want, err := Read(corpusFile)
	if err != nil {
		t.Fatal(err)
	}
	wantData, _ := want.Marshal()
	if !bytes.Equal(got, wantData) {
		t.Errorf("%s is not what the notebooks give now (%d entries generated, %d in the file): run `go generate ./kernel/jupyter`",
			corpusFile, len(c.Entries), len(want.Entries))
	}
}

// TestCorpusEntriesFollowTheNotebooks: every entry's code is its cell up
// to the cursor, and the cell goes on with the rest of the expected name:
// the name is what the course writes there, not what an engine returns.
func TestCorpusEntriesFollowTheNotebooks(t *testing.T) {
	c, err := Read(corpusFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Entries) < 150 {
		t.Errorf("%d entries; want at least 150", len(c.Entries))
	}
	cells := map[string]map[int]*codeCell{}
	for _, e := range c.Entries {
		if cells[e.Notebook] == nil {
			ccs, err := readNotebook(filepath.Join(notebooksDir, e.Notebook))
			if err != nil {
				t.Fatal(err)
			}
			cells[e.Notebook] = map[int]*codeCell{}
			for _, cc := range ccs {
				cells[e.Notebook][cc.index] = cc
			}
		}
		cc := cells[e.Notebook][e.Cell]
		code := e.Code
		if e.Kind == KindImportPath {
			code = strings.TrimSuffix(code, `"`)
		}
		if cc == nil || !strings.HasPrefix(cc.src, code) || utf8.RuneCountInString(code) != e.Cursor || len(e.Expect) != 1 {
			t.Errorf("%s cell %d: code %q (cursor %d) is not the cell up to the cursor", e.Notebook, e.Cell, lastLine(code), e.Cursor)
			continue
		}
		// What was typed of the name is the code since the name's start.
		rest := cc.src[len(code):]
		typed := code[len(strings.TrimRightFunc(code, isIdentRune)):]
		if e.Kind == KindImportPath {
			typed = code[strings.LastIndexByte(code, '"')+1:]
		}
		if e.Kind == KindMagic && strings.HasPrefix(e.Expect[0], "%") {
			typed = "%" + typed
		}
		if typed+strings.TrimPrefix(e.Expect[0], typed) != e.Expect[0] || !strings.HasPrefix(rest, strings.TrimPrefix(e.Expect[0], typed)) {
			t.Errorf("%s cell %d: after %q the cell goes on with %q; want the rest of %q", e.Notebook, e.Cell, lastLine(code), firstLine(rest), e.Expect[0])
		}
	}
}

func isIdentRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func lastLine(s string) string  { return s[strings.LastIndexByte(s, '\n')+1:] }
func firstLine(s string) string { return strings.SplitN(s, "\n", 2)[0] }

// TestParseCellOffsets: positions in the parsed Go parts map back to the
// cell's bytes, in the declarations and in the body.
func TestParseCellOffsets(t *testing.T) {
	src := "import \"fmt\"\n\nfunc año() int { return 1 }\n%%\nx := año()\nfmt.Println(x)"
	cc, err := parseCell(0, src)
	if err != nil {
		t.Fatal(err)
	}
	f := &finder{notebook: "nb", scope: newScope([]*codeCell{cc})}
	f.collect(cc)
	var got []string
	for _, c := range f.out {
		if !strings.HasPrefix(src[c.at:], c.name) {
			t.Errorf("%s %q at %d: the cell there reads %q", c.kind, c.name, c.at, firstLine(src[c.at:]))
		}
		got = append(got, c.kind+" "+c.name)
	}
	for _, want := range []string{"import-path fmt", "keyword func", "keyword return", "name año", "package-member Println", "name fmt"} {
		if !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("candidates %q; want %q among them", got, want)
		}
	}
}
