package jupyter

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// These tests check the stateful mode (the default) of the installed dlbd
// kernel through the wire protocol: one rule of the cell semantics each.

// run executes code on c, which must succeed, and returns its stdout.
func run(t *testing.T, c *Client, code string) string {
	t.Helper()
	ex, err := c.Execute(kerneltest.Context(t, 3*time.Minute), code)
	if err != nil {
		t.Fatalf("Execute(%q): %v\nstderr: %s", code, err, stderrOf(ex))
	}
	return ex.Stdout()
}

func stderrOf(ex *Execution) string {
	if ex == nil {
		return ""
	}
	return ex.Stderr()
}

// runFails executes code on c, which must fail, and returns the error.
func runFails(t *testing.T, c *Client, code string) (*Execution, *CellError) {
	t.Helper()
	ex, err := c.Execute(kerneltest.Context(t, 3*time.Minute), code)
	var ce *CellError
	if !errors.As(err, &ce) {
		t.Fatalf("Execute(%q) = %v; want a cell error", code, err)
	}
	return ex, ce
}

func TestStatefulValuesLiveOn(t *testing.T) {
	c := startDLBD(t)
	run(t, c, "var contador = 0")
	run(t, c, "%%\ncontador++")
	if got := run(t, c, "%%\ncontador++\nfmt.Println(contador)"); got != "2\n" {
		t.Errorf("top-level var after two increments: %q; want 2 (values live on)", got)
	}
}

func TestStatefulBodyVariablesLiveOn(t *testing.T) {
	c := startDLBD(t)
	run(t, c, "import \"github.com/dlbd/dlbd/dl/nn\"\n%%\nmodelo := nn.NewMLP([]int{4, 8, 2}, nn.MLPConfig{})\npasos, err := 3, error(nil)\nvar nota = \"entrenado\"")
	got := run(t, c, "import \"github.com/dlbd/dlbd/dl\"\n%%\ny := modelo.Forward(dl.Ones(5, 4))\nfmt.Println(y.Shape(), pasos, err, nota)")
	if got != "[5 2] 3 <nil> entrenado\n" {
		t.Errorf("variables := and var of a body, used in the next cell: %q", got)
	}
}

func TestStatefulRedefinition(t *testing.T) {
	c := startDLBD(t)
	run(t, c, "var x = 1\nfunc antes() int { return x }")
	run(t, c, "var x = \"dos\"")
	if got := run(t, c, "%%\nfmt.Println(x, antes())"); got != "dos 1\n" {
		t.Errorf("redefined x: %q; want the new x for later cells, the old one for code compiled with it", got)
	}
}

func TestStatefulTypeIdentity(t *testing.T) {
	c := startDLBD(t)
	run(t, c, "type Modelo struct{ Pesos []float64 }\nfunc (m *Modelo) Suma() (s float64) { for _, w := range m.Pesos { s += w }; return }")
	run(t, c, "%%\nm := &Modelo{Pesos: []float64{1, 2}}")
	run(t, c, "func evalua(m *Modelo) float64 { return m.Suma() }")
	if got := run(t, c, "%%\nm.Pesos = append(m.Pesos, 3)\nfmt.Println(evalua(m))"); got != "6\n" {
		t.Errorf("a value of cell 2's type passed to cell 3's func: %q; want 6", got)
	}
}

func TestStatefulMethodOnEarlierType(t *testing.T) {
	c := startDLBD(t)
	run(t, c, "type Punto struct{ X float64 }")
	_, ce := runFails(t, c, "func (p Punto) Doble() float64 { return 2 * p.X }")
	if !strings.Contains(ce.EValue, "Line 1") || !strings.Contains(ce.EValue, "Punto was declared in Cell [1]") {
		t.Errorf("evalue %q; want the cell line and the cell that declares Punto", ce.EValue)
	}
}

func TestStatefulGenericsGoroutinesClosures(t *testing.T) {
	c := startDLBD(t)
	run(t, c, "func mapa[T, U any](xs []T, f func(T) U) []U { out := make([]U, len(xs)); for i, x := range xs { out[i] = f(x) }; return out }\n%%\nresultados := make(chan int, 3)\ncuenta := 0\nsuma := func(v int) { cuenta += v }\nfor i := range 3 {\n\tgo func() { resultados <- i * i }()\n}")
	if got := run(t, c, "%%\nfor range 3 {\n\tsuma(<-resultados)\n}\nfmt.Println(cuenta, mapa([]int{1, 2}, func(i int) string { return fmt.Sprint(i * 10) }))"); got != "5 [10 20]\n" {
		t.Errorf("channel, closure and generic func across cells: %q; want 5 [10 20]", got)
	}
}

func TestStatefulPanicKeepsValues(t *testing.T) {
	c := startDLBD(t)
	run(t, c, "%%\nvalor := 41")
	_, ce := runFails(t, c, "%%\nvalor++\nvar m map[string]int\nm[\"x\"] = 1")
	if ce.EName != "panic" || !strings.Contains(ce.EValue, "assignment to entry in nil map (Cell [2] Line 4)") {
		t.Errorf("panic: %s %q; want the panic with its cell line", ce.EName, ce.EValue)
	}
	if got := run(t, c, "%%\nfmt.Println(valor)"); got != "42\n" {
		t.Errorf("after a panic: %q; want 42 (the values live on)", got)
	}
}

func TestStatefulHostDeaths(t *testing.T) {
	c := startDLBD(t)
	for _, tt := range []struct{ name, code, want string }{
		{"os-exit", "%%\nos.Exit(3)", "exited with status 3"},
		{"panic-on-goroutine", "%%\nhecho := make(chan bool)\ngo func() { panic(\"fuera de la celda\") }()\n<-hecho", "fuera de la celda"},
		{"segfault", "import \"syscall\"\n%%\nsyscall.Kill(syscall.Getpid(), syscall.SIGSEGV)", "SIGSEGV: segmentation violation"},
		{"killed-like-out-of-memory", "import \"syscall\"\n%%\nsyscall.Kill(syscall.Getpid(), syscall.SIGKILL)", "out of memory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run(t, c, "%%\nantes := 1")
			_, ce := runFails(t, c, tt.code)
			if !strings.Contains(ce.EValue, tt.want) || !strings.Contains(ce.EValue, "lost") || !strings.Contains(ce.EValue, "run again") {
				t.Errorf("evalue %q; want %q and which cells to run again", ce.EValue, tt.want)
			}
			_, ce = runFails(t, c, "%%\nfmt.Println(antes)")
			if !strings.Contains(ce.EValue, "undefined: antes") {
				t.Errorf("after the host died: %q; want antes gone", ce.EValue)
			}
			if got := run(t, c, "%%\nfmt.Println(\"sigo\")"); got != "sigo\n" {
				t.Errorf("new host: %q", got)
			}
		})
	}
}

func TestStatefulResetAndWho(t *testing.T) {
	c := startDLBD(t)
	run(t, c, "type Dato struct{ N int }\n%%\nd := Dato{N: 5}")
	ex, err := c.Execute(kerneltest.Context(t, time.Minute), "%who")
	if err != nil {
		t.Fatal(err)
	}
	shown := ex.Displayed("text/plain")
	if !strings.Contains(shown, "Dato") || !strings.Contains(shown, "d ") || !strings.Contains(shown, "[1]") {
		t.Errorf("%%who shows %q; want Dato and d from Cell [1]", shown)
	}
	if got := run(t, c, "%reset"); !strings.Contains(got, "Session reset") {
		t.Errorf("%%reset says %q", got)
	}
	_, ce := runFails(t, c, "%%\nfmt.Println(d)")
	if !strings.Contains(ce.EValue, "undefined: d") {
		t.Errorf("after %%reset: %q; want d gone", ce.EValue)
	}
}

func TestStatefulModeSwitch(t *testing.T) {
	c := startDLBD(t)
	run(t, c, "%%\nv := 1")
	if got := run(t, c, "%mode process"); !strings.Contains(got, "Process mode") {
		t.Errorf("%%mode process says %q", got)
	}
	ex, err := c.Execute(kerneltest.Context(t, 2*time.Minute), "%%\nfmt.Println(\"proceso\", os.Getpid() > 0)")
	if err != nil || ex.Stdout() != "proceso true\n" {
		t.Fatalf("cell in process mode: %q, %v", stderrOf(ex), err)
	}
	if n := ex.Reply.ExecutionCount; n != 3 {
		t.Errorf("execution_count in process mode = %d; want 3 (the count goes on across modes)", n)
	}
	run(t, c, "%mode stateful")
	ex, err = c.Execute(kerneltest.Context(t, 2*time.Minute), "%%\nw := 2\nfmt.Println(w)")
	if err != nil || ex.Reply.ExecutionCount != 5 {
		t.Errorf("back in stateful mode: count %d, err %v; want 5, nil", ex.Reply.ExecutionCount, err)
	}
}

func TestStatefulInterruptLoop(t *testing.T) {
	c := startDLBD(t)
	run(t, c, "import \"github.com/dlbd/dlbd/kernel\"\n%%\nvueltas := 0")
	// The cell prints after its first lap, so the interrupt (sent on that
	// print) always finds vueltas > 0: printing before the loop let an
	// interrupt land before the first lap (seen once under load).
	took, err := interruptCell(t, c, "%%\nctx := kernel.Context()\nfor ctx.Err() == nil {\n\tvueltas++\n\tif vueltas == 1 {\n\t\tfmt.Println(\"empieza\")\n\t}\n\ttime.Sleep(time.Millisecond)\n}", 0)
	var ce *CellError
	if !errors.As(err, &ce) || ce.EName != "interrupt" {
		t.Errorf("interrupted cell: %v; want an interrupt error", err)
	}
	t.Logf("cooperative interrupt took %v", took)
	if got := run(t, c, "%%\nfmt.Println(vueltas > 0)"); got != "true\n" {
		t.Errorf("after a cooperative interrupt: %q; want the values kept", got)
	}
}

// interruptCell runs code, which must print before its long part, waits
// for its first output and then wait more, interrupts it, and returns how
// long the cell took to end after the interrupt and its error.
func interruptCell(t *testing.T, c *Client, code string, wait time.Duration) (time.Duration, error) {
	t.Helper()
	done := make(chan error, 1)
	started := make(chan struct{})
	go func() {
		req := protocol.ExecuteRequest{Code: code, StoreHistory: true}
		once := false
		_, err := c.ExecuteWith(kerneltest.Context(t, 3*time.Minute), req, func(m *Message) {
			if m.Header.MsgType == "stream" && !once {
				once = true
				close(started)
			}
		})
		done <- err
	}()
	<-started
	time.Sleep(wait)
	t0 := time.Now()
	if err := c.Interrupt(kerneltest.Context(t, 10*time.Second)); err != nil {
		t.Fatal(err)
	}
	err := <-done
	return time.Since(t0), err
}

// kernelDirs returns the temporary directories of the kernel's processes:
// the front end's private one (GoNB's TMPDIR is inside it) and the stateful
// session's, read from their environments.
func kernelDirs(procs []Process) []string {
	seen := map[string]bool{}
	var dirs []string
	for _, p := range procs {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", p.PID))
		if err != nil {
			continue
		}
		for _, kv := range strings.Split(string(data), "\x00") {
			k, v, _ := strings.Cut(kv, "=")
			if k == "TMPDIR" && strings.Contains(v, "dlbd-kernel-") {
				v = filepath.Dir(v) // <private dir>/tmp
			}
			if (k == "TMPDIR" || k == "GONB_TMP_DIR") && strings.Contains(filepath.Base(v), "dlbd-") && !seen[v] {
				seen[v] = true
				dirs = append(dirs, v)
			}
		}
	}
	return dirs
}

// sleepers returns the cell's two sleep processes (argv sleep shell and
// sleep child: durations unique to the run, so that no other sleep on the
// machine is taken for them), wherever they are in the process tree.
func sleepers(t *testing.T, shell, child string) []Process {
	out := append(sleepersOf("sleep", shell), sleepersOf("sleep", child)...)
	if len(out) < 2 {
		t.Fatalf("found %d of the cell's two sleep processes (sleep %s, sleep %s)", len(out), shell, child)
	}
	return out
}

// TestDLBDNoOrphans kills the kernel's processes in the ways issue 18
// lists, while a cell runs and has started a child of its own, and checks
// by PID that none of the kernel's family is left, and that its temporary
// directories are gone.
func TestDLBDNoOrphans(t *testing.T) {
	kills := map[string]func(t *testing.T, c *Client, procs []Process){
		"shutdown": func(t *testing.T, c *Client, _ []Process) {
			if err := c.Shutdown(kerneltest.Context(t, 30*time.Second)); err != nil {
				t.Fatal(err)
			}
		},
		"kill-9-launcher": func(t *testing.T, c *Client, _ []Process) { syscall.Kill(c.PID(), syscall.SIGKILL) },
		"interrupt-escalation": func(t *testing.T, c *Client, _ []Process) {
			// The cell ignores the interrupt: after the grace period the host,
			// and everything it started, is killed; the kernel lives on.
			if err := c.Interrupt(kerneltest.Context(t, 10*time.Second)); err != nil {
				t.Fatal(err)
			}
		},
		"kill-9-gonb": func(t *testing.T, c *Client, procs []Process) {
			for _, p := range procs {
				if p.Comm == "gonb" {
					syscall.Kill(p.PID, syscall.SIGKILL)
				}
			}
		},
	}
	for _, mode := range []string{"stateful", "process"} {
		for _, how := range []string{"shutdown", "kill-9-launcher", "kill-9-gonb", "jupyter-gone", "interrupt-escalation"} {
			if how == "interrupt-escalation" && mode == "process" {
				continue // GoNB kills the cell's process, not its children: they go with the kernel
			}
			t.Run("mode="+mode+"/"+how, func(t *testing.T) {
				spec := dlbdSpec(t, mode)
				if how == "jupyter-gone" {
					// The kernel watches JPY_PARENT_PID, the Jupyter server that started it.
					jupyter := exec.Command("sleep", "600")
					if err := jupyter.Start(); err != nil {
						t.Fatal(err)
					}
					defer jupyter.Process.Kill()
					go jupyter.Wait()
					spec.Env["JPY_PARENT_PID"] = strconv.Itoa(jupyter.Process.Pid)
					kills[how] = func(*testing.T, *Client, []Process) { jupyter.Process.Kill() }
				}
				c := startClient(t, spec, 2*time.Minute)
				// Fractional seconds unique to the run: the test finds these
				// sleeps by their command line.
				shell, child := fmt.Sprintf("300.%d", rand.IntN(1e6)), fmt.Sprintf("301.%d", rand.IntN(1e6))
				go c.Execute(kerneltest.Context(t, 3*time.Minute), "!(sleep "+shell+" >/dev/null 2>&1 &)\nimport \"os/exec\"\n%%\nexec.Command(\"sleep\", \""+child+"\").Start()\nfor { time.Sleep(time.Second) }")
				for i := 0; !hasCellProcess(c, mode); i++ {
					if i == 1200 {
						t.Fatal("no cell process within 2 minutes")
					}
					time.Sleep(100 * time.Millisecond)
				}
				time.Sleep(time.Second) // the cell starts its sleep
				procs, err := c.Processes()
				if err != nil {
					kerneltest.Missing(t, "cannot list processes: %v", err)
				}
				childSleeps := sleepersOf("sleep", child)
				procs = append(procs, sleepers(t, shell, child)...) // a double-forked shell child leaves the tree
				dirs := kernelDirs(procs)
				kills[how](t, c, procs)
				if how == "interrupt-escalation" {
					// The launcher and GoNB stay; the host and the cell's children go.
					// The shell command's background sleep lives until the kernel ends.
					cellProcs := childSleeps
					for _, p := range procs {
						if strings.HasPrefix(p.Comm, "dlbd-host") {
							cellProcs = append(cellProcs, p)
						}
					}
					procs, dirs = cellProcs, nil
				}
				deadline := time.Now().Add(15 * time.Second)
				for _, p := range procs {
					for p.Alive() && time.Now().Before(deadline) {
						time.Sleep(50 * time.Millisecond)
					}
					if p.Alive() {
						t.Errorf("%v still alive 15 s after %s (the kernel's processes were %v)", p, how, procs)
					}
				}
				if len(dirs) == 0 && how != "interrupt-escalation" {
					t.Errorf("found no temporary directory of the kernel in its processes' environments")
				}
				for _, d := range dirs {
					for time.Now().Before(deadline) {
						if _, err := os.Stat(d); os.IsNotExist(err) {
							break
						}
						time.Sleep(50 * time.Millisecond)
					}
					if _, err := os.Stat(d); err == nil {
						t.Errorf("%s still exists after %s", d, how)
					}
				}
			})
		}
	}
}

// hostPID returns the pid of the kernel's stateful host process.
func hostPID(t *testing.T, c *Client) int {
	t.Helper()
	procs, err := c.Processes()
	if err != nil {
		kerneltest.Missing(t, "cannot list processes: %v", err)
	}
	for _, p := range procs {
		if strings.HasPrefix(p.Comm, "dlbd-host") {
			return p.PID
		}
	}
	t.Fatal("no host process")
	return 0
}

// TestStatefulSoak runs 200 cells (40 under -race) in one session, each
// building on the one before, with Tab and Shift+Tab on the newest names
// every 10 cells, checks every value at the end, and reports how much the
// host's memory grew per cell (plugins never unload; README figure) and
// the kernel process's memory (front end, session, completion).
func TestStatefulSoak(t *testing.T) {
	c := startDLBD(t)
	// The length is the normal run's check (memory and completion over a
	// long history); the race run (make race-kernel) looks for
	// interleavings, which a few dozen cells exercise as well.
	cells := 200
	if raceEnabled {
		cells = 40
	}
	t0 := time.Now()
	run(t, c, "%%\nv0 := 0\nhistoria := []int{0}")
	var rss10, kernel10 int
	for i := 1; i < cells; i++ {
		if time.Since(t0) > 8*time.Minute {
			t.Fatalf("the soak took over 8 minutes at cell %d", i)
		}
		run(t, c, fmt.Sprintf("func paso%d(x int) int { return x + 1 }\n%%%%\nv%d := paso%d(v%d)\nhistoria = append(historia, v%d)", i, i, i, i-1, i))
		if i%10 == 0 {
			soakAssist(t, c, i)
		}
		if i == 10 {
			rss10, kernel10 = rss(t, hostPID(t, c)), rss(t, c.PID())
		}
	}
	got := run(t, c, fmt.Sprintf("%%%%\nfmt.Println(v%d, len(historia), historia[37], paso3(v10))", cells-1))
	if want := fmt.Sprintf("%d %d 37 11\n", cells-1, cells); got != want {
		t.Errorf("after %d cells: %q; want %q", cells, got, want)
	}
	mib, kernel := rss(t, hostPID(t, c)), rss(t, c.PID())
	t.Logf("%d cells in %v (%.0f ms per cell); host RSS %d MiB after cell 10, %d MiB after cell %d: %.2f MiB per cell; kernel RSS %d MiB after cell 10, %d MiB after cell %d",
		cells, time.Since(t0).Round(time.Second), float64(time.Since(t0).Milliseconds())/float64(cells), rss10, mib, cells, float64(mib-rss10)/float64(cells-10),
		kernel10, kernel, cells)
}

// soakAssist completes and inspects the names cell i of TestStatefulSoak
// made (completion keeps up with a long history), and completes a
// tensor's methods, which loads dl and dl/nn into the kernel's completion.
func soakAssist(t *testing.T, c *Client, i int) {
	t.Helper()
	if r := completeAt(t, c, fmt.Sprintf("%%%%\nx := paso%d(v%d", i, i)); !slices.Contains(r.Matches, fmt.Sprintf("v%d", i)) {
		t.Errorf("cell %d: Tab after v%d offers %d matches %q; want v%d", i, i, len(r.Matches), r.Matches[:min(len(r.Matches), 5)], i)
	}
	if r := completeAt(t, c, "import \"github.com/dlbd/dlbd/dl/nn\"\n%%\ny := nn.NewMLP([]int{2, 1}, nn.MLPConfig{}).Forward(dl.Ones(1, 2)).Mat"); !slices.Contains(r.Matches, "MatMul") {
		t.Errorf("cell %d: Tab after a tensor's .Mat offers %q; want MatMul", i, r.Matches)
	}
	code := fmt.Sprintf("%%%%\nfmt.Println(paso%d)", i)
	r, err := c.Inspect(kerneltest.Context(t, 30*time.Second), code, len(code)-1, 0)
	if text, _ := r.Data["text/plain"].(string); err != nil || !r.Found || !strings.Contains(text, fmt.Sprintf("Cell [%d]", i+1)) {
		t.Errorf("cell %d: Shift+Tab on paso%d: %v, found %v, %q; want its declaration in Cell [%d]", i, i, err, r.Found, text, i+1)
	}
}

// TestStatefulInterruptDL interrupts a cell stuck in dl work that never
// looks at the cell's context itself (one long matrix product after
// another): the host hands the context to dl.SetCancel, so dl stops at its
// next check, the cell ends with an error, and the session keeps its
// values.
func TestStatefulInterruptDL(t *testing.T) {
	c := startDLBD(t)
	run(t, c, "import \"github.com/dlbd/dlbd/dl\"\n%%\nproductos := 0")
	took, err := interruptCell(t, c, "%%\nx := dl.Ones(2048, 2048)\nfmt.Println(\"empieza\")\nfor {\n\tx.MatMul(x).Release()\n\tproductos++\n}",
		200*time.Millisecond) // inside a product
	var ce *CellError
	if !errors.As(err, &ce) {
		t.Fatalf("interrupted dl cell: %v; want a cell error", err)
	}
	t.Logf("dl stopped %v after the interrupt: %s: %s", took, ce.EName, ce.EValue)
	if !strings.Contains(ce.EValue, "dl: MatMul: canceled") {
		t.Errorf("cell error %s: %s; want dl's *CanceledError", ce.EName, ce.EValue)
	}
	if got := run(t, c, "%%\nfmt.Println(productos >= 0)"); got != "true\n" {
		t.Errorf("after interrupting dl: %q; want the session and its values kept", got)
	}
}

// TestStatefulLastExpressionIsExecuteResult: a body whose last line is an
// expression shows its value as execute_result, with the cell's execution
// count, after what the cell printed; a trailing ";" hides it.
func TestStatefulLastExpressionIsExecuteResult(t *testing.T) {
	c := startDLBD(t)
	run(t, c, "%%\nx := 41")
	ex, err := c.Execute(kerneltest.Context(t, 3*time.Minute), "%%\nfmt.Println(\"antes\")\nx + 1")
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	var result protocol.ExecuteResult
	for _, m := range ex.Outputs {
		types = append(types, m.Header.MsgType)
		if m.Header.MsgType == "execute_result" {
			m.DecodeContent(&result)
		}
	}
	if strings.Join(types, " ") != "stream execute_result" {
		t.Errorf("outputs of a cell that prints and ends with x + 1: %v; want stream, then execute_result", types)
	}
	if result.Data["text/plain"] != "42" || result.ExecutionCount != ex.Reply.ExecutionCount {
		t.Errorf("execute_result: %v (count %d); want text/plain 42 with the reply's count %d", result.Data, result.ExecutionCount, ex.Reply.ExecutionCount)
	}
	// A cell of statements alone, without %%, runs as a body: "x" shows x.
	ex, err = c.Execute(kerneltest.Context(t, 3*time.Minute), "x")
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Outputs) != 1 || ex.Outputs[0].Header.MsgType != "execute_result" {
		t.Errorf("a cell \"x\": %d outputs; want its execute_result", len(ex.Outputs))
	}
	ex, err = c.Execute(kerneltest.Context(t, 3*time.Minute), "%%\nx + 1;")
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Outputs) != 0 {
		t.Errorf("a last line ending in ';' showed %d outputs; want none", len(ex.Outputs))
	}
}

// TestStatefulReadyHistoryAndHelp: the kernel announces "idle" once its
// session is ready (front ends showed "Unknown" before the first cell),
// answers history_request from the cells it ran, result included, and
// lists the course's help links in kernel_info_reply.
func TestStatefulReadyHistoryAndHelp(t *testing.T) {
	c := startDLBD(t)
	for deadline := time.Now().Add(2 * time.Minute); c.Announced() != "idle"; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no status idle without a parent within 2 minutes of the start (last: %q)", c.Announced())
		}
	}
	info, err := c.KernelInfo(kerneltest.Context(t, 30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(info.HelpLinks, func(l protocol.HelpLink) bool { return l.URL == "https://pkg.go.dev/std" }) {
		t.Errorf("kernel_info_reply help_links %v; want the Go standard library's among them", info.HelpLinks)
	}
	run(t, c, "%%\nn := 6")
	run(t, c, "%%\nn * 7")
	h, err := c.History(kerneltest.Context(t, 30*time.Second), protocol.HistoryRequest{HistAccessType: "tail", N: 1, Output: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(h.History); len(h.History) != 1 || got != "[[1 2 [%%\nn * 7 42]]]" {
		t.Errorf("history tail 1 with output: %s; want the last cell, its count and its result 42", got)
	}
}

// TestStatefulHintsAndRestartList: the compiler's message gets a hint
// where a Python habit meets a Go rule, and after the host's end the cells
// to run again are those that completed (a cell that panicked would panic
// again).
func TestStatefulHintsAndRestartList(t *testing.T) {
	c := startDLBD(t)
	_, ce := runFails(t, c, "%%\nfor paso := range 3 {\n\tfmt.Println(\"hola\")\n}")
	if !strings.Contains(ce.EValue, "declared and not used: paso") || !strings.Contains(ce.EValue, "for range") {
		t.Errorf("unused loop variable: %q; want Go's message and the hint for range N", ce.EValue)
	}
	run(t, c, "%%\nguardado := 1")
	runFails(t, c, "%%\nroto := 2\npanic(\"falla\")")
	_, ce = runFails(t, c, "import \"os\"\n%%\nos.Exit(3)")
	if !strings.Contains(ce.EValue, "run again the cells [2] (in that order)") || !strings.Contains(ce.EValue, "did not run to their end ([3]") {
		t.Errorf("after the host's end: %q; want the cells to run again to be [2] alone (cell [3] panicked)", ce.EValue)
	}
}
