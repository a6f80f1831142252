package shim

import "testing"

func TestIsComplete(t *testing.T) {
	tests := []struct {
		name, code, status, indent string
	}{
		{"empty", "", Complete, ""},
		{"statement", "%%\nfmt.Println(1)", Complete, ""},
		{"open-call", "%%\nfmt.Println(", Incomplete, "\t"},
		{"open-func", "func f() {\n\tif x {", Incomplete, "\t\t"},
		{"closed-func", "func f() {\n}\n%%\nf()", Complete, ""},
		{"extra-close", "%%\nfmt.Println(1))", Invalid, ""},
		{"mismatched", "%%\nx := []int{1, 2)", Invalid, ""},
		{"close-first", "}", Invalid, ""},
		{"raw-string-open", "%%\ns := `uno\ndos", Incomplete, ""},
		{"raw-string-closed", "%%\ns := `uno\ndos`\nfmt.Println(s)", Complete, ""},
		// GoNB reads cells line by line: "%%dos`" is a magic to it, even
		// inside a raw string, so the string stays open.
		{"magic-inside-raw-string", "%%\ns := `uno\n%%dos`\nfmt.Println(s)", Incomplete, ""},
		{"block-comment-open", "/* sin cerrar\n", Incomplete, ""},
		{"string-broken", "%%\ns := \"uno\ndos\"", Invalid, ""},
		{"rune-broken", "%%\nr := 'ab'", Invalid, ""},
		{"illegal-char", "%%\nx := 1 # 2", Invalid, ""},
		{"trailing-operator", "%%\nx := 1 +", Incomplete, "\t"},
		{"trailing-comma", "%%\nfmt.Println(1,\n2,", Incomplete, "\t"},
		{"trailing-define", "%%\nx :=", Incomplete, "\t"},
		{"increment", "%%\nx++", Complete, ""},
		{"case-colon", "switch {\ncase true:", Incomplete, "\t"},
		{"comment-after", "%%\nfmt.Println(1) // (", Complete, ""},
		{"brackets-in-string", "%%\nfmt.Println(\"(\")", Complete, ""},
		{"magics-and-shell", "%env X=1\n!ls -l (\n%%\nfmt.Println(1)", Complete, ""},
		{"shell-continued", "!echo uno \\", Incomplete, ""},
		{"shell-continuation-line", "!echo uno \\\n   dos (\n%%", Complete, ""},
		{"gonb-prefix", "//gonb:%%\nfmt.Println(1)", Complete, ""},
		{"bash-cell", "%%bash\necho (", Unknown, ""},
		{"writefile-cell", "%%writefile x.go\nfunc (", Unknown, ""},
		{"script-with-prefix", "//gonb:%%script python3\nprint(", Unknown, ""},
		{"main-marker-args", "%% -flag=1\nfmt.Println(", Incomplete, "\t"},
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
