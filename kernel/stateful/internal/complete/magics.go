package complete

import (
	"strings"

	"github.com/dlbd/dlbd/kernel/cell"
)

// Magic is one of the stateful kernel's magic commands ("%name args" at
// the start of a line).
type Magic struct {
	// Name is the command without its "%": "reset"; "%" for the body's
	// line "%%".
	Name string
	// Usage is how a cell writes it: "%env NAME=VALUE".
	Usage string
	// Help says what it does, in a line.
	Help string
	// Args are the words it takes, completed after it; nil when it takes
	// free text or nothing.
	Args []string
}

// Magics are the stateful kernel's magic commands: the one list that
// completion, inspection and %help show.
var Magics = []Magic{
	{Name: "%", Usage: "%%", Help: "the lines after it are the cell's body; a variable it declares at its top level (x := ..., var x = ...) lives on as well"},
	{Name: "reset", Usage: "%reset", Help: "drop every value and declaration, start a new kernel process"},
	{Name: "who", Usage: "%who", Help: "list the names that live on, with their type and cell"},
	{Name: "env", Usage: "%env NAME=VALUE", Help: "set an environment variable (cells, shell commands)"},
	{Name: "cd", Usage: "%cd DIR", Help: "change the directory cells and shell commands run in"},
	{Name: "mode", Usage: "%mode process|stateful", Help: "alone in its cell: process runs each cell as a new process (GoNB), values do not live on; stateful comes back (either switch forgets what lives on)", Args: []string{"process", "stateful"}},
	{Name: "help", Usage: "%help", Help: "list the magics and the cell syntax"},
}

// commandLine returns the text of the line holding byte offset off in
// code up to off, without package cell's Prefix, and the offset of that
// text in code; ok is false when the line is Go, not a command ("%" or
// "!" first).
func commandLine(code string, off int) (text string, start int, ok bool) {
	lineStart := strings.LastIndexByte(code[:off], '\n') + 1
	line := code[lineStart:off]
	text = strings.TrimPrefix(line, cell.Prefix)
	start = lineStart + len(line) - len(text)
	return text, start, text != "" && (text[0] == '%' || text[0] == '!')
}

// completeCommand completes a magic's name or its argument on a command
// line (a shell command's line completes nothing); ok is false on a Go line.
func completeCommand(code string, off int) (start int, ms []Match, ok bool) {
	text, start, ok := commandLine(code, off)
	if !ok || text[0] == '!' {
		return off, nil, ok
	}
	name, arg, hasArg := strings.Cut(text[1:], " ")
	var cs []candidate
	for _, m := range Magics {
		switch {
		case !hasArg:
			cs = append(cs, candidate{text: "%" + m.Name, kind: KindMagic, sig: m.Usage})
		case m.Name == name && !strings.Contains(strings.TrimLeft(arg, " "), " "):
			for _, a := range m.Args {
				cs = append(cs, candidate{text: a, kind: KindMagic, sig: m.Usage})
			}
			arg = strings.TrimLeft(arg, " ")
			return off - len(arg), finish(cs, arg, false), true
		}
	}
	if hasArg {
		return off, nil, true
	}
	return start, finish(cs, text, false), true
}

// magicAt describes the magic on the command line holding off.
func magicAt(code string, off int) (in Inspection, ok bool) {
	lineEnd := len(code)
	if i := strings.IndexByte(code[off:], '\n'); i >= 0 {
		lineEnd = off + i
	}
	text, _, ok := commandLine(code, lineEnd)
	if !ok || text[0] == '!' {
		return Inspection{}, ok
	}
	name, _, _ := strings.Cut(text[1:], " ")
	for _, m := range Magics {
		if m.Name == name || m.Name == "%" && strings.HasPrefix(name, "%") {
			return Inspection{Found: true, Text: m.Usage + "\n\n" + m.Help, Markdown: "`" + m.Usage + "`: " + m.Help}, true
		}
	}
	return Inspection{}, true
}
