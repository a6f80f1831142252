package kernel

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
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
// own environment. It changes nothing; Launch runs what it returns.
func Command(o LaunchOptions, environ []string) (argv, env []string, err error) {
	if !filepath.IsAbs(o.RepoDir) {
		return nil, nil, fmt.Errorf("kernel: launch: repository path %q is not absolute", o.RepoDir)
	}
	if o.ConnectionFile == "" {
		return nil, nil, errors.New("kernel: launch: no connection file given (Jupyter passes it as {connection_file})")
	}
	gonb := filepath.Join(o.RepoDir, "bin", "gonb")
	if _, err := os.Stat(gonb); err != nil {
		return nil, nil, fmt.Errorf("kernel: launch: %s not found; build it with `make kernel`", gonb)
	}
	goBin, err := lookPathIn("go", getenv(environ, "PATH"))
	if err != nil {
		return nil, nil, errors.New("kernel: launch: the go command is not on PATH; install Go 1.26 or newer and restart Jupyter")
	}
	modCache := o.GoModCache
	if modCache == "" {
		out, err := exec.Command(goBin, "env", "GOMODCACHE").Output()
		if err != nil {
			return nil, nil, fmt.Errorf("kernel: launch: go env GOMODCACHE: %w", err)
		}
		modCache = strings.TrimSpace(string(out))
	}
	argv = []string{gonb, "--kernel", o.ConnectionFile, "--go_work=" + o.RepoDir, "--raw_error"}
	return argv, KernelEnv(environ, o.RepoDir, filepath.Dir(goBin), modCache), nil
}

// KernelEnv returns environ adjusted for GoNB and its cells:
//   - PATH starts with <repo>/bin (gonb, goimports) and the directory of the go command;
//   - GOPROXY starts with the local module cache, so that GoNB's `go get` resolves this
//     module's dependencies offline; anything missing falls through to the previous proxy;
//   - GOFLAGS loses any -mod flag (GoNB builds in workspace mode, which rejects -mod=mod);
//   - GOWORK is removed (GoNB writes its own go.work) and GOTOOLCHAIN defaults to local,
//     so a cell never downloads a toolchain.
func KernelEnv(environ []string, repo, goBinDir, goModCache string) []string {
	env := map[string]string{}
	var order []string
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		if _, seen := env[k]; !seen {
			order = append(order, k)
		}
		env[k] = v
	}
	set := func(k, v string) {
		if _, seen := env[k]; !seen {
			order = append(order, k)
		}
		env[k] = v
	}
	set("PATH", joinList(filepath.Join(repo, "bin"), goBinDir, env["PATH"]))
	local := "file://" + filepath.ToSlash(filepath.Join(goModCache, "cache", "download"))
	proxy := env["GOPROXY"]
	if proxy == "" {
		proxy = "https://proxy.golang.org,direct"
	}
	if !strings.HasPrefix(proxy, local) {
		proxy = local + "," + proxy
	}
	set("GOPROXY", proxy)
	var flags []string
	for _, f := range strings.Fields(env["GOFLAGS"]) {
		if !strings.HasPrefix(f, "-mod=") {
			flags = append(flags, f)
		}
	}
	set("GOFLAGS", strings.Join(flags, " "))
	if env["GOTOOLCHAIN"] == "" {
		set("GOTOOLCHAIN", "local")
	}
	delete(env, "GOWORK")
	out := make([]string, 0, len(order))
	for _, k := range order {
		if v, ok := env[k]; ok {
			out = append(out, k+"="+v)
		}
	}
	return out
}

// Launch replaces the current process with GoNB (so Jupyter's signals and its
// process-group kill reach the kernel itself). It returns only on failure.
func Launch(o LaunchOptions) error {
	argv, env, err := Command(o, os.Environ())
	if err != nil {
		return err
	}
	if err := syscall.Exec(argv[0], argv, env); err != nil {
		return fmt.Errorf("kernel: launch %s: %w", argv[0], err)
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

func getenv(environ []string, key string) string {
	v := ""
	for _, kv := range environ {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
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
