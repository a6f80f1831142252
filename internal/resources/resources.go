// Package resources keeps the list of what a program holds open on servers
// and files — engine connections, sessions, brokers, open files — so that
// whoever ends the program can close them first. The Big Data engines
// (bigdata/duck, spark, kafka, natsbroker, columnar) track what they open
// and forget it when it is closed; the stateful kernel's host closes what
// is left when the kernel shuts down or restarts, or on %reset, since the
// values that hold them live on between cells and no cell closes them.
// Closing is what frees a resource's other side: a Spark Connect session
// stays on the server until its client releases it.
package resources

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"
)

var (
	mu   sync.Mutex
	open []*entry
)

type entry struct {
	name string
	c    io.Closer
}

// Track records c, named name (e.g. "DuckDB connection"), as open. The
// returned function forgets it: call it from c's Close, after closing. Any
// number of calls of it forget c once.
func Track(name string, c io.Closer) (forget func()) {
	e := &entry{name: name, c: c}
	mu.Lock()
	open = append(open, e)
	mu.Unlock()
	return func() {
		mu.Lock()
		defer mu.Unlock()
		if i := slices.Index(open, e); i >= 0 {
			open = slices.Delete(open, i, i+1)
		}
	}
}

// Open returns the names of the tracked resources, oldest first.
func Open() []string {
	mu.Lock()
	defer mu.Unlock()
	names := make([]string, len(open))
	for i, e := range open {
		names[i] = e.name
	}
	return names
}

// CloseAll closes every tracked resource, newest first (a session before
// the server it was opened on), giving each up to timeout, and forgets
// them. It returns the errors of those that failed or did not close in time,
// each naming its resource.
func CloseAll(timeout time.Duration) error {
	mu.Lock()
	all := slices.Clone(open)
	open = nil
	mu.Unlock()
	var errs []error
	for i := len(all) - 1; i >= 0; i-- {
		e := all[i]
		done := make(chan error, 1)
		go func() { done <- e.c.Close() }()
		select {
		case err := <-done:
			if err != nil {
				errs = append(errs, fmt.Errorf("close %s: %w", e.name, err))
			}
		case <-time.After(timeout):
			errs = append(errs, fmt.Errorf("close %s: no answer within %v", e.name, timeout))
		}
	}
	return errors.Join(errs...)
}
