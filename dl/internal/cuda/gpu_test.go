package cuda

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl/internal/kernels/half"
)

// needGPU returns device 0's context, or skips the test with the loader's
// reason; under DL_REQUIRE_CUDA=1 (the GPU check script) it fails instead.
func needGPU(t testing.TB) *Context {
	t.Helper()
	c, err := Primary(0)
	if err != nil {
		if os.Getenv("DL_REQUIRE_CUDA") == "1" {
			t.Fatalf("DL_REQUIRE_CUDA=1 but no usable GPU: %v", err)
		}
		t.Skipf("no CUDA GPU: %v", err)
	}
	return c
}

// nanBits is a float32 quiet NaN, used to poison outputs before each run.
const nanBits = 0x7fc00000

func randFloats(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = 2*r.Float32() - 1
	}
	return x
}

func mustAlloc(t testing.TB, c *Context, n int64) DevPtr {
	t.Helper()
	p, err := c.Alloc(n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Free(p) })
	return p
}

func TestGPUDeviceProps(t *testing.T) {
	needGPU(t)
	for _, li := range Libraries() {
		t.Logf("%-8s %s", li.Name, li.Path)
		if li.Err != nil && os.Getenv("DL_REQUIRE_CUDA") == "1" {
			t.Errorf("DL_REQUIRE_CUDA=1 needs all four libraries: %v", li.Err)
		}
	}
	ds, err := Devices()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ds {
		t.Logf("%v; L2 %s, bus %d bits, driver %d, peak %.0f GB/s", p, bytesString(int64(p.L2Bytes)),
			p.BusWidthBits, p.DriverVersion, p.PeakBandwidth()/1e9)
		if p.Name == "" || p.SMs <= 0 || p.TotalMem <= 0 || p.CC() < 50 || p.WarpSize != 32 {
			t.Errorf("implausible properties: %+v", p)
		}
	}
	if _, err := Device(len(ds)); !errors.Is(err, ErrNoDevice) {
		t.Errorf("Device(%d) = %v; want ErrNoDevice", len(ds), err)
	}
}

func TestGPUCopies(t *testing.T) {
	c := needGPU(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 1))
	const n = 1<<20 + 3
	src := randFloats(r, n)
	d1, d2 := mustAlloc(t, c, 4*n), mustAlloc(t, c, 4*n)
	if err := Upload(c, d1, src); err != nil {
		t.Fatal(err)
	}
	if err := c.Memset32(d2, nanBits, n); err != nil {
		t.Fatal(err)
	}
	if err := c.CopyDtoD(d2, d1, 4*n); err != nil {
		t.Fatal(err)
	}
	got := make([]float32, n)
	for i := range got {
		got[i] = float32(math.NaN())
	}
	if err := Download(c, got, d2); err != nil {
		t.Fatal(err)
	}
	requireEqual(t, "pageable H2D, D2D, D2H", got, src)

	// Pinned and asynchronous, on a stream of our own.
	s, err := c.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer c.DestroyStream(s)
	hin, err := c.HostAlloc(4 * n)
	if err != nil {
		t.Fatal(err)
	}
	defer hin.Free()
	hout, err := c.HostAlloc(4 * n)
	if err != nil {
		t.Fatal(err)
	}
	defer hout.Free()
	src2 := randFloats(r, n)
	copy(hin.Float32s(), src2)
	for i := range hout.Float32s() {
		hout.Float32s()[i] = float32(math.NaN())
	}
	if err := c.CopyHtoDAsync(d1, hin, 0, 4*n, s); err != nil {
		t.Fatal(err)
	}
	if err := c.CopyDtoHAsync(hout, 0, d1, 4*n, s); err != nil {
		t.Fatal(err)
	}
	if err := c.SyncStream(s); err != nil {
		t.Fatal(err)
	}
	requireEqual(t, "pinned async H2D, D2H", hout.Float32s(), src2)
	if err := c.CopyHtoDAsync(d1, hin, 8, 4*n, s); err == nil {
		t.Error("a pinned copy past the buffer's end must be refused")
	}
}

func requireEqual(t *testing.T, what string, got, want []float32) {
	t.Helper()
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: element %d = %v; want %v", what, i, got[i], want[i])
		}
	}
}

func TestGPUKernelLaunch(t *testing.T) {
	c := needGPU(t)
	f, err := c.Kernel(testKernel, "scale")
	if err != nil {
		t.Fatal(err)
	}
	const n = 100003
	x := randFloats(rand.New(rand.NewPCG(rand.Uint64(), 2)), n)
	d := mustAlloc(t, c, 4*n)
	if err := Upload(c, d, x); err != nil {
		t.Fatal(err)
	}
	dur, err := c.Time(0, func() error {
		return c.Launch(f, Dim3{X: (n + 255) / 256}, Dim3{X: 256}, 0, 0, d, float32(2.5), int32(n))
	})
	if err != nil {
		t.Fatal(err)
	}
	got := make([]float32, n)
	if err := Download(c, got, d); err != nil {
		t.Fatal(err)
	}
	for i := range x {
		if want := x[i] * 2.5; got[i] != want {
			t.Fatalf("scale: x[%d] = %v; want %v", i, got[i], want)
		}
	}
	if dur <= 0 {
		t.Errorf("event timing of a kernel = %v; want > 0", dur)
	}
	t.Logf("scale over %d floats: %v (GPU events)", n, dur)
	if err := c.Launch(f, Dim3{X: 1}, Dim3{X: 1}, 0, 0, d, 2.5, n); err == nil || !strings.Contains(err.Error(), "float64") {
		t.Errorf("launch with Go float64/int args = %v; want the argument-type error", err)
	}
}

func TestGPUOutOfMemory(t *testing.T) {
	c := needGPU(t)
	_, total, err := c.MemInfo()
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.Alloc(2 * total)
	if err == nil {
		c.Free(p)
		t.Fatalf("allocating twice the device's %s succeeded", bytesString(total))
	}
	if !errors.Is(err, ErrOutOfMemory) || !strings.Contains(err.Error(), "CUDA_ERROR_OUT_OF_MEMORY") {
		t.Errorf("Alloc(2×total) = %v; want CUDA_ERROR_OUT_OF_MEMORY wrapping ErrOutOfMemory", err)
	}
}

// gemmRef is C = op(A)·op(B) in float64 on row-major data, with each
// element's scale sum_p |a||b| for a relative error that does not blow up
// where the sum cancels.
func gemmRef(ta, tb Op, m, n, k int, a, b []float32) (c, scale []float64) {
	c, scale = make([]float64, m*n), make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			for p := 0; p < k; p++ {
				ai, bj := a[i*k+p], b[p*n+j]
				if ta == Trans {
					ai = a[p*m+i]
				}
				if tb == Trans {
					bj = b[j*k+p]
				}
				c[i*n+j] += float64(ai) * float64(bj)
				scale[i*n+j] += math.Abs(float64(ai) * float64(bj))
			}
		}
	}
	return c, scale
}

// maxRelErr is max_i |got-want|/scale; NaN anywhere (an unwritten output)
// counts as infinite.
func maxRelErr(got []float32, want, scale []float64) float64 {
	worst := 0.0
	for i := range want {
		e := math.Abs(float64(got[i])-want[i]) / math.Max(scale[i], 1e-30)
		if math.IsNaN(e) {
			return math.Inf(1)
		}
		worst = math.Max(worst, e)
	}
	return worst
}

// TestGPUGemmMatchesCPU checks every precision of RowMajorGemm against a
// float64 CPU product, with fresh random inputs and NaN-poisoned outputs.
// fp16/bf16 references use the rounded inputs: GemmEx must then be as
// exact as fp32 accumulation; the rounding itself is logged.
func TestGPUGemmMatchesCPU(t *testing.T) {
	c := needGPU(t)
	b, err := c.BLAS()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(rand.Uint64(), 3))
	const m, n, k = 257, 130, 311
	for _, tc := range []struct {
		name  string
		typ   DataType
		math  Math
		bound float64
	}{
		{"fp32", R32F, DefaultMath, 1e-5},
		{"tf32", R32F, TF32Math, 2e-3}, // inputs rounded to 10 mantissa bits: ~3e-4 expected
		{"bf16", R16BF, DefaultMath, 1e-5},
		{"fp16", R16F, DefaultMath, 1e-5},
	} {
		for _, tr := range [][2]Op{{NoTrans, NoTrans}, {Trans, NoTrans}, {NoTrans, Trans}, {Trans, Trans}} {
			t.Run(fmt.Sprintf("type=%s/trans=%d%d", tc.name, tr[0], tr[1]), func(t *testing.T) {
				a, bm := randFloats(r, m*k), randFloats(r, k*n)
				orig, origScale := gemmRef(tr[0], tr[1], m, n, k, a, bm)
				da, db := uploadAs(t, c, a, tc.typ), uploadAs(t, c, bm, tc.typ) // rounds a and bm in place
				dc := mustAlloc(t, c, 4*m*n)
				if err := c.Memset32(dc, nanBits, m*n); err != nil {
					t.Fatal(err)
				}
				if err := b.SetMath(tc.math); err != nil {
					t.Fatal(err)
				}
				defer b.SetMath(DefaultMath)
				g := Gemm{TransA: tr[0], TransB: tr[1], M: m, N: n, K: k, A: da, B: db, C: dc, AType: tc.typ, BType: tc.typ}
				if err := b.RowMajorGemm(g); err != nil {
					t.Fatal(err)
				}
				got := make([]float32, m*n)
				if err := Download(c, got, dc); err != nil {
					t.Fatal(err)
				}
				want, scale := gemmRef(tr[0], tr[1], m, n, k, a, bm)
				e := maxRelErr(got, want, scale)
				t.Logf("max relative error %.2e against the rounded inputs, %.2e against float32 inputs", e, maxRelErr(got, orig, origScale))
				if e > tc.bound {
					t.Errorf("%s gemm %dx%dx%d: max relative error %.2e > %.0e", tc.name, m, n, k, e, tc.bound)
				}
			})
		}
	}
}

// uploadAs rounds x to typ in place (so the CPU reference sees what the
// GPU sees) and uploads it in that format.
func uploadAs(t *testing.T, c *Context, x []float32, typ DataType) DevPtr {
	t.Helper()
	if typ == R32F {
		d := mustAlloc(t, c, int64(4*len(x)))
		if err := Upload(c, d, x); err != nil {
			t.Fatal(err)
		}
		return d
	}
	h := make([]uint16, len(x))
	if typ == R16BF {
		half.EncodeBFloat16(h, x)
		half.DecodeBFloat16(x, h)
	} else {
		half.EncodeFloat16(h, x)
		half.DecodeFloat16(x, h)
	}
	d := mustAlloc(t, c, int64(2*len(x)))
	if err := Upload(c, d, h); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestGPUDgemm checks the float64 path (cublasDgemm_v2) of RowMajorGemm.
func TestGPUDgemm(t *testing.T) {
	c := needGPU(t)
	b, err := c.BLAS()
	if err != nil {
		t.Fatal(err)
	}
	const m, n, k = 65, 33, 129
	r := rand.New(rand.NewPCG(rand.Uint64(), 5))
	a32, b32 := randFloats(r, m*k), randFloats(r, k*n)
	a64, b64 := make([]float64, m*k), make([]float64, k*n)
	for i, v := range a32 {
		a64[i] = float64(v)
	}
	for i, v := range b32 {
		b64[i] = float64(v)
	}
	da, db, dc := mustAlloc(t, c, 8*m*k), mustAlloc(t, c, 8*k*n), mustAlloc(t, c, 8*m*n)
	if err := Upload(c, da, a64); err != nil {
		t.Fatal(err)
	}
	if err := Upload(c, db, b64); err != nil {
		t.Fatal(err)
	}
	if err := c.Memset32(dc, nanBits, 2*m*n); err != nil {
		t.Fatal(err)
	}
	if err := b.RowMajorGemm(Gemm{M: m, N: n, K: k, A: da, B: db, C: dc, AType: R64F, BType: R64F, CType: R64F}); err != nil {
		t.Fatal(err)
	}
	got := make([]float64, m*n)
	if err := Download(c, got, dc); err != nil {
		t.Fatal(err)
	}
	want, scale := gemmRef(NoTrans, NoTrans, m, n, k, a32, b32)
	for i := range want {
		if e := math.Abs(got[i]-want[i]) / scale[i]; !(e < 1e-14) {
			t.Fatalf("Dgemm C[%d] = %v; want %v (relative error %.1e)", i, got[i], want[i], e)
		}
	}
}
