package stateful

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dlbd/dlbd/kernel/cell"
	"github.com/dlbd/dlbd/kernel/stateful/internal/complete"
)

// query returns the query for code whose "|" is the cursor.
func query(code string) Query {
	i := strings.Index(code, "|")
	return Query{Code: code[:i] + code[i+1:], Cursor: utf8.RuneCountInString(code[:i])}
}

func matchTexts(c Completion) []string {
	var out []string
	for _, m := range c.Matches {
		out = append(out, m.Text)
	}
	return out
}

func TestSessionComplete(t *testing.T) {
	ts := newTestSession(t)
	ts.ok("import \"github.com/dlbd/dlbd/dl/nn\"\n%%\nmodelo := nn.NewMLP([]int{2, 3, 1}, nn.MLPConfig{})")
	ts.ok("// cuadrado returns x².\nfunc cuadrado(x float64) float64 { return x * x }")
	complete := []struct {
		code string
		want []string
		not  []string
		mode bool // ProcessMode
	}{
		{code: "%%\nmodelo.|", want: []string{"Forward", "Modules", "NamedParameters"}},
		{code: "%%\ndl.|", want: []string{"MatMulWith", "Ones"}},
		{code: "%%\ndl.Ones(2).|", want: []string{"MatMul", "Reshape"}},
		{code: "%%\ncua|", want: []string{"cuadrado"}},
		{code: "%%\nmodelo.|", not: []string{"Forward"}, mode: true},
		{code: "%%\nmod|", not: []string{"modelo"}, mode: true},
		{code: "%%\nx := dl.Ones(2)\nx.Resh|", want: []string{"Reshape"}, mode: true},
	}
	for _, tt := range complete {
		q := query(tt.code)
		q.ProcessMode = tt.mode
		got := matchTexts(ts.s.Complete(q))
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("Complete(%q, process mode %v) = %q; want %q among them", tt.code, tt.mode, got, w)
			}
		}
		for _, n := range tt.not {
			if slices.Contains(got, n) {
				t.Errorf("Complete(%q, process mode %v) = %q; want no %q", tt.code, tt.mode, got, n)
			}
		}
	}
	inspect := []struct {
		code string
		has  []string
	}{
		{code: "%%\ndl.MatMulWith(|", has: []string{"func dl.MatMulWith(kern dl.MatMulKernel, a, b *dl.Tensor) *dl.Tensor", "MatMulWith is MatMul"}},
		{code: "%%\nmodelo|", has: []string{"var modelo *nn.MLP", "Cell [1]", "MLP is a stack"}},
		{code: "%%\ncuadrado|", has: []string{"func cuadrado(x float64) float64", "Cell [2]"}},
	}
	for _, tt := range inspect {
		in := ts.s.Inspect(query(tt.code))
		for _, h := range tt.has {
			if !in.Found || !strings.Contains(in.Text, h) {
				t.Errorf("Inspect(%q) = found %v, %q; want %q in it", tt.code, in.Found, in.Text, h)
			}
		}
	}

	// Cells compose and commit while completion reads the session's names
	// (go test -race).
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				ts.s.Complete(query("%%\notro.|"))
				ts.s.Inspect(query("%%\nmodelo|"))
			}
		}
	})
	ts.ok("%%\notro := modelo")
	ts.ok("type Punto struct{ X, Y float64 }")
	close(stop)
	wg.Wait()
	if got := matchTexts(ts.s.Complete(query("%%\notro.|"))); !slices.Contains(got, "Forward") {
		t.Errorf("Complete(otro.) after its cell = %q; want Forward", got)
	}

	// While a cell runs, completion answers at once, with the names so far.
	done, _ := startCell(ts, "%%\ntime.Sleep(2 * time.Second)")
	time.Sleep(500 * time.Millisecond)
	t0 := time.Now()
	got := matchTexts(ts.s.Complete(query("%%\nmodelo.|")))
	if took := time.Since(t0); took > time.Second || !slices.Contains(got, "Forward") {
		t.Errorf("Complete while a cell runs took %v, gave %q; want Forward at once", took, got)
	}
	if res := <-done; res.Status != StatusOK {
		t.Errorf("sleeping cell: %s %s", res.EName, res.EValue)
	}
}

// TestCompleteDoesNotWait checks that completion answers while a cell
// holds the session (composing, building) and before the session is
// ready, and on a nil session.
func TestCompleteDoesNotWait(t *testing.T) {
	s := &Session{ready: make(chan struct{})}
	answer := func(what string, s *Session) Completion {
		t.Helper()
		c := make(chan Completion, 1)
		go func() { c <- s.Complete(query("%%\nvalor := 1\nva|")) }()
		select {
		case got := <-c:
			if m := matchTexts(got); !slices.Contains(m, "valor") || !slices.Contains(m, "var") {
				t.Errorf("Complete %s = %q; want valor and var", what, m)
			}
			return got
		case <-time.After(5 * time.Second):
			t.Fatalf("Complete %s did not return", what)
		}
		return Completion{}
	}
	answer("before the session is ready", s)
	close(s.ready)
	s.mu.Lock() // a cell composing
	answer("while a cell holds the session", s)
	s.mu.Unlock()
	answer("on a nil session", nil)
	var none *Session
	if in := none.Inspect(query("%%\nappend|")); !in.Found || !strings.HasPrefix(in.Text, "func append(") {
		t.Errorf("Inspect(append) on a nil session = %v %q; want the builtin's declaration", in.Found, in.Text)
	}
}

func TestParseHelp(t *testing.T) {
	tests := []struct {
		code string
		want Query
		ok   bool
	}{
		{code: "?dl.MatMulWith", want: Query{Code: "%%\ndl.MatMulWith", Cursor: 16}, ok: true},
		{code: "año??", want: Query{Code: "%%\naño", Cursor: 6, Detail: 1}, ok: true},
		{code: "x := 1"},
	}
	for _, tt := range tests {
		if got, ok := ParseHelp(tt.code); ok != tt.ok || got != tt.want {
			t.Errorf("ParseHelp(%q) = %+v, %v; want %+v, %v", tt.code, got, ok, tt.want, tt.ok)
		}
	}
}

// TestMagicsListed checks that the magics completion offers
// (complete.Magics) are the ones the session runs and %help lists.
func TestMagicsListed(t *testing.T) {
	s := &Session{ready: make(chan struct{}), env: map[string]string{}}
	for _, m := range complete.Magics {
		if m.Name == "%" || m.Name == "mode" {
			continue // the body's line, which package cell reads; %mode, which the front end runs
		}
		res := s.magic(context.Background(), cell.Command{Kind: cell.Magic, Line: 1, Text: m.Name}, &recorder{})
		if strings.Contains(res.EValue, "is not a magic") {
			t.Errorf("%%%s is in complete.Magics but the session does not run it: %s", m.Name, res.EValue)
		}
		if !strings.Contains(helpText, "%"+m.Name) {
			t.Errorf("%%%s is in complete.Magics but not in %%help", m.Name)
		}
	}
}
