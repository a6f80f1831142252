package complete

import (
	"go/types"

	"github.com/dlbd/dlbd/kernel/stateful/internal/pkgindex"
)

// Kind is what a completion match names, in the words Jupyter front ends
// show beside it.
type Kind string

// The kinds of matches.
const (
	KindFunction Kind = "function"
	KindMethod   Kind = "method"
	KindField    Kind = "field"
	KindVariable Kind = "variable"
	KindConstant Kind = "constant"
	KindType     Kind = "type"
	KindPackage  Kind = "package"
	KindKeyword  Kind = "keyword"
	KindMagic    Kind = "magic"
)

// Match is one completion.
type Match struct {
	// Text replaces the completion's [Start, End) range.
	Text string
	// Kind says what it names.
	Kind Kind
	// Signature is its type as Go writes it, packages by name: "func(a,
	// b *dl.Tensor) *dl.Tensor" for a function, "[]*nn.Linear" for a
	// field; a package's import path; a magic's usage.
	Signature string
}

// Completion is what Tab offers at a cursor.
type Completion struct {
	// Matches are sorted, best first.
	Matches []Match
	// Start and End, in code points, delimit the text the matches
	// replace: what was typed of the name, up to the cursor.
	Start, End int
}

// Inspection is what Shift+Tab shows about the name at a cursor.
type Inspection struct {
	// Found reports whether there is a name at the cursor that the
	// kernel knows; the texts are empty when it is false.
	Found bool
	// Text is the declaration and its documentation as plain text.
	Text string
	// Markdown says the same in Markdown: the declaration in a Go code
	// block, the doc comment rendered with go/doc/comment.
	Markdown string
}

// Symbol is a name an earlier cell declared that lives on in the session.
type Symbol struct {
	// Name is the name the cells use.
	Name string
	// Object is its go/types object, in the declaring cell's package.
	Object types.Object
	// Cell is the number of the cell that declared it ("Cell [N]").
	Cell int
}

// Engine completes and inspects cells against a package index. It caches
// packages' documentation, and is safe for concurrent use.
type Engine struct {
	index *pkgindex.Index
	docs  docCache
}

// New returns an engine whose packages are index's; with a nil index it
// knows no packages (keywords, magics, builtins and the cell's own names
// still complete).
func New(index *pkgindex.Index) *Engine {
	return &Engine{index: index, docs: docCache{pkgs: map[string]*pkgDoc{}}}
}

// Complete returns the completions at cursor (in code points) in the
// cell code, for a session whose earlier cells left syms.
func (e *Engine) Complete(code string, cursor int, syms []Symbol) (c Completion) {
	off, ok := ByteOffset(code, cursor)
	if !ok {
		return Completion{Start: cursor, End: cursor}
	}
	defer func() {
		if v := recover(); v != nil { // go/types on a broken cell: offer nothing rather than crash the kernel
			repanic(v)
			c = Completion{Start: cursor, End: cursor}
		}
	}()
	start, ms := e.complete(code, off, syms)
	return Completion{Matches: ms, Start: CodePoints(code, start), End: cursor}
}

// Inspect describes the name at or just before cursor (in code points)
// in the cell code; detail is Jupyter's detail_level (1 adds the source
// of a package's declaration and every field of a struct).
func (e *Engine) Inspect(code string, cursor, detail int, syms []Symbol) (in Inspection) {
	off, ok := ByteOffset(code, cursor)
	if !ok {
		return Inspection{}
	}
	defer func() {
		if v := recover(); v != nil { // as in Complete
			repanic(v)
			in = Inspection{}
		}
	}()
	return e.inspect(code, off, detail, syms)
}

// repanic panics again with v in the package's tests, which must see the
// panics that Complete and Inspect hide from the kernel.
var repanic = func(v any) {}
