package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// anchorServer is a running Python anchor script speaking the JSON-lines
// protocol of scripts/bench/anchor.py.
type anchorServer struct {
	describe string
	cmd      *exec.Cmd
	in       io.WriteCloser
	out      *bufio.Scanner
}

// envVariant is an environment an anchor runs under.
type envVariant struct {
	name string   // "" for the environment as is
	env  []string // nil: inherit
}

// openBLASVars may be set on some machines and halve OpenBLAS's speed.
var openBLASVars = []string{"OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"}

// anchorEnvs returns the environments to measure an anchor under: as is
// and, if openblas and one of openBLASVars is set, also with them unset.
func anchorEnvs(openblas bool) []envVariant {
	vs := []envVariant{{}}
	if !openblas {
		return vs
	}
	var set []string
	for _, v := range openBLASVars {
		if _, ok := os.LookupEnv(v); ok {
			set = append(set, v)
		}
	}
	if len(set) == 0 {
		return vs
	}
	var env []string
	for _, kv := range os.Environ() {
		if !hasAnyPrefix(kv, openBLASVars) {
			env = append(env, kv)
		}
	}
	return append(vs, envVariant{name: strings.Join(set, ",") + " unset", env: env})
}

func hasAnyPrefix(kv string, names []string) bool {
	for _, n := range names {
		if strings.HasPrefix(kv, n+"=") {
			return true
		}
	}
	return false
}

// startAnchor starts script (relative to root) with python under env.
func startAnchor(ctx context.Context, python, root, script string, v envVariant) (*anchorServer, error) {
	cmd := exec.CommandContext(ctx, python, filepath.Join(root, script))
	cmd.Dir = root
	cmd.Env = v.env
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("dlbd-bench: start %s %s: %w", python, script, err)
	}
	s := &anchorServer{cmd: cmd, in: in, out: bufio.NewScanner(stdout)}
	s.out.Buffer(make([]byte, 1<<16), 1<<20)
	var hello struct {
		Anchor string `json:"anchor"`
	}
	if err := s.read(&hello); err != nil {
		s.close()
		return nil, fmt.Errorf("dlbd-bench: %s did not start (is its Python package installed?): %w", script, err)
	}
	s.describe = hello.Anchor
	return s, nil
}

func (s *anchorServer) read(v any) error {
	if !s.out.Scan() {
		if err := s.out.Err(); err != nil {
			return err
		}
		return io.ErrUnexpectedEOF
	}
	return json.Unmarshal(s.out.Bytes(), v)
}

// measure runs one case and returns its value in unit.
func (s *anchorServer) measure(m measureSpec, unit string, budget time.Duration) (float64, error) {
	req, err := json.Marshal(map[string]any{"case": m.Case, "args": m.Args, "budget_s": budget.Seconds()})
	if err != nil {
		return 0, err
	}
	if _, err := fmt.Fprintf(s.in, "%s\n", req); err != nil {
		return 0, fmt.Errorf("dlbd-bench: %s: %w", m.Python, err)
	}
	var resp struct {
		Value *float64 `json:"value"`
		Unit  string   `json:"unit"`
		Error string   `json:"error"`
	}
	if err := s.read(&resp); err != nil {
		return 0, fmt.Errorf("dlbd-bench: %s: reading the reply to %s: %w", m.Python, req, err)
	}
	switch {
	case resp.Error != "":
		return 0, fmt.Errorf("dlbd-bench: %s case %s: %s", m.Python, m.Case, resp.Error)
	case resp.Value == nil:
		return 0, fmt.Errorf("dlbd-bench: %s case %s: reply has no value", m.Python, m.Case)
	case resp.Unit != unit:
		return 0, fmt.Errorf("dlbd-bench: %s case %s reports %q; the entry's unit is %q", m.Python, m.Case, resp.Unit, unit)
	}
	return *resp.Value, nil
}

func (s *anchorServer) close() {
	s.in.Close()
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
}
