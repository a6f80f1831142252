package stateful

import (
	"fmt"
	"strings"
	"testing"
)

// results returns the displays of rec that are the cell's result.
func (r *recorder) results() []Display {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Display
	for _, d := range r.displays {
		if d.Result {
			out = append(out, d)
		}
	}
	return out
}

func TestSessionLastExpressionShown(t *testing.T) {
	ts := newTestSession(t)
	tests := []struct {
		name, cell string
		plain      string // "" when the cell shows no result
		html       string // a part of text/html, "" for none
	}{
		{name: "name", cell: "%%\nfmt.Println(\"antes\")\nx := 40\nx", plain: "40"},
		{name: "expression-of-earlier-value", cell: "%%\nx + 2", plain: "42"},
		{name: "call", cell: "%%\nstrings.Repeat(\"ab\", 2)", plain: "abab"},
		{name: "tensor", cell: "import \"github.com/dlbd/dlbd/dl\"\n%%\nt := dl.Ones(2)\nt", plain: "tensor([1., 1.]", html: "<pre"},
		{name: "nil-error", cell: "%%\nos.Setenv(\"DLBD_PRUEBA\", \"1\")"},
		{name: "semicolon", cell: "%%\nx;"},
		{name: "println", cell: "%%\nfmt.Println(x)"},
		{name: "multi-value", cell: "%%\nstrconv.Atoi(\"7\")"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, rec := ts.run(tt.cell)
			if res.Status != StatusOK {
				t.Fatalf("Cell [%d] %q: %s %s", ts.n, tt.cell, res.EName, res.EValue)
			}
			got := rec.results()
			if tt.plain == "" {
				if len(got) != 0 {
					t.Errorf("Cell %q shows %v; want no result", tt.cell, got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("Cell %q shows %d results (%v); want one", tt.cell, len(got), rec.displays)
			}
			if plain, _ := got[0].Data["text/plain"].(string); !strings.Contains(plain, tt.plain) {
				t.Errorf("Cell %q: text/plain %q; want it to have %q", tt.cell, plain, tt.plain)
			}
			html, _ := got[0].Data["text/html"].(string)
			if tt.html != "" && !strings.Contains(html, tt.html) || tt.html == "" && html != "" {
				t.Errorf("Cell %q: text/html %q; want %q in it", tt.cell, html, tt.html)
			}
			if last := rec.displays[len(rec.displays)-1]; !last.Result {
				t.Errorf("Cell %q: the result is not the last display (%v)", tt.cell, rec.displays)
			}
		})
	}
	if got := ts.ok("%%\nx++\nfmt.Println(x)"); got != "41\n" {
		t.Errorf("x after it was shown: %q; want 41 (it lives on)", got)
	}
}

func TestSessionHostDiedListsCompletedCells(t *testing.T) {
	ts := newTestSession(t)
	ts.ok("%%\nbien := 1")
	completed := ts.n
	ts.fails("%%\nmal := 2\npanic(mal)")
	failed := ts.n
	res, _ := ts.fails("%%\nos.Exit(3)")
	if want := fmt.Sprintf("run again the cells [%d] (in that order)", completed); !strings.Contains(res.EValue, want) {
		t.Errorf("evalue %q; want %q (the cell that panicked left out)", res.EValue, want)
	}
	if want := fmt.Sprintf("The name mal comes from cells that did not run to their end ([%d]", failed); !strings.Contains(res.EValue, want) {
		t.Errorf("evalue %q; want %q", res.EValue, want)
	}
}
