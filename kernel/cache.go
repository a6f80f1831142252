package kernel

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"

	"github.com/dlbd/dlbd/internal/atomicfile"
)

// CacheDirEnv names a directory that overrides where Cache stores values, for programs
// that run outside a GoNB session (tests, scripts). Inside a notebook leave it unset.
const CacheDirEnv = "DLBD_CACHE_DIR"

var cacheKeyRE = regexp.MustCompile(`^[A-Za-z0-9._-]{1,128}$`)

// cacheEntry is what a cache file holds: the Go type of the value, to catch a cell
// that asks for a key with another type, and the gob-encoded value.
type cacheEntry struct {
	Type  string
	Value []byte
}

// CacheDir returns the directory where Cache keeps values: $DLBD_CACHE_DIR if set, else
// $GONB_TMP_DIR/dlbd-cache (one per kernel session, removed with it). The boolean is
// false outside a kernel session with no override; then Cache stores nothing.
func CacheDir() (string, bool) {
	if d := os.Getenv(CacheDirEnv); d != "" {
		return d, true
	}
	if d := os.Getenv("GONB_TMP_DIR"); d != "" {
		return filepath.Join(d, "dlbd-cache"), true
	}
	return "", false
}

// Cache returns the value stored under key in this kernel session; the first time, it
// runs compute and stores its result. Every GoNB cell is a new process, so this is how
// a notebook trains a model once and uses it in later cells:
//
//	res, err := kernel.Cache("experimento-escala", runExperiment)
//
// T must be encodable with encoding/gob (exported fields). Keys use letters, digits,
// '.', '_' and '-'. Asking for a key with a different type than the stored one is an
// error (choose another key or Forget it). Writes are atomic. Outside a kernel session
// (no GONB_TMP_DIR, no DLBD_CACHE_DIR) compute runs every time.
func Cache[T any](key string, compute func() (T, error)) (T, error) {
	var zero T
	if !cacheKeyRE.MatchString(key) {
		return zero, fmt.Errorf("kernel: cache key %q: use 1-128 letters, digits, '.', '_' or '-'", key)
	}
	dir, ok := CacheDir()
	if !ok {
		return compute()
	}
	path := filepath.Join(dir, key+".gob")
	typ := fmt.Sprintf("%T", zero)
	if v, found, err := loadCached[T](path, key, typ); err != nil || found {
		return v, err
	}
	v, err := compute()
	if err != nil {
		return zero, err
	}
	var val bytes.Buffer
	if err := gob.NewEncoder(&val).Encode(&v); err != nil {
		return zero, fmt.Errorf("kernel: cache %q: value of type %s cannot be stored (gob: %v); store only exported fields", key, typ, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return zero, fmt.Errorf("kernel: cache %q: %w", key, err)
	}
	err = atomicfile.Write(path, 0o600, func(w io.Writer) error {
		return gob.NewEncoder(w).Encode(cacheEntry{Type: typ, Value: val.Bytes()})
	})
	if err != nil {
		return zero, fmt.Errorf("kernel: cache %q: %w", key, err)
	}
	return v, nil
}

func loadCached[T any](path, key, typ string) (v T, found bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return v, false, nil
	}
	if err != nil {
		return v, false, fmt.Errorf("kernel: cache %q: %w", key, err)
	}
	defer f.Close()
	var e cacheEntry
	if err := gob.NewDecoder(f).Decode(&e); err != nil {
		return v, false, fmt.Errorf("kernel: cache %q: stored file %s is unreadable (%v); call kernel.Forget(%q)", key, path, err, key)
	}
	if e.Type != typ {
		return v, false, fmt.Errorf("kernel: cache %q holds a %s, not a %s; use another key or call kernel.Forget(%q)", key, e.Type, typ, key)
	}
	if err := gob.NewDecoder(bytes.NewReader(e.Value)).Decode(&v); err != nil {
		return v, false, fmt.Errorf("kernel: cache %q: decode %s: %v; call kernel.Forget(%q)", key, typ, err, key)
	}
	return v, true, nil
}

// Forget removes the value stored under key, so the next Cache call recomputes it.
// Forgetting a key that is not stored is not an error.
func Forget(key string) error {
	if !cacheKeyRE.MatchString(key) {
		return fmt.Errorf("kernel: cache key %q: use 1-128 letters, digits, '.', '_' or '-'", key)
	}
	dir, ok := CacheDir()
	if !ok {
		return nil
	}
	err := os.Remove(filepath.Join(dir, key+".gob"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("kernel: forget %q: %w", key, err)
	}
	return nil
}

// Must returns v, or panics with err: in a notebook cell the panic is shown as the
// cell's error, e.g. `res := kernel.Must(kernel.Cache("k", f))`.
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
