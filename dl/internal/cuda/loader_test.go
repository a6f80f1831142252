package cuda

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// testLibm copies the C math library into a temporary folder under a
// CUDA-like soname, so the real loader can be tested (search order, dlopen,
// dlsym, calls through purego) on a machine with no CUDA at all.
func testLibm(t *testing.T, soname string) string {
	t.Helper()
	if runtime.GOOS != "linux" || (runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64") {
		t.Skip("the loader only dlopens on linux/amd64 and linux/arm64")
	}
	var src string
	for _, p := range []string{"/lib/x86_64-linux-gnu/libm.so.6", "/lib/aarch64-linux-gnu/libm.so.6", "/usr/lib64/libm.so.6", "/lib64/libm.so.6"} {
		if _, err := os.Stat(p); err == nil {
			src = p
			break
		}
	}
	if src == "" {
		t.Skip("no libm.so.6 found to stand in for a library")
	}
	dir := t.TempDir()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(filepath.Join(dir, soname))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLoaderFindsAndBindsInLibDirs(t *testing.T) {
	// Only the older soname exists: the search must fall through .13 to .12.
	dir := testLibm(t, "libdlbdtest.so.12")
	t.Setenv("DL_CUDA_LIB_DIRS", dir)
	var cos, sin func(float64) float64
	var absent func() int32
	l := &library{
		spec: libSpec{display: "test", sonames: []string{"libdlbdtest.so.13", "libdlbdtest.so.12"}, kind: ErrNoLibrary},
		syms: []symbol{sym(&cos, "cos_v2_does_not_exist", "cos"), sym(&sin, "sin"), opt(&absent, "dlbdNoSuchFunction")},
	}
	if err := l.load(); err != nil {
		t.Fatalf("load: %v", err)
	}
	if want := filepath.Join(dir, "libdlbdtest.so.12"); l.path != want {
		t.Errorf("loaded %q; want %q", l.path, want)
	}
	if got := cos(0); got != 1 {
		t.Errorf("cos(0) through the bound symbol = %v; want 1", got)
	}
	if got := sin(0); got != 0 {
		t.Errorf("sin(0) = %v; want 0", got)
	}
	if absent != nil || bound(&absent) {
		t.Error("an absent optional symbol must leave its variable nil")
	}
}

func TestLoaderMissingSymbol(t *testing.T) {
	dir := testLibm(t, "libdlbdtest.so.13")
	t.Setenv("DL_CUDA_LIB_DIRS", dir)
	var f func() int32
	l := &library{spec: libSpec{display: "test", sonames: []string{"libdlbdtest.so.13"}, kind: ErrNoLibrary},
		syms: []symbol{sym(&f, "dlbdNoSuchFunction_v2")}}
	err := l.load()
	var le *LoadError
	if !errors.As(err, &le) || !errors.Is(err, ErrNoLibrary) {
		t.Fatalf("load = %v; want a *LoadError wrapping ErrNoLibrary", err)
	}
	if len(le.Missing) != 1 || le.Missing[0] != "dlbdNoSuchFunction_v2" {
		t.Errorf("Missing = %q; want [dlbdNoSuchFunction_v2]", le.Missing)
	}
	if !strings.Contains(err.Error(), "lacks dlbdNoSuchFunction_v2") {
		t.Errorf("error %q should name the missing symbol", err)
	}
}

func TestLoaderAbsentLibrary(t *testing.T) {
	t.Setenv("DL_CUDA_LIB_DIRS", "/nonexistent/dlbd")
	l := &library{spec: libSpec{display: "test", sonames: []string{"libdlbd-absent.so.13"}, kind: ErrNoLibrary}}
	start := time.Now()
	err := l.load()
	if !errors.Is(err, ErrNoLibrary) {
		t.Fatalf("load of an absent library = %v; want ErrNoLibrary", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("failing to find a library took %v; it must be quick", d)
	}
	var le *LoadError
	errors.As(err, &le)
	if le.Tried[0] != "/nonexistent/dlbd/libdlbd-absent.so.13" || le.Tried[1] != "libdlbd-absent.so.13" {
		t.Errorf("Tried = %q; want $DL_CUDA_LIB_DIRS first, then the bare soname", le.Tried)
	}
	if l.load() != err {
		t.Error("a second load must return the cached result")
	}
}

// TestNoDriverIsAnError runs on every machine: without a driver, every
// entry point returns ErrNoDriver (or ErrNoDevice) quickly, and nothing
// panics.
func TestNoDriverIsAnError(t *testing.T) {
	start := time.Now()
	err := Init()
	t.Logf("Init() = %v (in %v; driver %q)", err, time.Since(start), DriverPath())
	if err == nil {
		t.Skip("a CUDA driver is present: the no-driver path cannot be observed here")
	}
	if !errors.Is(err, ErrNoDriver) && !errors.Is(err, ErrNoDevice) {
		t.Fatalf("Init() = %v; want ErrNoDriver or ErrNoDevice", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Init took %v without a driver; it must be quick", d)
	}
	if _, err := DeviceCount(); !errors.Is(err, ErrNoDriver) && !errors.Is(err, ErrNoDevice) {
		t.Errorf("DeviceCount() = %v; want ErrNoDriver", err)
	}
	if _, err := Primary(0); err == nil {
		t.Error("Primary(0) succeeded without a driver")
	}
	if _, err := DriverVersion(); err == nil {
		t.Error("DriverVersion() succeeded without a driver")
	}
	for _, li := range Libraries() {
		t.Logf("%-8s path=%q err=%v", li.Name, li.Path, li.Err)
	}
}
