package complete

import (
	"go/scanner"
	"go/token"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dlbd/dlbd/kernel/cell"
	"github.com/dlbd/dlbd/kernel/internal/cellpos"
)

// section is the Go part of a cell (its declarations or its body, as
// package cell splits it) that holds the cursor.
type section struct {
	decls  string // the cell's declarations, whole
	inBody bool   // text is the body
	text   string // the section holding the cursor, whole
	off    int    // the cursor's byte offset in text
}

// locate returns the section of code that holds byte offset off; ok is
// false when off is on a line that is not Go (a magic, a shell command, the
// "%%" line). A cell that package cell rejects (two "%%" lines) is read as
// one body, for what its names are worth.
func locate(code string, off int) (sec section, ok bool) {
	c, err := cell.Parse(code)
	if err != nil {
		return section{text: code, off: off, inBody: true}, true
	}
	line := strings.Count(code[:off], "\n")
	lineStart := strings.LastIndexByte(code[:off], '\n') + 1
	raw, _, _ := strings.Cut(code[lineStart:], "\n")
	sec.decls, sec.text = c.Decls, c.Decls
	first := 0 // the cell line where sec.text starts
	if c.HasBody && line >= c.BodyLine-2 {
		if line == c.BodyLine-2 {
			return section{}, false
		}
		sec.inBody, sec.text, first = true, c.Body, c.BodyLine-1
	}
	start := 0 // byte offset of the cursor's line in sec.text
	for i := first; i < line; i++ {
		start += strings.IndexByte(sec.text[start:], '\n') + 1
	}
	goLine, _, _ := strings.Cut(sec.text[start:], "\n")
	if goLine != raw {
		return section{}, false // package cell blanked it: a command
	}
	sec.off = start + off - lineStart
	return sec, true
}

// header starts the file the checker reads.
const header = "package cell\n\n"

// source returns the Go file the checker reads for the section cut at
// byte offset cut, with tail written at the cut and the brackets open
// before it closed, and the offset of the cut in that file. A body goes
// in a function after the cell's declarations, as the kernel runs it.
func (sec section) source(cut int, tail, closers string) (src string, at int) {
	var b strings.Builder
	b.WriteString(header)
	if sec.inBody {
		b.WriteString(sec.decls)
		b.WriteString("\nfunc " + cellpos.RunFunc + "() {\n")
	}
	b.WriteString(sec.text[:cut])
	at = b.Len()
	b.WriteString(tail + closers + "\n")
	if sec.inBody {
		b.WriteString("}\n")
	}
	return b.String(), at
}

// scanned is what the Go scanner makes of the text before the cursor.
type scanned struct {
	toks []scannedTok // without comments and the semicolon Go adds at the end
	// closers closes the brackets still open, innermost first, and makes
	// a call of each statement left open after defer or go: "defer fmt._"
	// is no statement, "defer fmt._()" is.
	closers string
	// assigned is closers that also end the statement at the cursor as an
	// assignment ("a, s._" is no statement, "a, s._ = nil" is), or "" when
	// that statement is no list of expressions; the parser tells whether
	// it was one, if closers loses the cursor (it may be the elements of
	// a composite literal).
	assigned  string
	inComment bool // the text ends inside a comment, or a rune literal: no name there
	str       int  // offset of the opening quote of a string the text ends in, or -1
	inImport  bool // that string is an import path
}

// level is a bracket open before the cursor, or the text around them all,
// with what the scanner saw of its current statement (elements, for a
// composite literal's brace) since the last ";" or ":" in it.
type level struct {
	open   token.Token // LPAREN, LBRACK, LBRACE; ILLEGAL for the outermost
	first  token.Token // the statement's first token; ILLEGAL for none yet
	comma  bool        // a comma outside the statement's brackets
	assign bool        // an assignment operator or an arrow outside them
}

// addClosers sets sc's closers and assigned for the levels open at the
// end of the text, the outermost first.
func (sc *scanned) addClosers(levels []level) {
	stmt := 0 // the innermost level that holds statements: a brace or the outermost
	for i, l := range levels {
		if l.open == token.LBRACE || l.open == token.ILLEGAL {
			stmt = i
		}
	}
	l := levels[stmt]
	list := l.comma && !l.assign && l.first != token.ILLEGAL && !l.first.IsKeyword()
	for i := len(levels) - 1; i >= 0; i-- {
		end := ""
		if t := levels[i].first; t == token.DEFER || t == token.GO {
			end = "()"
		}
		end += map[token.Token]string{token.LPAREN: ")", token.LBRACK: "]", token.LBRACE: "}"}[levels[i].open]
		if list && i == stmt {
			sc.assigned += " = nil"
		}
		sc.closers += end
		sc.assigned += end
	}
	if !list {
		sc.assigned = ""
	}
}

type scannedTok struct {
	tok      token.Token
	off, end int
}

// scan reads src, a cell section up to the cursor, with go/scanner.
func scan(src string) scanned {
	sc := scanned{str: -1}
	file := token.NewFileSet().AddFile("", -1, len(src))
	unterminated := -1
	var s scanner.Scanner
	s.Init(file, []byte(src), func(pos token.Position, msg string) {
		if strings.HasSuffix(msg, "not terminated") {
			unterminated = pos.Offset
			sc.inComment = strings.HasPrefix(msg, "comment")
		}
	}, scanner.ScanComments)
	levels := []level{{}}
	group := false // in an import ( ... ) group
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := file.Offset(pos)
		switch tok {
		case token.COMMENT:
			if strings.HasPrefix(lit, "//") && off+len(lit) == len(src) {
				sc.inComment = true
			}
			continue
		case token.SEMICOLON:
			if lit == "\n" && off == len(src) {
				continue
			}
		}
		cur := &levels[len(levels)-1]
		if cur.first == token.ILLEGAL && tok != token.SEMICOLON && tok != token.COLON {
			cur.first = tok
		}
		switch {
		case tok == token.SEMICOLON || tok == token.COLON: // a statement ends, or a case's or label's starts
			*cur = level{open: cur.open}
		case tok == token.COMMA:
			cur.comma = true
		case tok == token.ASSIGN || tok == token.DEFINE || tok == token.ARROW || token.ADD_ASSIGN <= tok && tok <= token.AND_NOT_ASSIGN:
			cur.assign = true
		case tok == token.LPAREN || tok == token.LBRACK || tok == token.LBRACE:
			levels = append(levels, level{open: tok})
			group = group || tok == token.LPAREN && sc.last(0) == token.IMPORT
		case tok == token.RPAREN || tok == token.RBRACK || tok == token.RBRACE:
			if len(levels) > 1 {
				levels = levels[:len(levels)-1]
			}
			group = group && tok != token.RPAREN
		}
		end := off + len(lit)
		if lit == "" {
			end = off + len(tok.String())
		}
		sc.toks = append(sc.toks, scannedTok{tok: tok, off: off, end: end})
	}
	sc.addClosers(levels)
	if n := len(sc.toks); sc.inComment || n == 0 || sc.toks[n-1].off != unterminated {
		return sc // the text does not end in an open literal (a line before may)
	}
	if sc.last(0) != token.STRING {
		sc.inComment = true // a rune literal: nothing to complete either
		return sc
	}
	sc.str = unterminated
	// import "p, import n "p, or a line of an import group.
	k := 1
	if t := sc.last(k); t == token.IDENT || t == token.PERIOD {
		k++
	}
	prev := sc.last(k)
	sc.inImport = prev == token.IMPORT || group && (prev == token.LPAREN || prev == token.SEMICOLON)
	return sc
}

// last returns the kind of the k-th token from the end (0: the last), or
// token.ILLEGAL.
func (sc scanned) last(k int) token.Token {
	if k >= len(sc.toks) {
		return token.ILLEGAL
	}
	return sc.toks[len(sc.toks)-1-k].tok
}

// partial returns the name being typed at the end of src (the text
// scanned, up to the cursor): the last token when it is an identifier or
// a keyword that ends there; after reports whether a period precedes it
// (a selector). number reports that the text ends in a number, where no
// name can start.
func (sc scanned) partial(src string) (name string, after, number bool) {
	n := len(sc.toks)
	if n > 0 && sc.toks[n-1].end == len(src) {
		switch t := sc.toks[n-1]; {
		case t.tok == token.IDENT || t.tok.IsKeyword():
			name, n = src[t.off:t.end], n-1
		case t.tok == token.INT || t.tok == token.FLOAT || t.tok == token.IMAG:
			return "", false, true
		}
	}
	return name, n > 0 && sc.toks[n-1].tok == token.PERIOD, false
}

// isIdentRune reports whether r may be part of a Go identifier.
func isIdentRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// identAround returns the byte range of the identifier in text that
// contains off or ends at it.
func identAround(text string, off int) (start, end int) {
	start, end = off, off
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:start])
		if !isIdentRune(r) {
			break
		}
		start -= size
	}
	for end < len(text) {
		r, size := utf8.DecodeRuneInString(text[end:])
		if !isIdentRune(r) {
			break
		}
		end += size
	}
	return start, end
}
