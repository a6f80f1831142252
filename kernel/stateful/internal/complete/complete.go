package complete

import (
	"go/token"
	"go/types"
	"sort"
	"strings"
	"unicode/utf8"
)

// Ranks order the matches of a name: lower first.
const (
	rankLiteralField = iota // a field of the struct literal at the cursor
	rankName                // the cell's and the session's names
	rankPackage
	rankBuiltin
	rankKeyword
)

// candidate is a match before filtering; its signature is written only if
// it is kept.
type candidate struct {
	text string
	kind Kind
	obj  types.Object // nil: sig is the signature
	sig  string
	rank int
}

// complete returns where the matches start (a byte offset in code) and
// the matches at byte offset off.
func (e *Engine) complete(code string, off int, syms []Symbol) (int, []Match) {
	if start, ms, ok := completeCommand(code, off); ok {
		return start, ms
	}
	sec, ok := locate(code, off)
	if !ok {
		return off, nil
	}
	pre := sec.text[:sec.off]
	sc := scan(pre)
	switch {
	case sc.inComment:
		return off, nil
	case sc.str >= 0:
		if !sc.inImport {
			return off, nil
		}
		typed := pre[sc.str+1:]
		return off - len(typed), e.importPaths(typed)
	}
	typed, selector, number := sc.partial(pre)
	if number {
		return off, nil
	}
	c := e.check(sec, sec.off-len(typed), "_", sc, syms)
	var cs []candidate
	switch {
	case c != nil && selector:
		cs = c.selection()
	case c != nil:
		cs = append(c.literalFields(), c.names()...)
		cs = append(cs, e.packageNames(typed, c)...)
		fallthrough
	case !selector:
		cs = append(cs, keywords()...)
	}
	return off - len(typed), finish(cs, typed, selector)
}

// objCandidate returns the candidate for obj.
func objCandidate(obj types.Object, rank int) candidate {
	return candidate{text: obj.Name(), kind: kindOf(obj), obj: obj, rank: rank}
}

// finish keeps the candidates that start with typed, ignoring case, and
// sorts them: typed's case first, then by rank, exported names first
// after a selector, then alphabetically; a name appears once.
func finish(cs []candidate, typed string, selector bool) []Match {
	kept := cs[:0]
	for _, c := range cs {
		if hasPrefixFold(c.text, typed) {
			kept = append(kept, c)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool {
		a, b := kept[i], kept[j]
		if ca, cb := strings.HasPrefix(a.text, typed), strings.HasPrefix(b.text, typed); ca != cb {
			return ca
		}
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		if ea, eb := token.IsExported(a.text), token.IsExported(b.text); selector && ea != eb {
			return ea
		}
		if la, lb := strings.ToLower(a.text), strings.ToLower(b.text); la != lb {
			return la < lb
		}
		return a.text < b.text
	})
	seen := map[string]bool{}
	out := kept[:0]
	for _, c := range kept {
		if !seen[c.text] {
			seen[c.text] = true
			out = append(out, c)
		}
	}
	return matches(out)
}

// matches writes the candidates' signatures.
func matches(cs []candidate) []Match {
	out := make([]Match, len(cs))
	for i, c := range cs {
		out[i] = Match{Text: c.text, Kind: c.kind, Signature: c.sig}
		if c.obj != nil {
			out[i].Signature = signatureOf(c.obj)
		}
	}
	return out
}

// hasPrefixFold reports whether s starts with prefix, ignoring case.
func hasPrefixFold(s, prefix string) bool {
	n := 0 // bytes of s in as many code points as prefix has
	for range prefix {
		if n == len(s) {
			return false
		}
		_, size := utf8.DecodeRuneInString(s[n:])
		n += size
	}
	return strings.EqualFold(s[:n], prefix)
}
