package proc

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Guard tells the guard process what to clean up when the kernel is gone.
// Its methods are safe for concurrent use; a Guard whose process could not
// start does nothing.
type Guard struct {
	mu  sync.Mutex
	w   io.WriteCloser
	cmd *exec.Cmd
}

// StartGuard starts argv (the `dlbd guard` command) in a session of its
// own, so that a signal to the kernel's group does not reach it, with a
// pipe on its stdin that closes when this process ends.
func StartGuard(argv []string) (*Guard, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("proc: guard: %w", err)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Stdout, cmd.Stderr = nil, os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("proc: start the guard %s: %w", argv[0], err)
	}
	go cmd.Wait() // reap it when it exits
	return &Guard{w: w, cmd: cmd}, nil
}

func (g *Guard) send(line string) {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.w != nil {
		io.WriteString(g.w, line+"\n")
	}
}

// Group asks the guard to kill process group pgid when the kernel is gone.
func (g *Guard) Group(pgid int) { g.send("group " + strconv.Itoa(pgid)) }

// Dir asks the guard to remove dir when the kernel is gone.
func (g *Guard) Dir(dir string) { g.send("dir " + dir) }

// Close makes the guard clean up now and exit.
func (g *Guard) Close() {
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.w != nil {
		g.w.Close()
		g.w = nil
	}
}

// RunGuard is the guard's body: it reads "group N" and "dir PATH" lines
// from r until r ends (the kernel closed it or died), then kills each
// group and removes each directory (only absolute paths under the
// temporary directory, so that a stray line cannot remove anything else).
func RunGuard(r io.Reader) error {
	var groups []int
	var dirs []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		kind, arg, _ := strings.Cut(sc.Text(), " ")
		switch kind {
		case "group":
			if n, err := strconv.Atoi(arg); err == nil && n > 1 {
				groups = append(groups, n)
			}
		case "dir":
			dirs = append(dirs, arg)
		}
	}
	for _, g := range groups {
		KillGroup(g)
	}
	tmp := filepath.Clean(os.TempDir()) + string(filepath.Separator)
	for _, d := range dirs {
		if d = filepath.Clean(d); filepath.IsAbs(d) && strings.HasPrefix(d, tmp) {
			os.RemoveAll(d)
		}
	}
	return nil
}
