package proc

import (
	"os"
	"strings"
	"testing"
)

func TestTable(t *testing.T) {
	// A shell (its own group) with a child of its own: Children finds the
	// shell under this process, Family finds both from the shell, and
	// Alive tells the running shell from the one that has exited.
	p, sleeper := startShell(t)

	kids, err := Children(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	var shell Info
	for _, k := range kids {
		if k.PID == p.Pid() {
			shell = k
		}
	}
	if shell.PID == 0 || shell.Comm != "sh" || shell.PGID != p.Pid() || shell.PPID != os.Getpid() || shell.StartTime == 0 {
		t.Fatalf("Children(%d) = %v; want the shell %d (comm sh, its own group, a start time)", os.Getpid(), kids, p.Pid())
	}
	if !shell.Alive() {
		t.Errorf("%v.Alive() = false while it runs", shell)
	}
	if moved := (Info{PID: shell.PID, StartTime: shell.StartTime + 1}); moved.Alive() {
		t.Errorf("Alive() = true for PID %d with another start time; want false (a reused PID)", shell.PID)
	}
	fam, err := Family(shell.PID, shell.PGID)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range fam {
		names = append(names, f.Comm)
		if f.Comm == "sleep" && f.PPID != shell.PID {
			t.Errorf("the sleeper %v has parent %d; want the shell %d", f, f.PPID, shell.PID)
		}
	}
	if len(fam) != 2 || fam[0].PID != shell.PID || !strings.Contains(strings.Join(names, " "), "sleep") {
		t.Errorf("Family(shell) = %v; want the shell and its sleeper %s", fam, sleeper)
	}

	p.Kill()
	if shell.Alive() {
		t.Errorf("%v.Alive() = true after Kill and its reaping", shell)
	}
	if _, err := Read(-1); err == nil {
		t.Error("Read(-1) succeeded; want an error")
	}
}
