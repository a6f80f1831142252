package stateful

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// recorder is an Output that keeps what a cell showed.
type recorder struct {
	mu       sync.Mutex
	stdout   strings.Builder
	stderr   strings.Builder
	displays []Display
}

func (r *recorder) Stream(name, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if name == "stdout" {
		r.stdout.WriteString(text)
	} else {
		r.stderr.WriteString(text)
	}
}

func (r *recorder) Display(d Display) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.displays = append(r.displays, d)
}

// testSession runs cells in one session for a test.
type testSession struct {
	t *testing.T
	s *Session
	n int
}

func newTestSession(t *testing.T) *testSession {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the host and plugins")
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Repo: repo, InterruptGrace: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return &testSession{t: t, s: s}
}

// run executes code as the next cell.
func (ts *testSession) run(code string) (Result, *recorder) {
	ts.t.Helper()
	ts.n++
	rec := &recorder{}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	return ts.s.Execute(ctx, code, ts.n, rec), rec
}

// ok executes code and returns its stdout, failing the test on an error.
func (ts *testSession) ok(code string) string {
	ts.t.Helper()
	res, rec := ts.run(code)
	if res.Status != "ok" {
		ts.t.Fatalf("Cell [%d] %q: %s %s\n%s\nstderr: %s", ts.n, code, res.EName, res.EValue, strings.Join(res.Traceback, "\n"), rec.stderr.String())
	}
	return rec.stdout.String()
}

func TestSessionValuesLiveOn(t *testing.T) {
	ts := newTestSession(t)
	ts.ok("var contador = 0\nfunc cuadrado(x float64) float64 { return x * x }")
	if got := ts.ok("%%\ncontador++\nfmt.Println(cuadrado(3), contador)"); got != "9 1\n" {
		t.Errorf("stdout = %q; want %q", got, "9 1\n")
	}
	if got := ts.ok("%%\ncontador++\nfmt.Println(contador)"); got != "2\n" {
		t.Errorf("second increment: stdout = %q; want 2 (the value lives on)", got)
	}
	ts.ok("import \"github.com/dlbd/dlbd/dl/nn\"\n%%\nmodel := nn.NewMLP([]int{2, 3, 1}, nn.MLPConfig{})\nx := 40")
	if got := ts.ok("%%\nx += 2\nfmt.Println(x, len(model.NamedParameters()))"); got != "42 4\n" {
		t.Errorf("lifted := values: stdout = %q; want %q", got, "42 4\n")
	}
}

// fails executes code, which must fail, and returns its result.
func (ts *testSession) fails(code string) (Result, *recorder) {
	ts.t.Helper()
	res, rec := ts.run(code)
	if res.Status != "error" {
		ts.t.Fatalf("Cell [%d] %q: status %q; want error (stdout %q)", ts.n, code, res.Status, rec.stdout.String())
	}
	return res, rec
}

func TestSessionSemantics(t *testing.T) {
	ts := newTestSession(t)
	t.Run("redefinition-shadows", func(t *testing.T) {
		ts.ok("func saludo() string { return \"uno\" }\nfunc usa() string { return saludo() }")
		ts.ok("func saludo() string { return \"dos\" }")
		// Later cells see the new saludo; usa keeps calling the one it was compiled with.
		if got := ts.ok("%%\nfmt.Println(saludo(), usa())"); got != "dos uno\n" {
			t.Errorf("stdout = %q; want %q", got, "dos uno\n")
		}
	})
	t.Run("type-identity", func(t *testing.T) {
		ts.ok("type Punto struct{ X, Y float64 }\nfunc (p Punto) Norma2() float64 { return p.X*p.X + p.Y*p.Y }")
		ts.ok("%%\np := Punto{3, 4}")
		ts.ok("func norma(p Punto) float64 { return p.Norma2() }")
		if got := ts.ok("%%\nvar q Punto = p\nfmt.Println(norma(q), fmt.Sprintf(\"%T\", q))"); !strings.HasPrefix(got, "25 cell") || !strings.HasSuffix(got, ".Punto\n") {
			t.Errorf("stdout = %q; want 25 and the type cellN.Punto", got)
		}
	})
	t.Run("unexported-names-of-earlier-cells", func(t *testing.T) {
		ts.ok("type experimento struct{ Perdidas []float64 }\nconst limite = 3\nvar total int\nfunc doble[T ~int | ~float64](x T) T { return 2 * x }")
		ts.ok("%%\ne := experimento{Perdidas: []float64{1}}\ntotal = doble(limite)")
		if got := ts.ok("%%\ne.Perdidas = append(e.Perdidas, doble(2.5))\nfmt.Println(e.Perdidas, total)"); got != "[1 5] 6\n" {
			t.Errorf("stdout = %q; want %q", got, "[1 5] 6\n")
		}
	})
	t.Run("method-on-earlier-type", func(t *testing.T) {
		res, _ := ts.fails("func (p Punto) Suma() float64 { return p.X + p.Y }")
		if !strings.Contains(res.EValue, "Line 1") || !strings.Contains(res.EValue, "Punto was declared in Cell [") || !strings.Contains(res.EValue, "only the package that declares a type") {
			t.Errorf("evalue = %q; want the cell line and an explanation naming the declaring cell", res.EValue)
		}
	})
	t.Run("unexported-field-of-earlier-type", func(t *testing.T) {
		ts.ok("type caja struct{ dentro int }\n%%\nc := caja{dentro: 1}")
		res, _ := ts.fails("%%\nfmt.Println(c.dentro)")
		if !strings.Contains(res.EValue, "capital letter") {
			t.Errorf("evalue = %q; want the hint to export the field", res.EValue)
		}
	})
	t.Run("goroutines-channels-closures", func(t *testing.T) {
		ts.ok("%%\nch := make(chan int, 10)\nsuma := 0\nagrega := func(v int) { suma += v }\nvar wg sync.WaitGroup\nfor i := 1; i <= 4; i++ {\n\twg.Add(1)\n\tgo func() { defer wg.Done(); ch <- i }()\n}\nwg.Wait()\nclose(ch)")
		if got := ts.ok("%%\nfor v := range ch {\n\tagrega(v)\n}\nfmt.Println(suma)"); got != "10\n" {
			t.Errorf("stdout = %q; want 10", got)
		}
	})
	t.Run("compile-error-names-cell-line", func(t *testing.T) {
		res, _ := ts.fails("%%\nfmt.Println(1)\nfmt.Println(noExiste)")
		if want := fmt.Sprintf("Cell [%d] Line 3", ts.n); !strings.Contains(res.EValue, want) || !strings.Contains(res.EValue, "undefined: noExiste") {
			t.Errorf("evalue = %q; want %q and the message", res.EValue, want)
		}
	})
	t.Run("generic-types-and-interfaces", func(t *testing.T) {
		ts.ok("type pila[T any] struct{ Items []T }\nfunc (p *pila[T]) Push(x T) { p.Items = append(p.Items, x) }\ntype Forma interface{ Area() float64 }")
		ts.ok("type Cuadrado struct{ L float64 }\nfunc (c Cuadrado) Area() float64 { return c.L * c.L }\n%%\nvar formas []Forma\np := &pila[string]{}")
		if got := ts.ok("%%\np.Push(\"a\")\np.Push(\"b\")\nformas = append(formas, Cuadrado{3})\nfmt.Println(len(p.Items), formas[0].Area())"); got != "2 9\n" {
			t.Errorf("generic type, interface and implementation across cells: %q; want 2 9", got)
		}
	})
	t.Run("body-types-consts-labels-defer", func(t *testing.T) {
		got := ts.ok("%%\ntype punto struct{ X, Y int }\nconst (\n\tcero = iota\n\tuno\n)\npt := punto{uno, 2}\ndefer fmt.Println(\"al final\", pt.X)\nfor i := range 3 {\n\tif i == 1 {\n\t\tgoto fuera\n\t}\n}\nfuera:\nfmt.Println(\"fuera\")")
		if got != "fuera\nal final 1\n" {
			t.Errorf("body with a type, consts, a label and a defer: %q", got)
		}
		if got := ts.ok("%%\nq := punto{cero, pt.Y}\nfmt.Println(q.Y, uno)"); got != "2 1\n" {
			t.Errorf("body-level type and const in a later cell: %q; want 2 1", got)
		}
	})
	t.Run("init-main-and-early-return", func(t *testing.T) {
		if got := ts.ok("var orden []string\nfunc init() { orden = append(orden, \"init\") }\nfunc main() { orden = append(orden, \"main\"); fmt.Println(orden) }"); got != "[init main]\n" {
			t.Errorf("a cell with init and main (no %%%%): %q; want [init main]", got)
		}
		if got := ts.ok("%%\nfmt.Println(\"antes\")\nif len(orden) > 0 {\n\treturn\n}\nfmt.Println(\"después\")"); got != "antes\n" {
			t.Errorf("return in a body: %q; want antes only", got)
		}
	})
	t.Run("closures-capture-values-across-cells", func(t *testing.T) {
		ts.ok("%%\nn := 0\nsiguiente := func() int { n++; return n }")
		ts.ok("%%\nsiguiente()\nsiguiente()")
		if got := ts.ok("%%\nfmt.Println(siguiente(), n)"); got != "3 3\n" {
			t.Errorf("a closure made in one cell, called in two more: %q; want 3 3", got)
		}
	})
	t.Run("redefined-type-keeps-old-values", func(t *testing.T) {
		ts.ok("type Version struct{ N int }\n%%\nv1 := Version{1}")
		ts.ok("type Version struct{ N int; Nota string }\n%%\nv2 := Version{2, \"nueva\"}")
		if got := ts.ok("%%\nfmt.Println(v1.N, v2.N, v2.Nota)"); got != "1 2 nueva\n" {
			t.Errorf("values of the old and the new Version: %q", got)
		}
		res, _ := ts.fails("%%\nv2 = v1")
		if !strings.Contains(res.EValue, "cannot use v1") {
			t.Errorf("assigning the old type to the new: %q; want Go's type error", res.EValue)
		}
	})
	t.Run("names-like-the-kernels", func(t *testing.T) {
		// run and vars once clashed with the kernel's handles of the body and
		// the variables.
		ts.ok("func run() int { return 1 }\n%%\nvars := []int{run()}")
		if got := ts.ok("%%\nfmt.Println(vars, run())"); got != "[1] 1\n" {
			t.Errorf("names run and vars: %q", got)
		}
		for _, code := range []string{"var DlbdX = 3", "%%\nDlbdY := 4"} {
			if res, _ := ts.fails(code); !strings.Contains(res.EValue, "reserved by the kernel") {
				t.Errorf("%q: %q; want names starting with Dlbd refused", code, res.EValue)
			}
		}
	})
	t.Run("large-map-literal", func(t *testing.T) {
		// The linker drops the initialisation of a large map literal that
		// nothing in its plugin refers to; the cell's plugin must keep it.
		var entries []string
		for i := range 30 {
			entries = append(entries, fmt.Sprintf("\"k%d\": {\"a%d\", \"b\"}", i, i))
		}
		ts.ok("type Par struct{ A, B string }\nvar grande = map[string]Par{" + strings.Join(entries, ", ") + "}")
		if got := ts.ok("%%\nfmt.Println(len(grande), grande[\"k29\"].A)"); got != "30 a29\n" {
			t.Errorf("a 30-entry map declared in the cell before: %q; want 30 a29", got)
		}
	})
	t.Run("who-and-reset", func(t *testing.T) {
		_, rec := ts.run("%who")
		if len(rec.displays) != 1 || !strings.Contains(rec.displays[0].Data["text/plain"].(string), "contador") && !strings.Contains(rec.displays[0].Data["text/plain"].(string), "Punto") {
			t.Fatalf("%%who displays %+v; want a table naming Punto", rec.displays)
		}
		if out := ts.ok("%reset"); !strings.Contains(out, "Session reset") {
			t.Errorf("%%reset printed %q", out)
		}
		res, _ := ts.fails("%%\nfmt.Println(p)")
		if !strings.Contains(res.EValue, "undefined: p") {
			t.Errorf("after %%reset: evalue %q; want undefined: p", res.EValue)
		}
	})
}

func TestSessionFailures(t *testing.T) {
	ts := newTestSession(t)
	ts.ok("%%\nguardado := 7")
	t.Run("panic-keeps-state", func(t *testing.T) {
		res, rec := ts.fails("func f(s []int) int { return s[3] }\n%%\nfmt.Println(\"antes\")\nfmt.Println(f(nil))")
		at := fmt.Sprintf("Cell [%d] Line 1", ts.n)
		if res.EName != "panic" || !strings.Contains(res.EValue, "index out of range") || !strings.Contains(res.EValue, at) {
			t.Errorf("ename %q evalue %q; want a panic at %s", res.EName, res.EValue, at)
		}
		if tb := strings.Join(res.Traceback, "\n"); !strings.Contains(tb, fmt.Sprintf("[[ Cell [%d] Line 4 ]]", ts.n)) {
			t.Errorf("traceback %q lacks the calling line", tb)
		}
		if rec.stdout.String() != "antes\n" {
			t.Errorf("stdout %q; want antes", rec.stdout.String())
		}
		if got := ts.ok("%%\nfmt.Println(guardado)"); got != "7\n" {
			t.Errorf("after a panic: %q; want the value kept", got)
		}
	})
	t.Run("os-exit-loses-values", func(t *testing.T) {
		res, _ := ts.fails("%%\nos.Exit(3)")
		if !strings.Contains(res.EValue, "exited with status 3") || !strings.Contains(res.EValue, "run again the cells") {
			t.Errorf("evalue %q; want the exit status and which cells to run again", res.EValue)
		}
		res, _ = ts.fails("%%\nfmt.Println(guardado)")
		if !strings.Contains(res.EValue, "undefined: guardado") {
			t.Errorf("after the host died: %q; want guardado gone", res.EValue)
		}
		if got := ts.ok("%%\nfmt.Println(\"vivo\")"); got != "vivo\n" {
			t.Errorf("new host: %q", got)
		}
	})
	t.Run("panic-on-goroutine", func(t *testing.T) {
		ts.ok("%%\nv := 1")
		res, _ := ts.fails("%%\ndone := make(chan bool)\ngo func() { panic(\"en otra goroutine\") }()\n<-done")
		if !strings.Contains(res.EValue, "en otra goroutine") || !strings.Contains(res.EValue, fmt.Sprintf("Cell [%d] Line 3", ts.n)) || !strings.Contains(res.EValue, fmt.Sprintf("[%d]", ts.n-1)) {
			t.Errorf("evalue %q; want the panic, its cell line and the cell to run again", res.EValue)
		}
	})
	t.Run("interrupt-endless-loop", func(t *testing.T) {
		done := make(chan Result, 1)
		rec := &recorder{}
		ts.n++
		go func() { done <- ts.s.Execute(context.Background(), "%%\nfmt.Println(\"bucle\")\nfor {}", ts.n, rec) }()
		waitFor(t, func() bool { rec.mu.Lock(); defer rec.mu.Unlock(); return rec.stdout.Len() > 0 })
		ts.s.Interrupt()
		select {
		case res := <-done:
			if res.EName != "interrupt" || !strings.Contains(res.EValue, "did not stop") {
				t.Errorf("interrupted loop: %s %q; want an interrupt that says the process was stopped", res.EName, res.EValue)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("the loop still runs 30 s after the interrupt")
		}
		if got := ts.ok("%%\nfmt.Println(6 * 7)"); got != "42\n" {
			t.Errorf("after interrupt: %q", got)
		}
	})
	t.Run("interrupt-cooperative", func(t *testing.T) {
		ts.ok("%%\nvueltas := 0")
		done := make(chan Result, 1)
		rec := &recorder{}
		ts.n++
		go func() {
			done <- ts.s.Execute(context.Background(), "import \"github.com/dlbd/dlbd/kernel\"\n%%\nctx := kernel.Context()\nfmt.Println(\"empieza\")\nfor ctx.Err() == nil {\n\tvueltas++\n\ttime.Sleep(time.Millisecond)\n}", ts.n, rec)
		}()
		waitFor(t, func() bool { rec.mu.Lock(); defer rec.mu.Unlock(); return rec.stdout.Len() > 0 })
		ts.s.Interrupt()
		res := <-done
		if res.EName != "interrupt" {
			t.Errorf("cooperative interrupt: %s %q; want interrupt", res.EName, res.EValue)
		}
		if got := ts.ok("%%\nfmt.Println(vueltas > 0)"); got != "true\n" {
			t.Errorf("values after a cooperative interrupt: %q; want them kept", got)
		}
	})
}

// waitFor polls cond for up to a minute.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not met within a minute")
}
