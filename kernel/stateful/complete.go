package stateful

import (
	"go/scanner"
	"go/token"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/dlbd/dlbd/kernel/cell"
	"github.com/dlbd/dlbd/kernel/stateful/internal/complete"
	"github.com/dlbd/dlbd/kernel/stateful/internal/compose"
)

// Query is a cell and a cursor in it, as Jupyter's complete_request and
// inspect_request carry them.
type Query struct {
	// Code is the cell's text.
	Code string
	// Cursor is a position in Code in Unicode code points, as the
	// requests' cursor_pos counts (protocol 5.2 and later): "año" is 3
	// long. A cursor outside Code gets an empty answer.
	Cursor int
	// Detail is an inspect_request's detail_level: 0 for the declaration
	// and its documentation; 1 adds the declaration's source (for a
	// package's) and every field of a struct. Complete ignores it.
	Detail int
	// ProcessMode says the kernel runs cells as processes (GoNB, %mode
	// process): the session's names are then not the notebook's, and are
	// left out; packages, the cell's own names, keywords and magics stay.
	ProcessMode bool
	// Decls are declarations that live on outside the session, read as if
	// they came before the cell: in the process mode, those of the earlier
	// cells GoNB ran (it keeps them between its programs).
	Decls string
}

// MatchKind says what a completion names; front ends show it beside the
// match (complete_reply's metadata "_jupyter_types_experimental", "type").
type MatchKind string

// The kinds of [Match].
const (
	KindFunction = MatchKind(complete.KindFunction)
	KindMethod   = MatchKind(complete.KindMethod)
	KindField    = MatchKind(complete.KindField)
	KindVariable = MatchKind(complete.KindVariable)
	KindConstant = MatchKind(complete.KindConstant)
	KindType     = MatchKind(complete.KindType)
	KindPackage  = MatchKind(complete.KindPackage) // a package name, or an import path
	KindKeyword  = MatchKind(complete.KindKeyword)
	KindMagic    = MatchKind(complete.KindMagic) // a magic, or a magic's argument
)

// Match is one completion.
type Match struct {
	// Text replaces the code between the completion's CursorStart and
	// CursorEnd.
	Text string
	// Kind says what it names.
	Kind MatchKind
	// Signature is its type as Go writes it, packages by name: "func(a,
	// b *dl.Tensor) *dl.Tensor", "[]*nn.Linear"; an import path for a
	// package; a magic's usage.
	Signature string
}

// Completion is what Tab offers: Jupyter's complete_reply.
type Completion struct {
	// Matches are sorted, best first.
	Matches []Match
	// CursorStart and CursorEnd, in code points, delimit the text the
	// matches replace: what was typed of the name, up to the cursor.
	CursorStart, CursorEnd int
}

// Inspection is what Shift+Tab (and a "?name" cell) shows: Jupyter's
// inspect_reply.
type Inspection struct {
	// Found reports whether the cursor is on a name the kernel knows.
	Found bool
	// Text ("text/plain") is the declaration, its doc comment and, for a
	// name of an earlier cell, that cell ("Cell [3]").
	Text string
	// Markdown ("text/markdown") is the same with the declaration in a Go
	// code block and the doc comment rendered as Markdown.
	Markdown string
}

// completer is what completion keeps in a session.
type completer struct {
	once sync.Once
	eng  *complete.Engine
	// hist is the history that completion saw last.
	hist atomic.Pointer[compose.History]
}

// bare completes without a package index: for a session that is not
// ready, and a nil one.
var bare = complete.New(nil)

// Complete returns what Tab offers at q's cursor: after "x." the fields
// and methods of x's type (x any expression: modelo.Modules[0], dl.Ones(3))
// or the members of package x; inside "T{" the fields of struct T; inside
// an import's string the import paths; after "%" at the start of a line the
// magics; elsewhere the names in scope (the cell's, the earlier cells',
// packages, builtins) and Go's keywords. A name matches when it starts
// with what was typed, ignoring case.
//
// Complete never waits: not for a cell that is running or compiling (it
// uses the names the session had), nor for the session to be ready (until
// then, and on a nil *Session, it knows no packages). It is safe to call
// from any goroutine.
func (s *Session) Complete(q Query) Completion {
	q, shift := asBody(q)
	q, more := withDecls(q)
	shift += more
	eng, syms := s.completion(q)
	c := eng.Complete(q.Code, q.Cursor, syms)
	out := Completion{CursorStart: c.Start - shift, CursorEnd: c.End - shift, Matches: make([]Match, len(c.Matches))}
	for i, m := range c.Matches {
		out.Matches[i] = Match{Text: m.Text, Kind: MatchKind(m.Kind), Signature: m.Signature}
	}
	return out
}

// Inspect describes the name at or just before q's cursor (inside a
// call's parentheses, the function called): its declaration ("func
// dl.MatMulWith(kern dl.MatMulKernel, a, b *dl.Tensor) *dl.Tensor"), its
// doc comment, read from the package's source, and for a name of an
// earlier cell, its cell. Found is false, never an error, when there is no
// such name. It waits for no cell, as [Session.Complete].
func (s *Session) Inspect(q Query) Inspection {
	q, _ = asBody(q)
	q, _ = withDecls(q)
	eng, syms := s.completion(q)
	in := eng.Inspect(q.Code, q.Cursor, q.Detail, syms)
	return Inspection{Found: in.Found, Text: in.Text, Markdown: in.Markdown}
}

// ParseHelp reports whether code is an IPython help request, "?name" or
// "name?" ("??" for detail level 1), name being an identifier or a
// selector ("dl.MatMulWith"), and returns the query that inspects it.
// The front end shows [Session.Inspect]'s answer for such a cell instead of
// running it (Go has no "?": no Go cell is one).
func ParseHelp(code string) (Query, bool) {
	name, detail, ok := complete.Help(code)
	if !ok {
		return Query{}, false
	}
	// In a body (after %%) the kernel imports a package by its name, as a
	// cell's statements can use it without an import.
	return Query{Code: bodyLine + name, Cursor: utf8.RuneCountInString(bodyLine + name), Detail: detail}, true
}

// completion returns the engine for q and the session's names.
func (s *Session) completion(q Query) (*complete.Engine, []complete.Symbol) {
	if s == nil {
		return bare, nil
	}
	select {
	case <-s.ready:
	default:
		return bare, nil // the package index is still loading
	}
	s.comp.once.Do(func() { s.comp.eng = complete.New(s.index) })
	if q.ProcessMode {
		return s.comp.eng, nil
	}
	return s.comp.eng, s.symbols()
}

// symbols returns the names that live on in the session. A cell holds mu
// while it composes and builds (seconds): then symbols does not wait, and
// uses the history it saw last, whose names a commit replaces at once
// (compose.History.Symbols is safe while a cell commits).
func (s *Session) symbols() []complete.Symbol {
	if s.mu.TryLock() {
		s.comp.hist.Store(s.hist)
		s.mu.Unlock()
	}
	h := s.comp.hist.Load()
	if h == nil {
		return nil
	}
	syms := h.Symbols()
	out := make([]complete.Symbol, len(syms))
	for i, sym := range syms {
		out[i] = complete.Symbol{Name: sym.Name, Object: sym.Object(), Cell: sym.Cell.Num}
	}
	return out
}

// bodyLine is the line that starts a cell's body.
const bodyLine = "%%\n"

// asBody returns q as a body when its cell has no "%%" line and its Go
// text starts with a statement, not a declaration: such a cell runs as a
// body (cell.Cell.StatementsAsBody), so "modelo.For" completes as after
// "%%". shift is how many code points that moved the cursor.
func asBody(q Query) (_ Query, shift int) {
	c, err := cell.Parse(q.Code)
	if err != nil || c.HasBody {
		return q, 0
	}
	var sc scanner.Scanner
	fset := token.NewFileSet()
	sc.Init(fset.AddFile("", -1, len(c.Decls)), []byte(c.Decls), nil, 0)
	switch _, tok, _ := sc.Scan(); tok {
	case token.EOF, token.PACKAGE, token.IMPORT, token.FUNC, token.TYPE, token.VAR, token.CONST:
		return q, 0
	}
	q.Code, q.Cursor = bodyLine+q.Code, q.Cursor+len(bodyLine)
	return q, len(bodyLine)
}

// withDecls returns q with its Decls before its cell, and how many code
// points that moved the cursor.
func withDecls(q Query) (_ Query, shift int) {
	if strings.TrimSpace(q.Decls) == "" || q.Cursor < 0 || q.Cursor > utf8.RuneCountInString(q.Code) {
		return q, 0 // nothing to add, or a cursor outside the cell: an empty answer
	}
	prefix := q.Decls + "\n"
	q.Code, q.Cursor, q.Decls = prefix+q.Code, q.Cursor+utf8.RuneCountInString(prefix), ""
	return q, utf8.RuneCountInString(prefix)
}

// resetHistory starts an empty history (a new session, %reset, a new
// host) and shows it to completion at once: otherwise a completion during
// the next cell's compile could still offer the dropped names.
func (s *Session) resetHistory() {
	s.hist = compose.NewHistory(s.fset, s.index)
	s.comp.hist.Store(s.hist)
}
