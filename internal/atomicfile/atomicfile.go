// Package atomicfile writes files so that readers see either the old content or the
// complete new content, never a partial file.
//
// The data goes to a temporary file in the destination's directory (same file system),
// which is synced and then renamed over the destination. An error or a panic at any
// point leaves the destination untouched and removes the temporary file.
//
// A writer killed outright (kill -9, an out-of-memory kill, a power cut) cannot remove
// its temporary file, so the names say whose it is: ".<name>.tmp-<pid>-<random>". Each
// Write first removes the temporary files of the same destination whose writer process
// no longer exists (see Stale), so a checkpoint saved every few minutes by a job that
// gets killed leaves at most one stale file, and only until the next save.
package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// WriteFile writes data to path atomically with the given permissions, like
// os.WriteFile but without ever exposing a partially written file.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write creates path atomically from what fill writes. If fill returns an error (or
// panics) the destination is left untouched and the error is returned (or the panic
// goes on). Stale temporary files of path are removed first.
func Write(path string, perm os.FileMode, fill func(w io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	RemoveStale(path)
	tmp, err := os.CreateTemp(dir, tempPrefix(path)+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return fmt.Errorf("atomicfile: create temporary file for %s: %w", path, err)
	}
	tmpName := tmp.Name()
	done := false
	defer func() {
		if !done { // an error, or a panic in fill
			_ = tmp.Close()
			_ = os.Remove(tmpName)
		}
	}()
	if err = fill(tmp); err != nil {
		return fmt.Errorf("atomicfile: write %s: %w", path, err)
	}
	if err = tmp.Chmod(perm); err != nil {
		return fmt.Errorf("atomicfile: chmod %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("atomicfile: sync %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("atomicfile: close %s: %w", path, err)
	}
	if err = os.Rename(tmpName, path); err != nil {
		return fmt.Errorf("atomicfile: rename into %s: %w", path, err)
	}
	done = true
	// Sync the directory so the rename itself is durable; failure here is not fatal
	// for correctness of readers, so it is ignored on file systems that refuse it.
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}

// tempPrefix is the start of the names of path's temporary files.
func tempPrefix(path string) string { return "." + filepath.Base(path) + ".tmp-" }

// legacyAge is how long a temporary file without a writer's pid in its name (written
// before names carried one) must have gone unmodified to count as stale.
const legacyAge = time.Hour

// Stale returns the temporary files of path left by writers that no longer run: names
// ".<name>.tmp-<pid>-<random>" whose pid is not a live process (on systems where that
// can be asked; a pid reused by another process keeps its file until that one ends),
// and older names without a pid not modified for an hour.
func Stale(path string) []string {
	dir, prefix := filepath.Dir(path), tempPrefix(path)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var stale []string
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || e.IsDir() {
			continue
		}
		full := filepath.Join(dir, e.Name())
		pidText, _, hasPid := strings.Cut(rest, "-")
		pid, perr := strconv.Atoi(pidText)
		switch {
		case hasPid && perr == nil && pid > 0:
			if pid != os.Getpid() && !processAlive(pid) {
				stale = append(stale, full)
			}
		default: // a name from before the pid was part of it
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > legacyAge {
				stale = append(stale, full)
			}
		}
	}
	return stale
}

// RemoveStale removes the files Stale returns, ignoring errors (another writer may
// remove them at the same time).
func RemoveStale(path string) {
	for _, f := range Stale(path) {
		_ = os.Remove(f)
	}
}
