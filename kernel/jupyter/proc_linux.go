package jupyter

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Alive reports whether p still runs: its PID exists with the same start
// time and is not a zombie (exited, waiting for its parent to reap it).
func (p Process) Alive() bool {
	now, err := readProcess(p.PID)
	return err == nil && now.StartTime == p.StartTime && now.State != "Z" && now.State != "X"
}

// Processes returns every process in the table.
func Processes() ([]Process, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("jupyter: list processes: %w", err)
	}
	var out []Process
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, err := readProcess(pid); err == nil { // it may have exited meanwhile
			out = append(out, p)
		}
	}
	return out, nil
}

// readProcess parses /proc/<pid>/stat (see proc(5)).
func readProcess(pid int) (Process, error) {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return Process{}, err
	}
	// comm is in parentheses and may itself contain spaces or ')'.
	open, end := bytes.IndexByte(data, '('), bytes.LastIndexByte(data, ')')
	if open < 0 || end < open {
		return Process{}, fmt.Errorf("jupyter: unexpected /proc/%d/stat: %q", pid, data)
	}
	fields := strings.Fields(string(data[end+1:]))
	// fields[0] is state (field 3 of proc(5)); starttime is field 22.
	if len(fields) < 20 {
		return Process{}, fmt.Errorf("jupyter: unexpected /proc/%d/stat: %q", pid, data)
	}
	p := Process{PID: pid, Comm: string(data[open+1 : end]), State: fields[0]}
	p.PPID, _ = strconv.Atoi(fields[1])
	p.PGID, _ = strconv.Atoi(fields[2])
	p.StartTime, _ = strconv.ParseUint(fields[19], 10, 64)
	return p, nil
}

// family returns the process root (if alive), its descendants, and every
// member of process group pgid, each once. Zombies (exited processes whose
// parent has not reaped them yet) are left out: they run no code and hold
// no resources but their table entry.
func family(root, pgid int) ([]Process, error) {
	table, err := Processes()
	if err != nil {
		return nil, err
	}
	var all []Process
	for _, p := range table {
		if p.State != "Z" && p.State != "X" {
			all = append(all, p)
		}
	}
	children := map[int][]Process{}
	for _, p := range all {
		children[p.PPID] = append(children[p.PPID], p)
	}
	seen := map[int]bool{}
	var out []Process
	var walk func(p Process)
	walk = func(p Process) {
		if seen[p.PID] {
			return
		}
		seen[p.PID] = true
		out = append(out, p)
		for _, c := range children[p.PID] {
			walk(c)
		}
	}
	for _, p := range all {
		if p.PID == root {
			walk(p)
		}
	}
	for _, p := range all {
		if p.PGID == pgid {
			walk(p)
		}
	}
	return out, nil
}
