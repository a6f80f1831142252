package cell

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// Prefix is the comment GoNB lets commands hide behind, so that a cell
// still reads as Go in an editor: "//gonb:%%".
const Prefix = "//gonb:"

// Kind says what a [Command] is.
type Kind int

const (
	// Magic is a "%name args" line that configures the kernel.
	Magic Kind = iota
	// Shell is a "!cmd" line, run by a shell in the notebook's directory.
	Shell
	// ShellInTmp is a "!*cmd" line, run in the kernel's temporary directory.
	ShellInTmp
)

// Command is one magic or shell command of a cell.
type Command struct {
	// Kind says whether it is a magic or a shell command.
	Kind Kind
	// Line is the 1-based cell line the command starts on.
	Line int
	// Text is the command without its "%", "!" or "!*" and without the
	// leading blanks, continuation lines joined with a space.
	Text string
}

// Name returns the first word of a magic ("reset" for "%reset -f"), or ""
// for a shell command.
func (c Command) Name() string {
	if c.Kind != Magic {
		return ""
	}
	if f := strings.Fields(c.Text); len(f) > 0 {
		return f[0]
	}
	return ""
}

// Args returns the words of a magic after its name.
func (c Command) Args() []string {
	f := strings.Fields(c.Text)
	if c.Kind != Magic || len(f) == 0 {
		return nil
	}
	return f[1:]
}

// Cell is a parsed cell.
type Cell struct {
	// Source is the cell as it was given.
	Source string
	// Commands are the magic and shell commands, in order.
	Commands []Command
	// Decls is the Go text before the body: the cell's lines up to the
	// "%%" line (or all of them without one), command lines blanked.
	Decls string
	// Body is the Go text after the "%%" line, command lines blanked; it
	// is "" when HasBody is false.
	Body string
	// HasBody reports whether the cell has a "%%" (or "%main") line.
	HasBody bool
	// BodyLine is the 1-based cell line where Body starts (the line after
	// "%%"); 0 without a body.
	BodyLine int
	// BodyArgs are the words after "%%" on its line (GoNB passes them to
	// the program as arguments).
	BodyArgs []string
}

// IsSpecial reports whether line is a command line of GoNB's syntax: it
// starts with "%" or "!" and has something after it (behind the optional
// [Prefix]).
func IsSpecial(line string) bool {
	line = strings.TrimPrefix(line, Prefix)
	return len(line) > 1 && (line[0] == '%' || line[0] == '!')
}

// isBodyStart reports whether line starts the body: "%%" or "%main", alone
// or followed by blanks and arguments.
func isBodyStart(line string) (args []string, ok bool) {
	line = strings.TrimPrefix(line, Prefix)
	for _, m := range []string{"%%", "%main"} {
		if rest, found := strings.CutPrefix(line, m); found && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return strings.Fields(rest), true
		}
	}
	return nil, false
}

// Parse splits src into commands, declarations and body.
func Parse(src string) (*Cell, error) {
	c := &Cell{Source: src}
	lines := strings.Split(src, "\n")
	goLines := make([]string, len(lines))
	bodyAt := -1 // index of the %% line
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if args, ok := isBodyStart(line); ok {
			if bodyAt >= 0 {
				return nil, fmt.Errorf("cell: line %d: a second %q line; a cell has one body (the lines after the first %%%%)", i+1, strings.TrimSpace(line))
			}
			bodyAt, c.BodyArgs = i, args
			continue
		}
		if !IsSpecial(line) {
			goLines[i] = line
			continue
		}
		start := i
		text := strings.TrimPrefix(line, Prefix)
		for strings.HasSuffix(text, `\`) && i+1 < len(lines) {
			i++
			text = text[:len(text)-1] + " " + strings.TrimPrefix(lines[i], Prefix)
		}
		kind := Magic
		text = text[1:]
		if line := strings.TrimPrefix(line, Prefix); line[0] == '!' {
			kind = Shell
			if strings.HasPrefix(text, "*") {
				kind, text = ShellInTmp, text[1:]
			}
		}
		c.Commands = append(c.Commands, Command{Kind: kind, Line: start + 1, Text: strings.TrimSpace(text)})
	}
	if bodyAt < 0 {
		c.Decls = strings.Join(goLines, "\n")
		return c, nil
	}
	c.HasBody, c.BodyLine = true, bodyAt+2
	c.Decls = strings.Join(goLines[:bodyAt], "\n")
	c.Body = strings.Join(goLines[bodyAt+1:], "\n")
	return c, nil
}

// Magic returns the first magic command named name, if there is one.
func (c *Cell) Magic(name string) (Command, bool) {
	for _, m := range c.Commands {
		if m.Kind == Magic && m.Name() == name {
			return m, true
		}
	}
	return Command{}, false
}

// IsGoEmpty reports whether the cell has no Go code at all (only commands,
// blanks and comments are not checked: a cell of comments is not empty).
func (c *Cell) IsGoEmpty() bool {
	return strings.TrimSpace(c.Decls) == "" && strings.TrimSpace(c.Body) == "" && !c.HasBody
}

// StatementsAsBody makes the Go text of a cell without a body its body
// when it holds statements and no declarations, as a notebook student
// expects (IPython runs any code): a cell "modelo" or "fmt.Println(x)"
// then runs as if a "%%" line came first, and its last expression is
// shown. The text qualifies when it is not valid as a file's declarations
// and is valid as a function's body. It reports whether it changed c.
func (c *Cell) StatementsAsBody() bool {
	if c.HasBody || strings.TrimSpace(c.Decls) == "" {
		return false
	}
	fset := token.NewFileSet()
	if _, err := parser.ParseFile(fset, "", "package p\n"+c.Decls, parser.SkipObjectResolution); err == nil {
		return false
	}
	if _, err := parser.ParseFile(fset, "", "package p\nfunc _() {\n"+c.Decls+"\n}", parser.SkipObjectResolution); err != nil {
		return false
	}
	c.Body, c.Decls, c.HasBody, c.BodyLine = c.Decls, "", true, 1
	return true
}
