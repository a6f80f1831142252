package jupyter

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// TestDLBDShutdownWhileCellRuns shuts the stateful kernel down, or asks it
// to restart (Jupyter's restart is a shutdown_request with restart true,
// then a new kernel), while a cell runs: a loop, a shell command's child,
// dl multiplying matrices, and a cell whose host crashes at about the same
// time. The running cell gets its execute_reply before the shutdown
// completes, the kernel exits 0 without a panic, and none of its
// processes is left (issue 37: the front end panicked with a nil host).
func TestDLBDShutdownWhileCellRuns(t *testing.T) {
	secs := fmt.Sprint(1000 + rand.IntN(9000))
	cells := []struct{ name, code string }{
		{"loop", "%%\nfmt.Println(\"corriendo\")\nn := 0\nfor { n++ }"},
		{"shell-child", "!echo corriendo; sleep " + secs},
		{"dl-matmul", "import \"github.com/dlbd/dlbd/dl\"\n%%\na := dl.Ones(512, 512)\nfmt.Println(\"corriendo\")\nfor { a = a.MatMul(a).MulScalar(1.0 / 512) }"},
		{"host-crash", "import \"os\"\n%%\nfmt.Println(\"corriendo\")\ntime.Sleep(30 * time.Millisecond)\nos.Exit(3)"},
	}
	for _, cell := range cells {
		for _, restart := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/restart=%v", cell.name, restart), func(t *testing.T) {
				c := startDLBDMode(t, "stateful")
				run(t, c, "%%\nfmt.Println(\"listo\")") // the host runs
				m, err := c.NewMessage("execute_request", protocol.ExecuteRequest{Code: cell.code, UserExpressions: map[string]string{}})
				if err != nil {
					t.Fatal(err)
				}
				sub := c.Subscribe(m)
				defer sub.Close()
				if err := c.Send(kerneltest.Context(t, 10*time.Second), protocol.Shell, m); err != nil {
					t.Fatal(err)
				}
				for ctx := kerneltest.Context(t, 3*time.Minute); ; {
					msg, err := sub.Next(ctx)
					if err != nil {
						t.Fatalf("waiting for the cell to run: %v", err)
					}
					var st protocol.Stream
					if msg.Header.MsgType == "stream" && msg.DecodeContent(&st) == nil && strings.Contains(st.Text, "corriendo") {
						break
					}
				}
				procs, err := c.Processes()
				if err != nil {
					kerneltest.Missing(t, "cannot list processes: %v", err)
				}
				if err := c.ShutdownWith(kerneltest.Context(t, 30*time.Second), restart); err != nil {
					t.Fatalf("shutdown: %v", err)
				}
				if code := c.ExitCode(); code != 0 {
					t.Errorf("kernel exit status %d after the shutdown; want 0", code)
				}
				if out := c.Output(); strings.Contains(out, "panic:") || strings.Contains(out, "DATA RACE") {
					t.Errorf("the kernel's output has a panic or a data race:\n%s", out)
				}
				var reply protocol.ExecuteReply
				for ctx := kerneltest.Context(t, time.Second); ; { // sent before the shutdown_reply
					msg, err := sub.Next(ctx)
					if err != nil {
						t.Fatalf("the running cell got no execute_reply by the shutdown: %v", err)
					}
					if msg.Header.MsgType == "execute_reply" {
						msg.DecodeContent(&reply)
						break
					}
				}
				crashed := cell.name == "host-crash" && reply.EName == "kernel" // the crash came first
				if reply.Status != "error" || (reply.EName != "shutdown" && !crashed) {
					t.Errorf("running cell's execute_reply: %s %s %q; want an error saying the kernel shuts down", reply.Status, reply.EName, reply.EValue)
				}
				deadline := time.Now().Add(10 * time.Second)
				for _, p := range append(procs, sleepersOf("sleep", secs)...) {
					for p.Alive() && time.Now().Before(deadline) {
						time.Sleep(50 * time.Millisecond)
					}
					if p.Alive() {
						t.Errorf("%v still alive after the shutdown", p)
					}
				}
			})
		}
	}
}

// sleepersOf returns the processes whose command line is exactly argv.
func sleepersOf(argv ...string) []Process {
	all, _ := Processes()
	want := strings.Join(argv, "\x00") + "\x00"
	var out []Process
	for _, p := range all {
		if cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p.PID)); string(cmd) == want && p.Alive() {
			out = append(out, p)
		}
	}
	return out
}
