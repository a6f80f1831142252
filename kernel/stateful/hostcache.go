package stateful

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/dlbd/dlbd/internal/atomicfile"
	"github.com/dlbd/dlbd/kernel/internal/envlist"
)

// HostCacheEnv names the directory where the sessions of a checkout share
// their host program, when set (the Docker image sets one its build fills).
const HostCacheEnv = "DLBD_HOST_CACHE"

// hostCacheDir returns the directory, made if needed, where the sessions of
// this checkout share their host program: $DLBD_HOST_CACHE, else under the
// user's cache directory of env ($XDG_CACHE_HOME, else $HOME/.cache), one
// directory per checkout.
func hostCacheDir(env []string, repo string) (string, error) {
	e := envlist.Parse(env)
	if dir, _ := e.Get(HostCacheEnv); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", fmt.Errorf("stateful: make the host program's cache %s ($%s): %w", dir, HostCacheEnv, err)
		}
		return dir, nil
	}
	base, _ := e.Get("XDG_CACHE_HOME")
	if base == "" {
		if home, _ := e.Get("HOME"); home != "" {
			base = filepath.Join(home, ".cache")
		}
	}
	if base == "" {
		var err error
		if base, err = os.UserCacheDir(); err != nil {
			return "", fmt.Errorf("stateful: no cache directory for the host program (set HOME or XDG_CACHE_HOME): %w", err)
		}
	}
	dir := filepath.Join(base, "dlbd", fmt.Sprintf("host-%x", sha256.Sum256([]byte(repo)))[:len("host-")+16])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("stateful: make the host program's cache %s: %w (set XDG_CACHE_HOME to a writable directory)", dir, err)
	}
	return dir, nil
}

// lockFile takes an exclusive lock on path (made if needed), waiting until
// ctx ends, and returns its release.
func lockFile(ctx context.Context, path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("stateful: lock %s: %w", path, err)
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { f.Close() }, nil
		}
		if err != syscall.EWOULDBLOCK {
			f.Close()
			return nil, fmt.Errorf("stateful: lock %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("stateful: waiting for another kernel to build the host program (%s): %w", path, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// copyFile copies the executable src to dst, atomically (atomicfile).
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return atomicfile.Write(dst, 0o755, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	})
}
