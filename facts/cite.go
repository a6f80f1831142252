package facts

import (
	"slices"
	"strings"
)

// Citation is where one value comes from: the source, how far the value was
// checked, and the dataset's note on it.
type Citation struct {
	Source string
	Status Status
	Note   string
}

// Cite returns c itself. Every row type embeds a Citation, so every row has
// Source, Status and Note fields and a Cite method.
func (c Citation) Cite() Citation { return c }

// Cited is implemented by every row type of this package.
type Cited interface {
	Cite() Citation
}

// SourceRef is one distinct source among a set of rows, with every status its
// rows have (most reliable first) and how many rows use it.
type SourceRef struct {
	Source   string
	Statuses []Status
	Rows     int
}

// Verified reports whether every row citing the source is Verified.
func (r SourceRef) Verified() bool {
	return len(r.Statuses) == 1 && r.Statuses[0] == Verified
}

// Sources returns the distinct sources of rows, in order of first appearance,
// each with the statuses of the rows that cite it. It is what a chart prints
// under itself.
func Sources[T Cited](rows []T) []SourceRef {
	var refs []SourceRef
	index := map[string]int{}
	for _, r := range rows {
		c := r.Cite()
		src := strings.TrimSpace(c.Source)
		i, ok := index[src]
		if !ok {
			i = len(refs)
			index[src] = i
			refs = append(refs, SourceRef{Source: src})
		}
		refs[i].Rows++
		if !slices.Contains(refs[i].Statuses, c.Status) {
			refs[i].Statuses = append(refs[i].Statuses, c.Status)
			slices.SortFunc(refs[i].Statuses, func(a, b Status) int { return a.rank() - b.rank() })
		}
	}
	return refs
}

// AllVerified reports whether every row is Verified.
func AllVerified[T Cited](rows []T) bool {
	for _, r := range rows {
		if r.Cite().Status != Verified {
			return false
		}
	}
	return true
}
