package cuda

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// libSpec says what a library is called and where it may live.
type libSpec struct {
	display string   // name in messages: "libcuda", "cuBLAS", ...
	sonames []string // newest first
	// cudaMajor: the soname's first number is the CUDA major version, so a
	// library newer than the driver can be skipped (cuBLAS 13 on a CUDA 12
	// driver loads, then fails in cublasCreate). False for NCCL (.so.2).
	cudaMajor bool
	// toolkit: look in /usr/local/cuda and NVIDIA's pip wheels. The driver
	// never lives there (only the toolkit's stub libcuda.so does).
	toolkit bool
	kind    error // ErrNoDriver or ErrNoLibrary
}

var (
	specDriver = libSpec{display: "libcuda", sonames: []string{"libcuda.so.1"}, kind: ErrNoDriver}
	specBLAS   = libSpec{display: "cuBLAS", sonames: []string{"libcublas.so.13", "libcublas.so.12", "libcublas.so.11"},
		cudaMajor: true, toolkit: true, kind: ErrNoLibrary}
	// CUDA 11.2 and later 11.x toolkits ship NVRTC as libnvrtc.so.11.2.
	specNVRTC = libSpec{display: "NVRTC", sonames: []string{"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"},
		cudaMajor: true, toolkit: true, kind: ErrNoLibrary}
	specNCCL = libSpec{display: "NCCL", sonames: []string{"libnccl.so.2"}, toolkit: true, kind: ErrNoLibrary}
)

// sonameMajor returns the number after ".so." (13 for libcublas.so.13).
func sonameMajor(soname string) int {
	_, v, ok := strings.Cut(soname, ".so.")
	if !ok {
		return 0
	}
	v, _, _ = strings.Cut(v, ".")
	n, _ := strconv.Atoi(v)
	return n
}

// sonamesFor returns the sonames to try for a driver of CUDA major version
// driverMajor (0: unknown, try all), newest first. A toolkit library newer
// than the driver is left out: it would load, then fail at its first call.
func sonamesFor(s libSpec, driverMajor int) []string {
	if !s.cudaMajor || driverMajor == 0 {
		return s.sonames
	}
	var out []string
	for _, so := range s.sonames {
		if sonameMajor(so) <= driverMajor {
			out = append(out, so)
		}
	}
	return out
}

// searchDirs lists the folders to try, in order; "" stands for the
// system loader (LD_LIBRARY_PATH, then the ldconfig cache). Order:
//  1. $DL_CUDA_LIB_DIRS (colon-separated): the user's explicit choice wins;
//  2. the system loader, so that LD_LIBRARY_PATH keeps its usual meaning;
//  3. driver folders used by containers (/usr/local/nvidia) and WSL2;
//  4. for toolkit libraries: /usr/local/cuda and NVIDIA's pip wheels
//     (site-packages/nvidia/cu13/lib, nvidia/cublas/lib, nvidia/nccl/lib, ...).
//
// Folders named "stubs" are never searched: the toolkit's stub libcuda.so
// only satisfies the linker and makes every call fail with
// CUDA_ERROR_STUB_LIBRARY.
func searchDirs(s libSpec, getenv func(string) string, sites []string) []string {
	var dirs []string
	for _, d := range filepath.SplitList(getenv("DL_CUDA_LIB_DIRS")) {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	dirs = append(dirs, "")
	if !s.toolkit {
		dirs = append(dirs, "/usr/local/nvidia/lib64", "/usr/local/nvidia/lib", "/usr/lib/wsl/lib")
	} else {
		cuda := "/usr/local/cuda"
		if h := getenv("CUDA_HOME"); h != "" {
			cuda = h
		}
		dirs = append(dirs, filepath.Join(cuda, "lib64"), filepath.Join(cuda, "targets", targetTriple(), "lib"))
		for _, site := range sites {
			dirs = append(dirs, wheelDirs(site)...)
		}
	}
	out := dirs[:0]
	seen := map[string]bool{}
	for _, d := range dirs {
		if !seen[d] && filepath.Base(d) != "stubs" {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// targetTriple is the toolkit's per-architecture folder name.
func targetTriple() string {
	if runtime.GOARCH == "arm64" {
		return "sbsa-linux"
	}
	return "x86_64-linux"
}

// wheelDirs lists NVIDIA's wheel folders under one site-packages folder:
// CUDA 13 wheels share nvidia/cu13/lib, CUDA 12 ones use one folder per
// library (nvidia/cublas/lib, nvidia/cuda_nvrtc/lib, nvidia/nccl/lib).
func wheelDirs(site string) []string {
	var out []string
	for _, sub := range []string{"cu13", "cu12", "cublas", "cuda_nvrtc", "nccl"} {
		d := filepath.Join(site, "nvidia", sub, "lib")
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			out = append(out, d)
		}
	}
	return out
}

// candidates lists what to dlopen, in order: for each folder, each soname.
// Folder-major order keeps cuBLAS and NVRTC from the same installation.
func candidates(s libSpec, driverMajor int, getenv func(string) string, sites []string) []string {
	var out []string
	for _, d := range searchDirs(s, getenv, sites) {
		for _, so := range sonamesFor(s, driverMajor) {
			if d == "" {
				out = append(out, so)
			} else {
				out = append(out, filepath.Join(d, so))
			}
		}
	}
	return out
}

// guessSites returns Python site-packages folders found without running
// Python: $VIRTUAL_ENV, $CONDA_PREFIX, $PYTHONPATH (pip install --target),
// /opt/*/.venv (where the course's GPU image keeps PyTorch), the system's
// dist-packages and the user's ~/.local. Globs only: cheap.
func guessSites(getenv func(string) string) []string {
	var pats []string
	for _, p := range []string{getenv("VIRTUAL_ENV"), getenv("CONDA_PREFIX")} {
		if p != "" {
			pats = append(pats, filepath.Join(p, "lib", "python3*", "site-packages"))
		}
	}
	var out []string
	for _, p := range filepath.SplitList(getenv("PYTHONPATH")) {
		if p != "" {
			out = append(out, p)
		}
	}
	pats = append(pats, "/opt/*/.venv/lib/python3*/site-packages", "/usr/local/lib/python3*/dist-packages",
		"/usr/local/lib/python3*/site-packages", "/usr/lib/python3/dist-packages")
	if h := getenv("HOME"); h != "" {
		pats = append(pats, filepath.Join(h, ".local", "lib", "python3*", "site-packages"))
	}
	for _, p := range pats {
		m, _ := filepath.Glob(p)
		out = append(out, m...)
	}
	return out
}

var (
	pySitesOnce sync.Once
	pySites     []string
)

// pythonSites asks python3 on PATH for its site-packages folders, once per
// process and only when nothing else was found (starting Python costs tens
// of milliseconds). A missing or slow python3 just yields nothing.
func pythonSites() []string {
	pySitesOnce.Do(func() {
		py, err := exec.LookPath("python3")
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, py, "-c",
			"import site,sys; print('\\n'.join(site.getsitepackages()+[site.getusersitepackages()]+sys.path))").Output()
		if err != nil {
			return
		}
		for _, l := range strings.Split(string(out), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				pySites = append(pySites, l)
			}
		}
	})
	return pySites
}
