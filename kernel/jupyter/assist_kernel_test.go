package jupyter

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// completeAt completes code at its end (the cursor in code points) and
// returns the reply.
func completeAt(t *testing.T, c *Client, code string) protocol.CompleteReply {
	t.Helper()
	r, err := c.Complete(kerneltest.Context(t, 30*time.Second), code, utf8.RuneCountInString(code))
	if err != nil {
		t.Fatalf("Complete(%q): %v", code, err)
	}
	return r
}

// typesOf returns the _jupyter_types_experimental entries of r by text.
func typesOf(r protocol.CompleteReply) map[string]map[string]any {
	out := map[string]map[string]any{}
	list, _ := r.Metadata["_jupyter_types_experimental"].([]any)
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			out[fmt.Sprint(m["text"])] = m
		}
	}
	return out
}

// TestDLBDCompletion: Tab after "dl.", after a value of an earlier cell,
// inside a struct literal, an import path and a magic, with the replaced
// range in code points and each match's kind and signature, in both modes.
func TestDLBDCompletion(t *testing.T) {
	c := startDLBDMode(t, "stateful")
	run(t, c, "import \"github.com/dlbd/dlbd/dl/nn\"\n%%\nmodelo := nn.NewMLP([]int{2, 3, 1}, nn.MLPConfig{})")
	for _, tt := range []struct {
		code, want, kind string
	}{
		{"import \"github.com/dlbd/dlbd/dl\"\n%%\nx := dl.FromS", "FromSlice", "function"},
		{"%%\ny := modelo.For", "Forward", "method"},
		{"y := modelo.For", "Forward", "method"}, // statements alone run as a body, without %%
		{"%%\ncfg := nn.MLPConfig{", "", "field"},
		{"import \"github.com/dlbd/dlbd/dl/op", "github.com/dlbd/dlbd/dl/optim", "package"},
		{"%res", "%reset", "magic"},
		{"%%\nfo", "for", "keyword"},
	} {
		r := completeAt(t, c, tt.code)
		types := typesOf(r)
		if tt.want == "" { // any field of the literal
			for text, e := range types {
				if e["type"] == tt.kind {
					tt.want = text
					break
				}
			}
		}
		e, ok := types[tt.want]
		if !slices.Contains(r.Matches, tt.want) || !ok || e["type"] != tt.kind {
			t.Errorf("Complete(%q): %d matches %.10v; want %q as a %s", tt.code, len(r.Matches), r.Matches, tt.want, tt.kind)
		}
	}
	if e := typesOf(completeAt(t, c, "import \"github.com/dlbd/dlbd/dl\"\n%%\nx := dl.MatMulW"))["MatMulWith"]; e == nil || !strings.HasPrefix(fmt.Sprint(e["signature"]), "func(") {
		t.Errorf("dl.MatMulWith's completion entry %v; want a func signature", e)
	}
	// Cursor offsets count code points: accented letters and an emoji before.
	code := "%%\naño := \"¿qué? 🙂\"\nfmt.Println(añ"
	r := completeAt(t, c, code)
	n := utf8.RuneCountInString(code)
	if !slices.Contains(r.Matches, "año") || r.CursorStart != n-2 || r.CursorEnd != n {
		t.Errorf("Complete after \"añ\": matches %.5v, range [%d, %d); want año replacing [%d, %d) (code points)", r.Matches, r.CursorStart, r.CursorEnd, n-2, n)
	}
	if r := completeAt(t, c, "modelo.For"); r.CursorStart != 7 || r.CursorEnd != 10 {
		t.Errorf("Complete(\"modelo.For\") replaces [%d, %d); want [7, 10)", r.CursorStart, r.CursorEnd)
	}
	// The process mode completes packages too.
	run(t, c, "%mode process")
	if r := completeAt(t, c, "import \"github.com/dlbd/dlbd/dl\"\n%%\nx := dl.FromS"); !slices.Contains(r.Matches, "FromSlice") {
		t.Errorf("process mode: Complete after dl.FromS: %v; want FromSlice", r.Matches)
	}
	// GoNB keeps the declarations of the cells it ran: they complete too.
	run(t, c, "func nuevoDFS() int { return 41 }")
	if r := completeAt(t, c, "import \"fmt\"\n%%\nfmt.Println(nuevo"); !slices.Contains(r.Matches, "nuevoDFS") {
		t.Errorf("process mode: Complete after a cell declared nuevoDFS: %v; want nuevoDFS", r.Matches)
	}
}

// TestDLBDInspection: Shift+Tab on a function of dl and on a value of an
// earlier cell, a help cell ("?name"), and found=false for what is not a
// name.
func TestDLBDInspection(t *testing.T) {
	c := startDLBDMode(t, "stateful")
	run(t, c, "import \"github.com/dlbd/dlbd/dl\"\n%%\npesos := dl.Ones(2, 3)")
	ctx := kerneltest.Context(t, 30*time.Second)
	code := "import \"github.com/dlbd/dlbd/dl\"\n%%\ny := dl.MatMulWith("
	r, err := c.Inspect(ctx, code, utf8.RuneCountInString(code), 0)
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := r.Data["text/plain"].(string); !r.Found || !strings.Contains(text, "func dl.MatMulWith(") || r.Data["text/markdown"] == "" {
		t.Errorf("inspect dl.MatMulWith(: found %v, %q; want its declaration and doc", r.Found, r.Data["text/plain"])
	}
	code = "%%\nfmt.Println(pesos)"
	r, err = c.Inspect(ctx, code, strings.Index(code, "pesos")+2, 0)
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := r.Data["text/plain"].(string); !r.Found || !strings.Contains(text, "*dl.Tensor") || !strings.Contains(text, "Cell [1]") {
		t.Errorf("inspect pesos: found %v, %q; want its type and the cell that made it", r.Found, text)
	}
	if r, err := c.Inspect(ctx, "%%\n1 + 2", 5, 0); err != nil || r.Found {
		t.Errorf("inspect a number: %v, %v; want found false", r, err)
	}
	ex, err := c.Execute(ctx, "?dl.Ones")
	if err != nil {
		t.Fatal(err)
	}
	shown := ex.Displayed("text/plain")
	if !strings.Contains(shown, "func dl.Ones(") {
		t.Errorf("help cell ?dl.Ones showed %q; want dl.Ones's declaration", shown)
	}
}
