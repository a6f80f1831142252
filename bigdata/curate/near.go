package curate

import (
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"unicode"
)

// Tokens is the normalised text the duplicate checks compare: lower case, split on runs
// of characters that are neither letters nor digits (Spark: filter(split(lower(text),
// '[^\\p{L}\\p{N}]+'), x -> x <> ”)). Two documents with the same tokens are exact
// duplicates even if their spacing, punctuation or case differ.
func Tokens(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
}

// Shingles returns the distinct k-word shingles of tokens (each joined by one space),
// sorted; a document of fewer than k tokens is one shingle, all of it.
func Shingles(tokens []string, k int) []string {
	if len(tokens) < k {
		return []string{strings.Join(tokens, " ")}
	}
	out := make([]string, 0, len(tokens)-k+1)
	for i := 0; i+k <= len(tokens); i++ {
		out = append(out, strings.Join(tokens[i:i+k], " "))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Jaccard is |a ∩ b| / |a ∪ b| for two sorted sets without repeats.
func Jaccard[T string | uint64](a, b []T) float64 {
	inter := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			inter++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 1
	}
	return float64(inter) / float64(union)
}

// Pair is two documents and the exact Jaccard similarity of their shingle sets, A < B.
type Pair struct {
	A, B    int64
	Jaccard float64
}

// Pairs compares every pair of docs exactly (their k-shingle sets) and returns those
// with a Jaccard similarity of at least minSim, ordered by (A, B): the ground truth that
// locality-sensitive hashing approximates in far fewer comparisons. It takes
// len(docs)²/2 set intersections: fine for thousands of documents, not for a web crawl.
func Pairs(docs []Doc, k int, minSim float64) []Pair {
	type set struct {
		id int64
		h  []uint64
	}
	sets := make([]set, len(docs))
	for i, d := range docs {
		sh := Shingles(Tokens(d.Text), k)
		h := make([]uint64, len(sh))
		for j, s := range sh {
			f := fnv.New64a()
			f.Write([]byte(s))
			h[j] = f.Sum64()
		}
		slices.Sort(h)
		sets[i] = set{d.ID, slices.Compact(h)}
	}
	slices.SortFunc(sets, func(x, y set) int { return int(x.id - y.id) })
	var out []Pair
	for i := range sets {
		for j := i + 1; j < len(sets); j++ {
			a, b := sets[i].h, sets[j].h
			// |a ∩ b| ≤ min(|a|,|b|): skip pairs whose sizes alone rule them out.
			small, large := min(len(a), len(b)), max(len(a), len(b))
			if float64(small) < minSim*float64(large) {
				continue
			}
			if s := Jaccard(a, b); s >= minSim {
				out = append(out, Pair{sets[i].id, sets[j].id, s})
			}
		}
	}
	return out
}

// Probability is the chance that two documents of Jaccard similarity s become candidates
// under banded MinHash with bands bands of rows hashes each: 1 − (1 − s^rows)^bands. It
// is an S-curve whose steepest point is near (1/bands)^(1/rows).
func Probability(s float64, bands, rows int) float64 {
	return 1 - math.Pow(1-math.Pow(s, float64(rows)), float64(bands))
}
