package frontend

import (
	"go/scanner"
	"go/token"
	"strings"

	"github.com/dlbd/dlbd/kernel/cell"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// otherLanguage are GoNB's cell magics: a first line starting with one of
// them makes the whole cell something other than Go.
var otherLanguage = map[string]bool{"%%writefile": true, "%%script": true, "%%bash": true, "%%sh": true, "%%gx": true}

// closing maps each closing bracket token to its opening one.
var closing = map[token.Token]token.Token{token.RPAREN: token.LPAREN, token.RBRACK: token.LBRACK, token.RBRACE: token.LBRACE}

// IsComplete says whether code, a GoNB cell, is ready to run, as a console
// asks with is_complete_request before running what was typed. GoNB cells
// are Go with line-based extras: lines starting with "%" (magics, and the
// "%%" that starts the main body) or "!" (shell commands), continued by a
// trailing `\`, are complete lines of their own; the rest is Go, scanned
// with go/scanner for bracket, string and comment balance. The status is
// [protocol.Incomplete] for an open bracket, raw string or comment, or a
// line ending in an operator or in `\`, and then indent is the tabs to
// start the next line with; [protocol.Invalid] for what no further line can
// make valid (a closing bracket without its opening one, a string broken by
// a newline); [protocol.Unknown] for a cell that is not Go (a %%bash,
// %%script, %%sh, %%writefile or %%gx cell); else [protocol.Complete].
func IsComplete(code string) (status, indent string) {
	lines := strings.Split(code, "\n")
	if f := strings.Fields(strings.TrimPrefix(lines[0], cell.Prefix)); len(f) > 0 && otherLanguage[f[0]] {
		return protocol.Unknown, ""
	}
	continued := false // the previous special line ended in `\`
	for i, l := range lines {
		if continued || cell.IsSpecial(l) {
			continued = strings.HasSuffix(l, `\`)
			lines[i] = "" // keeps the line numbers of the Go part
		}
	}
	if continued {
		return protocol.Incomplete, ""
	}
	return goComplete(strings.Join(lines, "\n"))
}

// goComplete is IsComplete for plain Go source.
func goComplete(src string) (status, indent string) {
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(src))
	errs := 0
	var s scanner.Scanner
	s.Init(file, []byte(src), func(token.Position, string) { errs++ }, scanner.ScanComments)
	var open []token.Token // the brackets not closed yet, innermost last
	last := token.ILLEGAL  // the last token other than a comment
	for {
		before := errs
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if errs > before {
			// A raw string or a block comment may go on in the next lines;
			// any other scanning error is there to stay.
			if tok == token.STRING && strings.HasPrefix(lit, "`") || tok == token.COMMENT && strings.HasPrefix(lit, "/*") {
				return protocol.Incomplete, ""
			}
			return protocol.Invalid, ""
		}
		switch tok {
		case token.COMMENT:
			continue
		case token.LPAREN, token.LBRACK, token.LBRACE:
			open = append(open, tok)
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if len(open) == 0 || open[len(open)-1] != closing[tok] {
				return protocol.Invalid, ""
			}
			open = open[:len(open)-1]
		}
		last = tok
	}
	if len(open) > 0 {
		return protocol.Incomplete, strings.Repeat("\t", len(open))
	}
	if continues(last) {
		return protocol.Incomplete, "\t"
	}
	return protocol.Complete, ""
}

// continues reports whether a line ending in tok goes on in the next line:
// Go inserts no semicolon after an operator, so "x := 1 +" is unfinished.
// Closing brackets, "++", "--", ":" and the semicolons Go inserts itself end
// a line.
func continues(tok token.Token) bool {
	switch tok {
	case token.SEMICOLON, token.COLON, token.RPAREN, token.RBRACK, token.RBRACE, token.INC, token.DEC:
		return false
	}
	return tok.IsOperator()
}
