package cuda

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestSonameMajor(t *testing.T) {
	for _, tc := range []struct {
		soname string
		want   int
	}{
		{"libcublas.so.13", 13}, {"libnvrtc.so.11.2", 11}, {"libcuda.so.1", 1}, {"libfoo.so", 0}, {"libfoo", 0},
	} {
		if got := sonameMajor(tc.soname); got != tc.want {
			t.Errorf("sonameMajor(%q) = %d; want %d", tc.soname, got, tc.want)
		}
	}
}

func TestSonamesForDriver(t *testing.T) {
	for _, tc := range []struct {
		name   string
		spec   libSpec
		driver int
		want   []string
	}{
		{"cublas/unknown-driver", specBLAS, 0, []string{"libcublas.so.13", "libcublas.so.12", "libcublas.so.11"}},
		{"cublas/cuda13", specBLAS, 13, []string{"libcublas.so.13", "libcublas.so.12", "libcublas.so.11"}},
		{"cublas/cuda12", specBLAS, 12, []string{"libcublas.so.12", "libcublas.so.11"}},
		{"nvrtc/cuda12", specNVRTC, 12, []string{"libnvrtc.so.12", "libnvrtc.so.11.2"}},
		{"nvrtc/cuda11", specNVRTC, 11, []string{"libnvrtc.so.11.2"}},
		{"nccl/cuda12", specNCCL, 12, []string{"libnccl.so.2"}}, // .so.2 is NCCL's own major, never filtered
		{"driver", specDriver, 12, []string{"libcuda.so.1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sonamesFor(tc.spec, tc.driver); !slices.Equal(got, tc.want) {
				t.Errorf("sonamesFor(%s, %d) = %v; want %v", tc.spec.display, tc.driver, got, tc.want)
			}
		})
	}
}

func TestSearchDirsOrder(t *testing.T) {
	site := t.TempDir()
	for _, d := range []string{"nvidia/cu13/lib", "nvidia/nccl/lib"} {
		if err := os.MkdirAll(filepath.Join(site, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e := env(map[string]string{"DL_CUDA_LIB_DIRS": "/my/libs:/my/stubs::/other"})
	got := searchDirs(specBLAS, e, []string{site})
	want := []string{"/my/libs", "/other", "", "/usr/local/cuda/lib64", "/usr/local/cuda/targets/" + targetTriple() + "/lib",
		filepath.Join(site, "nvidia/cu13/lib"), filepath.Join(site, "nvidia/nccl/lib")}
	if !slices.Equal(got, want) {
		t.Errorf("searchDirs(cuBLAS) =\n%q\nwant\n%q", got, want)
	}
	// The driver is never looked for in the toolkit or in wheels.
	got = searchDirs(specDriver, env(nil), []string{site})
	want = []string{"", "/usr/local/nvidia/lib64", "/usr/local/nvidia/lib", "/usr/lib/wsl/lib"}
	if !slices.Equal(got, want) {
		t.Errorf("searchDirs(libcuda) = %q; want %q", got, want)
	}
	got = searchDirs(specNVRTC, env(map[string]string{"CUDA_HOME": "/opt/cuda-12.8"}), nil)
	if got[1] != "/opt/cuda-12.8/lib64" {
		t.Errorf("searchDirs with CUDA_HOME = %q; want /opt/cuda-12.8/lib64 after the system loader", got)
	}
}

func TestCandidatesFolderMajor(t *testing.T) {
	got := candidates(specNVRTC, 12, env(map[string]string{"DL_CUDA_LIB_DIRS": "/x"}), nil)
	want := []string{"/x/libnvrtc.so.12", "/x/libnvrtc.so.11.2", "libnvrtc.so.12", "libnvrtc.so.11.2",
		"/usr/local/cuda/lib64/libnvrtc.so.12", "/usr/local/cuda/lib64/libnvrtc.so.11.2"}
	if !slices.Equal(got[:len(want)], want) {
		t.Errorf("candidates(NVRTC, driver 12)[:6] = %q; want %q", got[:len(want)], want)
	}
}

func TestGuessSites(t *testing.T) {
	venv := t.TempDir()
	site := filepath.Join(venv, "lib", "python3.12", "site-packages")
	if err := os.MkdirAll(site, 0o755); err != nil {
		t.Fatal(err)
	}
	target := t.TempDir()
	got := guessSites(env(map[string]string{"VIRTUAL_ENV": venv, "PYTHONPATH": target}))
	if !slices.Contains(got, site) || !slices.Contains(got, target) {
		t.Errorf("guessSites = %q; want it to hold %q ($VIRTUAL_ENV) and %q ($PYTHONPATH)", got, site, target)
	}
	if i, j := slices.Index(got, target), slices.Index(got, site); i > j {
		t.Errorf("guessSites = %q: $PYTHONPATH (pip --target) should come before $VIRTUAL_ENV", got)
	}
}
