package kernelspec

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/dlbd/dlbd/kernel/internal/envlist"
)

// GonbVersion is the GoNB release the kernel runs; it must match go.mod (a test checks).
const GonbVersion = "v0.11.4"

// LaunchOptions says which checkout and connection file a kernel is started for.
type LaunchOptions struct {
	// RepoDir is the absolute root of the dlbd checkout.
	RepoDir string
	// ConnectionFile is the path Jupyter substitutes for {connection_file}.
	ConnectionFile string
	// GoModCache is the module cache used as the offline proxy. Empty means the output
	// of `go env GOMODCACHE`.
	GoModCache string
}

// Command returns the argv and environment that start GoNB for o, given the launcher's
// own environment. It changes nothing; `dlbd launch` (through package kernel/frontend) and
// LaunchDirect run what it returns.
func Command(o LaunchOptions, environ []string) (argv, env []string, err error) {
	if !filepath.IsAbs(o.RepoDir) {
		return nil, nil, fmt.Errorf("kernelspec: launch: repository path %q is not absolute", o.RepoDir)
	}
	if o.ConnectionFile == "" {
		return nil, nil, errors.New("kernelspec: launch: no connection file given (Jupyter passes it as {connection_file})")
	}
	gonb := filepath.Join(o.RepoDir, "bin", "gonb")
	if _, err := os.Stat(gonb); err != nil {
		return nil, nil, fmt.Errorf("kernelspec: launch: %s not found; build it with `make kernel`", gonb)
	}
	env, err = LaunchEnv(environ, o.RepoDir, o.GoModCache)
	if err != nil {
		return nil, nil, err
	}
	argv = []string{gonb, "--kernel", o.ConnectionFile, "--go_work=" + o.RepoDir, "--raw_error"}
	return argv, env, nil
}

// LaunchEnv returns the environment of the kernel and its cells for the
// checkout repo, given the launcher's own: [KernelEnv] with the go command
// found on environ's PATH and the module cache modCache ("" asks go env).
func LaunchEnv(environ []string, repo, modCache string) ([]string, error) {
	path, _ := envlist.Parse(environ).Get("PATH")
	goBin, err := lookPathIn("go", path)
	if err != nil {
		return nil, errors.New("kernelspec: launch: the go command is not on PATH; install Go 1.26 or newer and restart Jupyter")
	}
	if modCache == "" {
		out, err := exec.Command(goBin, "env", "GOMODCACHE").Output()
		if err != nil {
			return nil, fmt.Errorf("kernelspec: launch: go env GOMODCACHE: %w", err)
		}
		modCache = strings.TrimSpace(string(out))
	}
	return KernelEnv(environ, repo, filepath.Dir(goBin), modCache), nil
}

// KernelEnv returns environ adjusted for GoNB and its cells:
//   - PATH starts with <repo>/bin (gonb, goimports) and the directory of the go command;
//   - GOPROXY starts with the local module cache, so that GoNB's `go get` resolves this
//     module's dependencies offline; anything missing falls through to the previous proxy;
//   - GOFLAGS loses any -mod flag (GoNB builds in workspace mode, which rejects -mod=mod);
//   - GOWORK is removed (GoNB writes its own go.work) and GOTOOLCHAIN defaults to local,
//     so a cell never downloads a toolchain.
func KernelEnv(environ []string, repo, goBinDir, goModCache string) []string {
	env := envlist.Parse(environ)
	path, _ := env.Get("PATH")
	env.Set("PATH", joinList(filepath.Join(repo, "bin"), goBinDir, path))
	local := "file://" + filepath.ToSlash(filepath.Join(goModCache, "cache", "download"))
	proxy, _ := env.Get("GOPROXY")
	if proxy == "" {
		proxy = "https://proxy.golang.org,direct"
	}
	if !strings.HasPrefix(proxy, local) {
		proxy = local + "," + proxy
	}
	env.Set("GOPROXY", proxy)
	goflags, _ := env.Get("GOFLAGS")
	var flags []string
	for _, f := range strings.Fields(goflags) {
		if !strings.HasPrefix(f, "-mod=") {
			flags = append(flags, f)
		}
	}
	env.Set("GOFLAGS", strings.Join(flags, " "))
	if tc, _ := env.Get("GOTOOLCHAIN"); tc == "" {
		env.Set("GOTOOLCHAIN", "local")
	}
	env.Unset("GOWORK")
	return env.Environ()
}

// LaunchDirect replaces the current process with GoNB, without the kernel's
// front end (package kernel/frontend) that `dlbd launch` normally puts in front of it
// (`dlbd launch -direct`, to compare the two). It returns only on failure.
func LaunchDirect(o LaunchOptions) error {
	argv, env, err := Command(o, os.Environ())
	if err != nil {
		return err
	}
	if err := syscall.Exec(argv[0], argv, env); err != nil {
		return fmt.Errorf("kernelspec: launch %s: %w", argv[0], err)
	}
	return nil
}

func joinList(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// lookPathIn is exec.LookPath over an explicit PATH value.
func lookPathIn(name, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}
