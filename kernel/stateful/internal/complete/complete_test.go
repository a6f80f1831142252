package complete

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// at splits code at its "|", the cursor, and returns the code and the
// cursor in code points.
func at(code string) (string, int) {
	i := strings.Index(code, "|")
	return code[:i] + code[i+1:], utf8.RuneCountInString(code[:i])
}

func texts(ms []Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Text)
	}
	return out
}

// inOrder reports whether want appear in got in this order.
func inOrder(got, want []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}

func TestComplete(t *testing.T) {
	e := New(testIndex(t))
	syms := testSymbols(t)
	tests := []struct {
		name string
		code string   // "|" is the cursor
		want []string // in this order, among the matches
		not  []string
		kind Kind   // of want[0], when set
		sig  string // of want[0], when set
	}{
		{name: "session-value", code: "%%\nmodelo.|", want: []string{"Forward", "Modules", "NamedParameters"}, kind: KindMethod, sig: "func(x *dl.Tensor) *dl.Tensor"},
		{name: "session-value-typed", code: "%%\nmodelo.na|", want: []string{"NamedParameters"}, not: []string{"Forward"}},
		{name: "session-body-variable", code: "%%\ntensor.Sha|", want: []string{"Shape"}, kind: KindMethod, sig: "func() []int"},
		{name: "package-auto-imported", code: "%%\ndl.On|", want: []string{"Ones", "OnesLike"}, kind: KindFunction, sig: "func(dims ...int) *dl.Tensor"},
		{name: "package-imported", code: "import \"fmt\"\n%%\nfmt.Pr|", want: []string{"Print", "Printf", "Println"}},
		{name: "package-std-auto", code: "%%\nstrings.ToU|", want: []string{"ToUpper"}},
		{name: "call-chain", code: "%%\ndl.Ones(2).Resh|", want: []string{"Reshape"}, sig: "func(dims ...int) *dl.Tensor"},
		{name: "index-chain", code: "%%\nmodelo.Modules[0].|", want: []string{"Forward", "NamedParameters", "SetTraining"}},
		{name: "open-call", code: "%%\nfmt.Println(modelo.Mod|", want: []string{"Modules"}, kind: KindField, sig: "[]nn.Module"},
		{name: "local-of-body", code: "%%\nt := dl.Ones(3)\nt.Resh|", want: []string{"Reshape"}},
		{name: "local-in-loop", code: "%%\nfor _, p := range []Punto{} {\n\tp.|", want: []string{"Norma2", "X", "Y"}, not: []string{"secreto"}},
		{name: "earlier-cell-type-unexported", code: "%%\np := Punto{}\np.|", want: []string{"Norma2", "X"}, not: []string{"secreto"}},
		{name: "own-type-unexported", code: "type q struct{ a, B int }\n%%\nv := q{}\nv.|", want: []string{"B", "a"}},
		{name: "in-decls", code: "func f(t *dl.Tensor) {\n\tt.Sha|", want: []string{"Shape"}},
		{name: "in-decls-before-body", code: "func f() {\n\tmod|\n}\n%%\nf()", want: []string{"modelo"}},
		{name: "names", code: "%%\ncua|", want: []string{"cuadrado"}, kind: KindFunction, sig: "func(x float64) float64"},
		{name: "names-ignore-case", code: "%%\nAÑ|", want: []string{"año"}, kind: KindVariable, sig: "int"},
		{name: "names-typed-case-first", code: "%%\npunto := 1\npu|", want: []string{"punto", "Punto"}},
		{name: "constant", code: "%%\nPi|", want: []string{"Pi2"}, kind: KindConstant, sig: "untyped float = 6.28"},
		{name: "local-before-cursor-only", code: "%%\nvalor := val|", not: []string{"valor"}},
		{name: "local-declared", code: "%%\nvalor := 1\nval|", want: []string{"valor"}},
		{name: "cell-shadows-session", code: "var modelo = 3\n%%\nmodelo.|", not: []string{"Forward"}},
		{name: "package-name", code: "%%\nstrc|", want: []string{"strconv"}, kind: KindPackage, sig: "strconv"},
		{name: "package-name-preferred", code: "%%\nran|", want: []string{"rand"}, sig: "math/rand"},
		{name: "keyword", code: "%%\nfo|", want: []string{"for"}, kind: KindKeyword},
		{name: "builtin", code: "%%\nappe|", want: []string{"append"}, kind: KindFunction},
		{name: "literal-fields", code: "%%\np := Punto{|}", want: []string{"X", "Y", "año"}, kind: KindField},
		{name: "literal-fields-left", code: "%%\np := Punto{X: 1, |}", want: []string{"Y"}, not: []string{"X"}},
		{name: "literal-package-type", code: "%%\nc := nn.MLPConfig{Act|}", want: []string{"Activation"}},
		{name: "literal-value-not-key", code: "%%\np := Punto{X: cua|}", want: []string{"cuadrado"}},
		{name: "magic", code: "%re|", want: []string{"%reset"}, kind: KindMagic, sig: "%reset"},
		{name: "magic-all", code: "%|", want: []string{"%%", "%cd", "%env", "%help", "%mode", "%reset", "%who"}},
		{name: "magic-gonb-prefix", code: "//gonb:%wh|", want: []string{"%who"}},
		{name: "magic-arg", code: "%mode pro|", want: []string{"process"}},
		{name: "shell", code: "!ls mod|", not: []string{"modelo"}},
		{name: "import-path", code: "import \"nn|\"", want: []string{"github.com/dlbd/dlbd/dl/nn"}, kind: KindPackage, sig: "nn"},
		{name: "import-path-std-first", code: "import \"stri|", want: []string{"strings"}},
		{name: "import-group", code: "import (\n\t\"fmt\"\n\tm \"mat|", want: []string{"math", "math/rand"}},
		{name: "string-not-import", code: "%%\nfmt.Println(\"mod|", not: []string{"modelo"}},
		{name: "comment", code: "%%\n// modelo.|", not: []string{"Forward"}},
		{name: "number", code: "%%\nx := 3.|", not: []string{"Forward", "for"}},
		{name: "open-string-before", code: "%%\ns := \"abc\nmod|", want: []string{"modelo"}},
		{name: "open-rune-before", code: "%%\nr := 'a\nmod|", want: []string{"modelo"}},
		{name: "broken-code", code: "%%\n)))(((\nmod|", want: []string{"modelo"}},
		{name: "broken-after-cursor", code: "%%\nmod|\n}}} func (", want: []string{"modelo"}},
		{name: "two-bodies", code: "%%\nx := 1\n%%\nmod|", want: []string{"modelo"}},
		{name: "defer-package", code: "%%\ndefer fmt.Pr|", want: []string{"Print", "Printf", "Println"}},
		{name: "defer-value", code: "%%\nvar s struct{ X, Y int }\ndefer s.|", want: []string{"X", "Y"}},
		{name: "go-value", code: "%%\ngo modelo.|", want: []string{"Forward"}},
		{name: "go-call-chain", code: "%%\ngo dl.Ones(2).Resh|", want: []string{"Reshape"}},
		{name: "defer-in-func", code: "func f() {\n\tdefer fmt.Pr|\n}", want: []string{"Println"}},
		{name: "defer-func-literal", code: "%%\ndefer func() {\n\tif r := recover(); r != nil {\n\t\tfmt.Pr|", want: []string{"Println"}},
		{name: "defer-in-case", code: "%%\nswitch {\ncase true: defer fmt.Pr|", want: []string{"Println"}},
		{name: "defer-call-args", code: "%%\ndefer fmt.Println(modelo.|", want: []string{"Forward"}},
		{name: "map-key", code: "%%\nm := map[string]int{strings.|", want: []string{"ToUpper"}},
		{name: "map-key-second", code: "%%\nm := map[string]int{\"a\": 1, strings.|", want: []string{"ToUpper"}},
		{name: "map-key-name", code: "%%\nm := map[float64]int{Pi|", want: []string{"Pi2"}},
		{name: "map-value", code: "%%\nm := map[string]string{\"a\": strings.|", want: []string{"ToUpper"}},
		{name: "slice-element", code: "%%\nm := []string{strings.|", want: []string{"ToUpper"}},
		{name: "struct-key-not-selector", code: "%%\np := Punto{modelo.|", want: []string{"Forward"}},
		{name: "assign-two-targets", code: "%%\nvar s struct{ X, Y int }\ns.X, s.|", want: []string{"X", "Y"}},
		{name: "assign-two-targets-name", code: "%%\nvar s struct{ X, Y int }\na, s.|", want: []string{"X", "Y"}},
		{name: "assign-three-targets", code: "%%\nvar s struct{ X, Y int }\ns.X, s.Y, s.|", want: []string{"X", "Y"}},
		{name: "assign-target-call", code: "%%\nvar s struct{ X, Y int }\na, f(s.|", want: []string{"X", "Y"}},
		{name: "assign-targets-in-block", code: "%%\nvar s struct{ X, Y int }\nfor range 3 {\n\ts.X, s.|", want: []string{"X", "Y"}},
		{name: "literal-elements-not-assignment", code: "%%\nxs := []*dl.Tensor{tensor, tensor.T|", want: []string{"T"}},
		{name: "assign-targets-value", code: "%%\nvar s struct{ X, Y int }\ns.X, s.Y = 1, s.|", want: []string{"X", "Y"}},
		{name: "assign-targets-names", code: "%%\nvalor := 1\nx, val|", want: []string{"valor"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, cursor := at(tt.code)
			checkMatches(t, tt.code, e.Complete(code, cursor, syms), tt.want, tt.not, tt.kind, tt.sig)
		})
	}
}

// checkMatches reports on t where c, the completion of code ("|" its
// cursor), lacks want in this order, has one of not, ends elsewhere than
// at the cursor, or gives want[0] another kind or signature than kind and
// sig (when set).
func checkMatches(t *testing.T, code string, c Completion, want, not []string, kind Kind, sig string) {
	t.Helper()
	_, cursor := at(code)
	got := texts(c.Matches)
	if !inOrder(got, want) {
		t.Errorf("Complete(%q) = %q; want %q in this order", code, got, want)
	}
	for _, n := range not {
		if slices.Contains(got, n) {
			t.Errorf("Complete(%q) = %q; want no %q", code, got, n)
		}
	}
	if c.End != cursor {
		t.Errorf("Complete(%q).End = %d; want the cursor, %d", code, c.End, cursor)
	}
	if i := slices.Index(got, first(want)); i >= 0 {
		if m := c.Matches[i]; kind != "" && m.Kind != kind || sig != "" && m.Signature != sig {
			t.Errorf("Complete(%q): %s is %s %q; want %s %q", code, m.Text, m.Kind, m.Signature, kind, sig)
		}
	}
}

// TestCompletePackageChoice checks which package a name the cell does
// not import completes from, when several packages have that name: one
// an earlier cell imported (the latest), else the standard library's or
// this module's, chosen by the selectors the cell writes but not by the
// one being typed.
func TestCompletePackageChoice(t *testing.T) {
	const (
		cryptoCell = "import \"crypto/rand\"\n\nfunc azar(b []byte) { rand.Read(b) }\n"
		mathCell   = "import \"math/rand\"\n\nfunc dado() int { return rand.Intn(6) }\n"
		clientCell = "import \"github.com/apache/spark-connect-go/spark\"\n\nvar versión = spark.Version()\n"
	)
	tests := []struct {
		name  string
		spark bool     // with the index of bigdata/spark and Spark's Go client
		cells []string // earlier cells
		code  string   // "|" is the cursor
		want  []string
		not   []string
		sig   string // of want[0], when set
	}{
		{name: "session=none", code: "%%\nrand.Re|", want: []string{"Read"}, not: []string{"Reader"}},
		{name: "session=crypto", cells: []string{cryptoCell}, code: "%%\nrand.Re|", want: []string{"Read", "Reader"}},
		{name: "session=crypto/name", cells: []string{cryptoCell}, code: "%%\nran|", want: []string{"rand"}, sig: "crypto/rand"},
		{name: "session=crypto/selector-decides", cells: []string{cryptoCell}, code: "%%\nrand.Intn(6)\nrand.|", want: []string{"Intn"}, not: []string{"Reader"}},
		{name: "session=crypto,math", cells: []string{cryptoCell, mathCell}, code: "%%\nrand.|", want: []string{"Intn"}, not: []string{"Reader"}},
		{name: "session=math,crypto", cells: []string{mathCell, cryptoCell}, code: "%%\nrand.|", want: []string{"Reader"}, not: []string{"Intn"}},
		{name: "cell-imports", cells: []string{cryptoCell}, code: "import \"math/rand\"\n%%\nrand.|", want: []string{"Intn"}, not: []string{"Reader"}},
		{name: "module-first", spark: true, code: "%%\nx := spark.E|", want: []string{"Ensure"}},
		{name: "module-first/all", spark: true, code: "%%\nspark.|", want: []string{"Ensure", "Start"}, not: []string{"Version"}},
		{name: "module-first/name", spark: true, code: "%%\nspar|", want: []string{"spark"}, sig: "github.com/dlbd/dlbd/bigdata/spark"},
		{name: "module-first/selector-decides", spark: true, code: "%%\nv := spark.Version()\nspark.|", want: []string{"Version"}, not: []string{"Ensure"}},
		{name: "module-first/session=client", spark: true, cells: []string{clientCell}, code: "%%\nspark.|", want: []string{"Version"}, not: []string{"Ensure"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			index := testIndex(t)
			if tt.spark {
				index = sparkIndex(t)
			}
			syms := cellSymbols(t, index, tt.cells...)
			code, cursor := at(tt.code)
			checkMatches(t, tt.code, New(index).Complete(code, cursor, syms), tt.want, tt.not, "", tt.sig)
		})
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// TestCompleteCodePoints checks that Start and End count code points, with
// accented text and an emoji before the cursor.
func TestCompleteCodePoints(t *testing.T) {
	e := New(testIndex(t))
	syms := testSymbols(t)
	tests := []struct {
		code       string
		start, end int
		want       string
	}{
		{code: "%%\ns := \"¿qué? 🙂\"\nmodelo.Forw|", start: 25, end: 29, want: "Forward"},
		{code: "%%\naño := 1\nañ|", start: 12, end: 14, want: "año"},
		{code: "%%\n// 🙂🙂\ndl.On|", start: 12, end: 14, want: "Ones"},
	}
	for _, tt := range tests {
		code, cursor := at(tt.code)
		c := e.Complete(code, cursor, syms)
		if c.Start != tt.start || c.End != tt.end || !slices.Contains(texts(c.Matches), tt.want) {
			t.Errorf("Complete(%q) = [%d, %d) %q; want [%d, %d) with %q", tt.code, c.Start, c.End, texts(c.Matches), tt.start, tt.end, tt.want)
		}
		if got := string([]rune(code)[c.Start:c.End]); !strings.HasPrefix(tt.want, got) {
			t.Errorf("Complete(%q) replaces %q; want a prefix of %q", tt.code, got, tt.want)
		}
	}
}

func TestCompleteBadInput(t *testing.T) {
	e := New(testIndex(t))
	syms := testSymbols(t)
	for _, tt := range []struct {
		code   string
		cursor int
	}{
		{code: "modelo.", cursor: 8},
		{code: "modelo.", cursor: -1},
		{code: "", cursor: 0},
		{code: "año", cursor: 4},
		{code: "\xff\xfe.", cursor: 3},
		{code: "%%\n%%", cursor: 5},
		{code: "%%\nfunc(", cursor: 8},
		{code: "%%\n\"\\", cursor: 5},
		{code: "%%\n'", cursor: 4},
		{code: "%%\n/* modelo.", cursor: 13},
		{code: "%%\nx := [](", cursor: 11},
		{code: "%%\ntype T[", cursor: 10},
	} {
		c := e.Complete(tt.code, tt.cursor, syms)
		if strings.Contains(tt.code, "modelo") && len(c.Matches) > 0 {
			t.Errorf("Complete(%q, %d) = %q; want none", tt.code, tt.cursor, texts(c.Matches))
		}
		if c.Start > c.End {
			t.Errorf("Complete(%q, %d) = [%d, %d); want start ≤ end", tt.code, tt.cursor, c.Start, c.End)
		}
	}
	// Without an index: keywords, magics, builtins and the cell's names.
	bare := New(nil)
	code, cursor := at("%%\nvalor := 1\nva|")
	if got := texts(bare.Complete(code, cursor, nil).Matches); !inOrder(got, []string{"valor", "var"}) {
		t.Errorf("Complete without an index = %q; want valor, var", got)
	}
	code, cursor = at("%%\ndl.|")
	if got := bare.Complete(code, cursor, nil).Matches; len(got) != 0 {
		t.Errorf("Complete(dl.) without an index = %q; want none", texts(got))
	}
}

// TestCompleteConcurrent completes and inspects from several goroutines
// with one engine and one session's names, as the kernel's front end may
// (go test -race).
func TestCompleteConcurrent(t *testing.T) {
	e := New(testIndex(t))
	syms := testSymbols(t)
	codes := []string{"%%\nmodelo.|", "%%\ndl.Ones(2).|", "%%\nstrings.|", "%%\ndl.MatMulWith(|", "%%\ntensor|"}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 10 {
				code, cursor := at(codes[(g+i)%len(codes)])
				e.Complete(code, cursor, syms)
				e.Inspect(code, cursor, 0, syms)
			}
		})
	}
	wg.Wait()
}
