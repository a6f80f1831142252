package curate

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Rule names a quality filter; Quality.Reason returns the first one a document fails.
type Rule string

// The rules, in the order they are checked.
const (
	RuleWords      Rule = "words"       // too few or too many words
	RuleWordLength Rule = "word-length" // mean word length out of range
	RuleHash       Rule = "hash"        // too many '#' per word
	RuleEllipsis   Rule = "ellipsis"    // too many ellipses ("..." or "…") per word
	RuleAlpha      Rule = "alpha"       // too few words with a letter
	RuleStopWords  Rule = "stop-words"  // too few English stop words
)

// Rules lists every rule in the order Reason checks them.
var Rules = []Rule{RuleWords, RuleWordLength, RuleHash, RuleEllipsis, RuleAlpha, RuleStopWords}

// Quality is a set of document filters. Words are runs of characters between ASCII
// whitespace (the \s of Java's regular expressions, which Spark uses), lengths count
// Unicode code points (as Spark's length does).
type Quality struct {
	MinWords, MaxWords             int      // a document keeps MinWords ≤ words ≤ MaxWords
	MinMeanWordLen, MaxMeanWordLen float64  // and a mean word length within these
	MaxHashRatio                   float64  // and at most this many '#' per word
	MaxEllipsisRatio               float64  // and at most this many ellipses per word
	MinAlphaFraction               float64  // and at least this fraction of words with a letter
	StopWords                      []string // of which it must contain
	MinStopWords                   int      // at least this many, distinct, in any case
}

// Gopher returns the document filters of Gopher's MassiveText (Rae et al. 2021, "Scaling
// Language Models: Methods, Analysis & Insights from Training Gopher", arXiv:2112.11446,
// appendix A.1.1): between 50 and 100,000 words, a mean word length of 3 to 10
// characters, a symbol-to-word ratio of at most 0.1 for '#' and for the ellipsis, at
// least 80 % of words with an alphabetic character, and at least two of the stop words
// the, be, to, of, and, that, have, with. The paper's line-level rules (bullets,
// ellipses at line ends) and its repetition filters are not included.
func Gopher() Quality {
	return Quality{
		MinWords: 50, MaxWords: 100_000,
		MinMeanWordLen: 3, MaxMeanWordLen: 10,
		MaxHashRatio: 0.1, MaxEllipsisRatio: 0.1,
		MinAlphaFraction: 0.8,
		StopWords:        []string{"the", "be", "to", "of", "and", "that", "have", "with"},
		MinStopWords:     2,
	}
}

// isJavaSpace reports whether r is in Java's \s: space, \t, \n, \v, \f, \r.
func isJavaSpace(r rune) bool {
	return r == ' ' || (r >= '\t' && r <= '\r')
}

// Words splits text into the words the quality rules count.
func Words(text string) []string { return strings.FieldsFunc(text, isJavaSpace) }

// ellipses counts "..." (non-overlapping, from the left) and "…" in text.
func ellipses(text string) int {
	return strings.Count(text, "...") + strings.Count(text, "…")
}

// Reason returns the first rule text fails, or "" when it passes them all.
func (q Quality) Reason(text string) Rule {
	words := Words(text)
	n := len(words)
	if n < q.MinWords || n > q.MaxWords || n == 0 {
		return RuleWords
	}
	chars, alpha := 0, 0
	stop := map[string]bool{}
	for _, w := range words {
		chars += utf8.RuneCountInString(w)
		if strings.IndexFunc(w, unicode.IsLetter) >= 0 {
			alpha++
		}
		stop[strings.ToLower(w)] = true
	}
	if mean := float64(chars) / float64(n); mean < q.MinMeanWordLen || mean > q.MaxMeanWordLen {
		return RuleWordLength
	}
	if float64(strings.Count(text, "#"))/float64(n) > q.MaxHashRatio {
		return RuleHash
	}
	if float64(ellipses(text))/float64(n) > q.MaxEllipsisRatio {
		return RuleEllipsis
	}
	if float64(alpha)/float64(n) < q.MinAlphaFraction {
		return RuleAlpha
	}
	found := 0
	for _, s := range q.StopWords {
		if stop[s] {
			found++
		}
	}
	if found < q.MinStopWords {
		return RuleStopWords
	}
	return ""
}

// SQL returns the rules as one Spark SQL expression over a string column text and an
// array column words (Words of it: filter(split(text, '\\s+'), x -> x <> ”)): the name of
// the first rule failed, or NULL. It gives what Reason gives, document by document.
func (q Quality) SQL(text, words string) string {
	lit := make([]string, len(q.StopWords))
	for i, s := range q.StopWords {
		lit[i] = "'" + strings.ReplaceAll(s, "'", "\\'") + "'"
	}
	n := "size(" + words + ")"
	count := func(sub string) string { // occurrences of sub in text, as Go's strings.Count
		return fmt.Sprintf("((length(%s) - length(replace(%s, '%s', ''))) div %d)", text, text, sub, utf8.RuneCountInString(sub))
	}
	return fmt.Sprintf(`CASE
  WHEN %[1]s = 0 OR %[1]s < %[3]d OR %[1]s > %[4]d THEN '%[5]s'
  WHEN aggregate(%[2]s, 0L, (a, x) -> a + length(x)) / %[1]s NOT BETWEEN %[6]v AND %[7]v THEN '%[8]s'
  WHEN %[9]s / %[1]s > %[10]v THEN '%[11]s'
  WHEN (%[12]s + %[13]s) / %[1]s > %[14]v THEN '%[15]s'
  WHEN size(filter(%[2]s, x -> x rlike '\\p{L}')) / %[1]s < %[16]v THEN '%[17]s'
  WHEN size(array_intersect(array_distinct(transform(%[2]s, x -> lower(x))), array(%[18]s))) < %[19]d THEN '%[20]s'
END`,
		n, words, q.MinWords, q.MaxWords, RuleWords,
		q.MinMeanWordLen, q.MaxMeanWordLen, RuleWordLength,
		count("#"), q.MaxHashRatio, RuleHash,
		count("..."), count("…"), q.MaxEllipsisRatio, RuleEllipsis,
		q.MinAlphaFraction, RuleAlpha,
		strings.Join(lit, ", "), q.MinStopWords, RuleStopWords)
}
