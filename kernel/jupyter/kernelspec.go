package jupyter

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/dlbd/dlbd/kernel/internal/envlist"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// ErrKernelSpecNotFound is wrapped by [FindKernelSpec]'s error when no
// directory of the search path holds kernels/<name>/kernel.json.
var ErrKernelSpecNotFound = errors.New("kernelspec not found")

// KernelSpec is an installed kernel: the parsed kernel.json of the spec's
// section "Kernel specs" (https://jupyter-client.readthedocs.io/en/latest/kernels.html#kernel-specs),
// whose fields are those of [protocol.Spec], and the directory that holds it.
type KernelSpec struct {
	// Name is the kernel's directory name, like "dlbd" or "python3".
	Name string `json:"-"`
	// Dir is the directory holding kernel.json (the "resource dir").
	Dir string `json:"-"`
	protocol.Spec
}

// DataPath returns the Jupyter data directories searched for kernelspecs, in
// the order jupyter_core's jupyter_path() gives them: each entry of
// $JUPYTER_PATH, the user's data directory ($JUPYTER_DATA_DIR, else
// $XDG_DATA_HOME/jupyter, else ~/.local/share/jupyter; ~/Library/Jupyter on
// macOS), $VIRTUAL_ENV/share/jupyter when a virtual environment is active
// (Simplification: jupyter_core uses the running Python's sys.prefix), then
// /usr/local/share/jupyter and /usr/share/jupyter.
func DataPath() []string {
	var dirs []string
	for _, d := range filepath.SplitList(os.Getenv("JUPYTER_PATH")) {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	if d := userDataDir(); d != "" {
		dirs = append(dirs, d)
	}
	if venv := os.Getenv("VIRTUAL_ENV"); venv != "" {
		dirs = append(dirs, filepath.Join(venv, "share", "jupyter"))
	}
	return append(dirs, "/usr/local/share/jupyter", "/usr/share/jupyter")
}

// userDataDir returns the user's Jupyter data directory, or "" when no home
// directory is known.
func userDataDir() string {
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if runtime.GOOS == "darwin" && err == nil {
		return filepath.Join(home, "Library", "Jupyter")
	}
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "jupyter")
	}
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".local", "share", "jupyter")
}

// FindKernelSpec returns the first kernels/<name>/kernel.json found in the
// directories of path (nil means [DataPath]). Names compare case-insensitively,
// as Jupyter lower-cases them. A missing kernelspec gives an error wrapping
// [ErrKernelSpecNotFound] that lists the directories searched; an unreadable
// or invalid kernel.json gives an error naming the file.
func FindKernelSpec(name string, path []string) (*KernelSpec, error) {
	if path == nil {
		path = DataPath()
	}
	for _, d := range path {
		dir, ok := findKernelDir(filepath.Join(d, "kernels"), name)
		if !ok {
			continue
		}
		return ReadKernelSpec(dir)
	}
	return nil, fmt.Errorf("jupyter: %w: no kernels/%s/kernel.json in JUPYTER_PATH=%q nor in the standard directories (searched %s)",
		ErrKernelSpecNotFound, name, os.Getenv("JUPYTER_PATH"), strings.Join(path, ", "))
}

// findKernelDir looks for name (case-insensitively) under kernelsDir.
func findKernelDir(kernelsDir, name string) (string, bool) {
	exact := filepath.Join(kernelsDir, name)
	if _, err := os.Stat(filepath.Join(exact, "kernel.json")); err == nil {
		return exact, true
	}
	entries, err := os.ReadDir(kernelsDir)
	if err != nil {
		return "", false
	}
	for _, e := range entries {
		if strings.EqualFold(e.Name(), name) {
			dir := filepath.Join(kernelsDir, e.Name())
			if _, err := os.Stat(filepath.Join(dir, "kernel.json")); err == nil {
				return dir, true
			}
		}
	}
	return "", false
}

// ReadKernelSpec parses dir/kernel.json. Argv must not be empty.
func ReadKernelSpec(dir string) (*KernelSpec, error) {
	file := filepath.Join(dir, "kernel.json")
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("jupyter: read kernelspec: %w", err)
	}
	ks := &KernelSpec{Name: filepath.Base(dir), Dir: dir}
	if err := json.Unmarshal(data, ks); err != nil {
		return nil, fmt.Errorf("jupyter: kernelspec %s is not valid JSON: %w", file, err)
	}
	if len(ks.Argv) == 0 {
		return nil, fmt.Errorf("jupyter: kernelspec %s has an empty argv: reinstall the kernel", file)
	}
	switch ks.InterruptMode {
	case "", "signal", "message":
	default:
		return nil, fmt.Errorf("jupyter: kernelspec %s: interrupt_mode %q is neither \"signal\" nor \"message\"", file, ks.InterruptMode)
	}
	return ks, nil
}

// Command returns the kernel's argv with "{connection_file}" and
// "{resource_dir}" substituted, and the inherited environment with the
// kernelspec's Env merged in (new variables at the end, in name order). As
// jupyter_client does (string.Template.safe_substitute), "$NAME" and
// "${NAME}" inside an Env value are replaced by NAME's inherited value when
// it is set, and kept as written otherwise.
func (ks *KernelSpec) Command(connectionFile string, inherited []string) (argv, env []string) {
	r := strings.NewReplacer("{connection_file}", connectionFile, "{resource_dir}", ks.Dir)
	for _, a := range ks.Argv {
		argv = append(argv, r.Replace(a))
	}
	base, merged := envlist.Parse(inherited), envlist.Parse(inherited)
	for _, k := range sortedKeys(ks.Env) {
		merged.Set(k, safeExpand(ks.Env[k], base.Get))
	}
	return argv, merged.Environ()
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// safeExpand replaces $NAME and ${NAME} with the value lookup gives, writes
// "$$" as "$", and leaves references lookup does not know as written.
func safeExpand(s string, lookup func(string) (string, bool)) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 == len(s) {
			sb.WriteByte(s[i])
			continue
		}
		if s[i+1] == '$' { // "$$" is an escaped dollar, as in string.Template
			sb.WriteByte('$')
			i++
			continue
		}
		name, width := "", 0
		if s[i+1] == '{' {
			if end := strings.IndexByte(s[i+2:], '}'); end >= 0 {
				name, width = s[i+2:i+2+end], end+3
			}
		} else {
			j := i + 1
			for j < len(s) && (s[j] == '_' || 'a' <= s[j] && s[j] <= 'z' || 'A' <= s[j] && s[j] <= 'Z' || j > i+1 && '0' <= s[j] && s[j] <= '9') {
				j++
			}
			name, width = s[i+1:j], j-i
		}
		if v, ok := lookup(name); ok && name != "" {
			sb.WriteString(v)
			i += width - 1
			continue
		}
		sb.WriteByte('$')
	}
	return sb.String()
}
