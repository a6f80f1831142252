package program

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/dlbd/dlbd/dl/dist"
)

// Main is the generated program's main: it joins the job (dist.Init
// reads the launcher's environment), runs fn on this process's rank (or on
// every goroutine rank, in-process) and writes each result where Run reads
// it. It returns the first error.
func Main[M any](fn func(r *dist.Rank) (M, error)) error {
	g, err := dist.Init(dist.Config{})
	if err != nil {
		return err
	}
	dir := os.Getenv(ResultsEnv)
	err = g.Run(func(r *dist.Rank) error {
		m, err := fn(r)
		if err != nil || dir == "" {
			return err
		}
		b, err := json.Marshal(m)
		if err != nil {
			return fmt.Errorf("program: result of rank %d: %w", r.Rank(), err)
		}
		return os.WriteFile(filepath.Join(dir, "rank-"+strconv.Itoa(r.Rank())+".json"), b, 0o644)
	})
	if cerr := g.Close(); err == nil {
		err = cerr
	}
	return err
}

// InProcess runs fn on n goroutine ranks of this process (dist.Run) and
// returns each rank's result: the notebook's side of the comparison.
func InProcess[M any](n int, fn func(r *dist.Rank) (M, error)) ([]M, error) {
	out := make([]M, n)
	err := dist.Run(n, func(r *dist.Rank) error {
		m, err := fn(r)
		out[r.Rank()] = m
		return err
	})
	return out, err
}
