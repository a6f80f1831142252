package cell

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		decls    string
		body     string
		bodyLine int
		commands []Command
	}{
		{name: "decls-only", src: "func f() {}\nvar x = 1", decls: "func f() {}\nvar x = 1"},
		{name: "body", src: "import \"fmt\"\n%%\nfmt.Println(1)", decls: "import \"fmt\"", body: "fmt.Println(1)", bodyLine: 3},
		{name: "main-magic", src: "%main\nx := 1", decls: "", body: "x := 1", bodyLine: 2},
		{
			name: "commands-keep-lines", src: "!go version\nvar a int\n%%\n%reset\nb := a",
			decls: "\nvar a int", body: "\nb := a", bodyLine: 4,
			commands: []Command{{Kind: Shell, Line: 1, Text: "go version"}, {Kind: Magic, Line: 4, Text: "reset"}},
		},
		{
			name: "continuation", src: "!echo a \\\n  b\nvar z int", decls: "\n\nvar z int",
			commands: []Command{{Kind: Shell, Line: 1, Text: "echo a    b"}},
		},
		{
			name: "gonb-prefix-and-tmp-shell", src: "//gonb:%%\n!*ls\nx := 2", body: "\nx := 2", bodyLine: 2,
			commands: []Command{{Kind: ShellInTmp, Line: 2, Text: "ls"}},
		},
		{name: "percent-in-go-is-go", src: "x := 10 % 3", decls: "x := 10 % 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(tt.src)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.src, err)
			}
			if c.Decls != tt.decls || c.Body != tt.body || c.BodyLine != tt.bodyLine || c.HasBody != (tt.bodyLine > 0) {
				t.Errorf("Parse(%q) = decls %q, body %q at line %d (has %v); want %q, %q at %d",
					tt.src, c.Decls, c.Body, c.BodyLine, c.HasBody, tt.decls, tt.body, tt.bodyLine)
			}
			if !reflect.DeepEqual(c.Commands, tt.commands) {
				t.Errorf("Parse(%q).Commands = %+v; want %+v", tt.src, c.Commands, tt.commands)
			}
			// The Go parts keep the cell's line numbers.
			if body := strings.Count(c.Body, "\n") + 1; c.HasBody && c.BodyLine+body-1 != strings.Count(tt.src, "\n")+1 {
				t.Errorf("Parse(%q): body of %d lines from line %d does not end at the cell's last line", tt.src, body, c.BodyLine)
			}
		})
	}
}

func TestParseTwoBodies(t *testing.T) {
	_, err := Parse("%%\nx := 1\n%%\ny := 2")
	if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "one body") {
		t.Errorf("Parse with two %%%% lines: error %v; want one naming line 3 and the rule", err)
	}
}

func TestCommandNameArgs(t *testing.T) {
	c, err := Parse("%mode  process  now\n!ls -l")
	if err != nil {
		t.Fatal(err)
	}
	if m := c.Commands[0]; m.Name() != "mode" || !reflect.DeepEqual(m.Args(), []string{"process", "now"}) {
		t.Errorf("magic name %q args %q; want mode [process now]", m.Name(), m.Args())
	}
	if s := c.Commands[1]; s.Name() != "" || s.Args() != nil || s.Text != "ls -l" {
		t.Errorf("shell command name %q args %q text %q; want none, none, \"ls -l\"", s.Name(), s.Args(), s.Text)
	}
	if _, ok := c.Magic("mode"); !ok {
		t.Error("Magic(\"mode\") not found")
	}
}

func TestStatementsAsBody(t *testing.T) {
	for _, tt := range []struct {
		src  string
		body bool
	}{
		{"modelo", true},
		{"fmt.Println(x)\nx.Shape()", true},
		{"x := 1\nfor range 3 {\n\tx++\n}", true},
		{"!echo hola\nx", true},
		{"var x = 1", false},                      // a declaration
		{"func f() {}\nf()", false},               // declarations and statements: the hint asks for %%
		{"import \"fmt\"\nfmt.Println(1)", false}, // an import is a declaration
		{"%%\nx", false},                          // already a body
		{"// solo un comentario", false},
		{"x := (", false}, // neither: the compiler says why
	} {
		c, err := Parse(tt.src)
		if err != nil {
			t.Fatal(err)
		}
		decls := c.Decls
		if got := c.StatementsAsBody(); got != tt.body || c.HasBody != (tt.body || strings.Contains(tt.src, "%%")) {
			t.Errorf("StatementsAsBody(%q) = %v (HasBody %v); want %v", tt.src, got, c.HasBody, tt.body)
		}
		if tt.body && (c.Body != decls || c.Decls != "" || c.BodyLine != 1) {
			t.Errorf("StatementsAsBody(%q): body %q, decls %q, line %d; want the cell's Go lines as the body from line 1", tt.src, c.Body, c.Decls, c.BodyLine)
		}
	}
}
