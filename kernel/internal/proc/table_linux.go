package proc

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Alive reports whether p still runs: its PID exists with the same start
// time and has not exited.
func (p Info) Alive() bool {
	now, err := Read(p.PID)
	return err == nil && now.StartTime == p.StartTime && !now.exited()
}

// Table returns every process in the table.
func Table() ([]Info, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("proc: list processes: %w", err)
	}
	var out []Info
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, err := Read(pid); err == nil { // it may have exited meanwhile
			out = append(out, p)
		}
	}
	return out, nil
}

// Read returns the entry of process pid, parsed from /proc/<pid>/stat (see
// proc(5)).
func Read(pid int) (Info, error) {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return Info{}, err
	}
	// comm is in parentheses and may itself contain spaces or ')'.
	open, end := bytes.IndexByte(data, '('), bytes.LastIndexByte(data, ')')
	if open < 0 || end < open {
		return Info{}, fmt.Errorf("proc: unexpected /proc/%d/stat: %q", pid, data)
	}
	fields := strings.Fields(string(data[end+1:]))
	// fields[0] is state (field 3 of proc(5)); starttime is field 22.
	if len(fields) < 20 {
		return Info{}, fmt.Errorf("proc: unexpected /proc/%d/stat: %q", pid, data)
	}
	p := Info{PID: pid, Comm: string(data[open+1 : end]), State: fields[0]}
	p.PPID, _ = strconv.Atoi(fields[1])
	p.PGID, _ = strconv.Atoi(fields[2])
	p.StartTime, _ = strconv.ParseUint(fields[19], 10, 64)
	return p, nil
}
