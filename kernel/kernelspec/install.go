package kernelspec

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/dlbd/dlbd/internal/atomicfile"
	"github.com/dlbd/dlbd/internal/checkout"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// Name is the kernelspec name of the dlbd kernel; notebooks name it in their metadata.
const Name = "dlbd"

// DisplayName is the name Jupyter shows in its kernel picker.
const DisplayName = "Go (Deep Learning y Big Data)"

// InstallOptions configures Install. The zero value installs the kernelspec of the
// checkout that contains the working directory into <repo>/.jupyter.
type InstallOptions struct {
	// RepoDir is the root of the dlbd checkout. Empty means checkout.Find(".").
	RepoDir string
	// JupyterDir is the Jupyter data directory that receives kernels/dlbd/kernel.json.
	// Empty means <RepoDir>/.jupyter, which the Makefile adds to JUPYTER_PATH.
	JupyterDir string
	// Env holds extra variables for the kernel.json "env" section; cells see them
	// (for example the location of installed assets).
	Env map[string]string
}

// RequiredTools are the programs, relative to <repo>/bin, that the kernelspec needs.
var RequiredTools = []string{"dlbd", "gonb", "goimports"}

// Install writes the dlbd kernelspec. It fails, naming the fix, when the tools the
// kernelspec runs have not been built into <repo>/bin.
func Install(ctx context.Context, o InstallOptions) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	repo, jdir, err := o.dirs()
	if err != nil {
		return err
	}
	for _, tool := range RequiredTools {
		p := filepath.Join(repo, "bin", tool)
		st, err := os.Stat(p)
		if err != nil || st.Mode()&0o111 == 0 {
			return fmt.Errorf("kernelspec: install: %s is missing or not executable; build the tools with `make kernel`", p)
		}
	}
	spec := NewSpec(repo, o.Env)
	data, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return fmt.Errorf("kernelspec: install: encode kernel.json: %w", err)
	}
	dir := filepath.Join(jdir, "kernels", Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("kernelspec: install: %w", err)
	}
	return atomicfile.WriteFile(filepath.Join(dir, "kernel.json"), append(data, '\n'), 0o644)
}

// SpecDir returns the directory that Install writes the kernelspec into.
func (o InstallOptions) SpecDir() (string, error) {
	_, jdir, err := o.dirs()
	return filepath.Join(jdir, "kernels", Name), err
}

func (o InstallOptions) dirs() (repo, jupyterDir string, err error) {
	repo = o.RepoDir
	if repo == "" {
		if repo, err = checkout.Find("."); err != nil {
			return "", "", err
		}
	}
	if !filepath.IsAbs(repo) {
		return "", "", errors.New("kernelspec: install: RepoDir must be absolute (Jupyter starts kernels from other directories)")
	}
	jupyterDir = o.JupyterDir
	if jupyterDir == "" {
		jupyterDir = filepath.Join(repo, ".jupyter")
	}
	return repo, jupyterDir, nil
}

// NewSpec returns the kernelspec for the checkout at repo (an absolute path): it runs
// `<repo>/bin/dlbd launch`, uses message-based interrupts (GoNB handles
// interrupt_request), and passes extraEnv plus DLBD_REPO to the kernel.
func NewSpec(repo string, extraEnv map[string]string) protocol.Spec {
	env := map[string]string{checkout.EnvVar: repo}
	keys := make([]string, 0, len(extraEnv))
	for k := range extraEnv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env[k] = extraEnv[k]
	}
	return protocol.Spec{
		Argv:          []string{filepath.Join(repo, "bin", "dlbd"), "launch", "--repo", repo, "{connection_file}"},
		DisplayName:   DisplayName,
		Language:      "go",
		InterruptMode: "message",
		Env:           env,
		Metadata:      map[string]any{"dlbd": map[string]string{"gonb": GonbVersion}},
	}
}
