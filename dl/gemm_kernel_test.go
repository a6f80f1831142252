package dl_test

import (
	"runtime"
	"slices"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// TestGEMMKernelName checks the names the matrix products report: float16
// runs the float32 kernel (decoded while packed); bfloat16 runs a
// bfloat16 kernel or the float32 one; float32 and float64 name SIMD
// kernels of their own width on amd64 with assembly, none elsewhere.
func TestGEMMKernelName(t *testing.T) {
	f32, f64, bf16 := dl.GEMMKernelName(dl.Float32), dl.GEMMKernelName(dl.Float64), dl.GEMMKernelName(dl.BFloat16)
	t.Logf("float32 %q, float64 %q, bfloat16 %q", f32, f64, bf16)
	if got := dl.GEMMKernelName(dl.Float16); got != f32 {
		t.Errorf("float16 products run %q; want the float32 kernel %q", got, f32)
	}
	if !slices.Contains([]string{f32, "amx-bf16-32x32", "avx512bf16-14x32"}, bf16) {
		t.Errorf("bfloat16 products run %q; want a bfloat16 kernel or the float32 one %q", bf16, f32)
	}
	if runtime.GOARCH != "amd64" && (f32 != "" || f64 != "" || bf16 != "") {
		t.Errorf("%s has no assembly kernels, yet names %q, %q, %q", runtime.GOARCH, f32, f64, bf16)
	}
	if (f32 == "") != (f64 == "") || (f32 != "" && f32 == f64) {
		t.Errorf("float32 %q and float64 %q: want both SIMD kernels of their own, or neither", f32, f64)
	}
}
