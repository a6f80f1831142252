package proc

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// startShell starts a shell, in a group of its own, that starts a child of
// its own in the background (sleep), and returns it and the child's PID.
func startShell(t *testing.T) (*Proc, string) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", "sleep 120 & echo $! ; wait")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := Start(cmd, Options{Group: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	buf := make([]byte, 32)
	n, _ := out.Read(buf)
	return p, strings.TrimSpace(string(buf[:n]))
}

func TestStartKillGroup(t *testing.T) {
	// Kill must end the shell's group, its child included.
	p, child := startShell(t)
	p.Kill()
	if !p.Exited() || p.ExitCode() != 128+9 {
		t.Errorf("after Kill: exited %v, status %d; want killed (137)", p.Exited(), p.ExitCode())
	}
	if !strings.Contains(p.Describe(), "signal 9") {
		t.Errorf("Describe() = %q; want it to name signal 9", p.Describe())
	}
	time.Sleep(100 * time.Millisecond)
	if _, err := os.Stat("/proc/" + child); err == nil {
		if stat, _ := os.ReadFile("/proc/" + child + "/stat"); !strings.Contains(string(stat), ") Z ") {
			t.Errorf("the shell's background child %s outlived Kill of its group", child)
		}
	}
}

func TestRunGuard(t *testing.T) {
	victim := exec.Command("sleep", "120")
	p, err := Start(victim, Options{Group: true})
	if err != nil {
		t.Fatal(err)
	}
	// The guard removes only directories under os.TempDir(): point TMPDIR at
	// a directory of the test's own, so the one beside it is outside it
	// wherever the checkout lives (a clone under /tmp included).
	base := t.TempDir()
	tmp := filepath.Join(base, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", tmp)
	inTmp, err := os.MkdirTemp("", "guard-test-")
	if err != nil {
		t.Fatal(err)
	}
	outside, err := os.MkdirTemp("", "guard-untold-") // under it too, but never named
	if err != nil {
		t.Fatal(err)
	}
	// A directory outside the temporary directory is never removed, even
	// when a line names it.
	keep := filepath.Join(base, "keep")
	if err := os.Mkdir(keep, 0o755); err != nil {
		t.Fatal(err)
	}
	in := strings.NewReader("group " + itoa(p.Pid()) + "\ndir " + inTmp + "\ndir " + keep + "\ndir relative/path\nnonsense\n")
	if err := RunGuard(in); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the guard did not kill the group it was told about")
	}
	if _, err := os.Stat(inTmp); !os.IsNotExist(err) {
		t.Errorf("%s still exists after the guard ran", inTmp)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("the guard removed %s, outside the temporary directory", keep)
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("the guard removed %s, which it was not told about", outside)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
