package frontend

import (
	"testing"

	"github.com/dlbd/dlbd/kernel/protocol"
)

func TestIsComplete(t *testing.T) {
	tests := []struct {
		name, code, status, indent string
	}{
		{"empty", "", protocol.Complete, ""},
		{"statement", "%%\nfmt.Println(1)", protocol.Complete, ""},
		{"open-call", "%%\nfmt.Println(", protocol.Incomplete, "\t"},
		{"open-func", "func f() {\n\tif x {", protocol.Incomplete, "\t\t"},
		{"closed-func", "func f() {\n}\n%%\nf()", protocol.Complete, ""},
		{"extra-close", "%%\nfmt.Println(1))", protocol.Invalid, ""},
		{"mismatched", "%%\nx := []int{1, 2)", protocol.Invalid, ""},
		{"close-first", "}", protocol.Invalid, ""},
		{"raw-string-open", "%%\ns := `uno\ndos", protocol.Incomplete, ""},
		{"raw-string-closed", "%%\ns := `uno\ndos`\nfmt.Println(s)", protocol.Complete, ""},
		// GoNB reads cells line by line: "%%dos`" is a magic to it, even
		// inside a raw string, so the string stays open.
		{"magic-inside-raw-string", "%%\ns := `uno\n%%dos`\nfmt.Println(s)", protocol.Incomplete, ""},
		{"block-comment-open", "/* sin cerrar\n", protocol.Incomplete, ""},
		{"string-broken", "%%\ns := \"uno\ndos\"", protocol.Invalid, ""},
		{"rune-broken", "%%\nr := 'ab'", protocol.Invalid, ""},
		{"illegal-char", "%%\nx := 1 # 2", protocol.Invalid, ""},
		{"trailing-operator", "%%\nx := 1 +", protocol.Incomplete, "\t"},
		{"trailing-comma", "%%\nfmt.Println(1,\n2,", protocol.Incomplete, "\t"},
		{"trailing-define", "%%\nx :=", protocol.Incomplete, "\t"},
		{"increment", "%%\nx++", protocol.Complete, ""},
		{"case-colon", "switch {\ncase true:", protocol.Incomplete, "\t"},
		{"comment-after", "%%\nfmt.Println(1) // (", protocol.Complete, ""},
		{"brackets-in-string", "%%\nfmt.Println(\"(\")", protocol.Complete, ""},
		{"magics-and-shell", "%env X=1\n!ls -l (\n%%\nfmt.Println(1)", protocol.Complete, ""},
		{"shell-continued", "!echo uno \\", protocol.Incomplete, ""},
		{"shell-continuation-line", "!echo uno \\\n   dos (\n%%", protocol.Complete, ""},
		{"gonb-prefix", "//gonb:%%\nfmt.Println(1)", protocol.Complete, ""},
		{"bash-cell", "%%bash\necho (", protocol.Unknown, ""},
		{"writefile-cell", "%%writefile x.go\nfunc (", protocol.Unknown, ""},
		{"script-with-prefix", "//gonb:%%script python3\nprint(", protocol.Unknown, ""},
		{"main-marker-args", "%% -flag=1\nfmt.Println(", protocol.Incomplete, "\t"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, indent := IsComplete(tt.code)
			if status != tt.status || indent != tt.indent {
				t.Errorf("IsComplete(%q) = %q, %q; want %q, %q", tt.code, status, indent, tt.status, tt.indent)
			}
		})
	}
}
