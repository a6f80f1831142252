package dl

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"unsafe"

	"github.com/dlbd/dlbd/dl/internal/cuda"
	"github.com/dlbd/dlbd/dl/internal/kernels/half"
)

// The kernel families by kind, as the launchers use them.
var (
	cudaUnaryFns  = []cudaFn{cudaNeg, cudaExp, cudaLog, cudaSqrt, cudaRsqrt, cudaTanh, cudaSigmoid, cudaReLU, cudaAbs, cudaGELU, cudaGELUTanh}
	cudaBinaryFns = []cudaFn{cudaAdd, cudaSub, cudaMul, cudaDiv, cudaPow, cudaMax, cudaMin, cudaEq, cudaGt, cudaLeft,
		cudaReLUGrad, cudaSigmoidGrad, cudaTanhGrad, cudaGELUGrad, cudaGELUTanhGrad}
	cudaScalarFns = []cudaFn{cudaAddS, cudaSubS, cudaRSubS, cudaMulS, cudaDivS, cudaRDivS, cudaPowS, cudaRPowS,
		cudaMaxS, cudaMinS, cudaEqS, cudaGtS, cudaLtS, cudaKeepS, cudaSetS}
	cudaReduceFns = []cudaFn{cudaReduceSum, cudaReduceMax, cudaArgMax}
)

// TestCUDAKernelNames checks, without a GPU, that every kernel a launcher
// can ask for is defined in cuda_kernels.cu (after macro expansion:
// UNARY(relu, ...) defines relu_f32 and relu_f64).
func TestCUDAKernelNames(t *testing.T) {
	defined := func(name string) bool {
		for _, macro := range []string{"UNARY", "BINARY", "SCALAR", "REDUCE"} {
			if strings.Contains(cudaKernelSource, "\n"+macro+"("+name+",") {
				return true
			}
		}
		return false
	}
	for _, fns := range [][]cudaFn{cudaUnaryFns, cudaBinaryFns, cudaScalarFns, cudaReduceFns[:2]} {
		for _, fn := range fns {
			if !defined(string(fn)) {
				t.Errorf("kernel family %q is not defined in cuda_kernels.cu", fn)
			}
		}
	}
	var names []string
	for _, s := range []DType{Float32, Float64, Float16, BFloat16} {
		for _, d := range []DType{Float32, Float64, Float16, BFloat16} {
			if s != d {
				names = append(names, "CAST("+cudaSuffix(s)+",")
			}
		}
	}
	names = append(names, "void argmax_f32(", "void argmax_f64(", "void fill_f32(", "void fill_f64(", "void fill_u16(",
		"void permute_b2(", "void permute_b4(", "void permute_b8(")
	for _, n := range names {
		if !strings.Contains(cudaKernelSource, n) {
			t.Errorf("cuda_kernels.cu lacks %q", n)
		}
	}
	if got := strings.Count(cudaKernelSource, "\nCAST("); got != 12 {
		t.Errorf("cuda_kernels.cu has %d casts; want 12 (every ordered pair of the 4 dtypes)", got)
	}
}

// TestCUDAKernelsCompile compiles the whole kernel file with NVRTC for
// sm_90 (H100/H200). It needs NVRTC, not a GPU.
func TestCUDAKernelsCompile(t *testing.T) {
	if err := cuda.LoadNVRTC(); err != nil {
		if os.Getenv("DL_REQUIRE_CUDA") == "1" {
			t.Fatal(err)
		}
		t.Skipf("skipped: %v", err)
	}
	if testing.Short() {
		t.Skip("compiling all kernels takes seconds")
	}
	t.Setenv("DL_CUDA_CACHE", "off") // compile for real, not from a previous run
	im, err := cuda.Compile(cudaKernelSource, "cuda_kernels.cu", "sm_90")
	if err != nil {
		t.Fatal(err)
	}
	if im.Log != "" {
		t.Errorf("NVRTC warnings for cuda_kernels.cu:\n%s", im.Log)
	}
}

func TestCUDAUnavailableIsAnError(t *testing.T) {
	err := CUDAAvailable()
	if err == nil {
		t.Skip("a GPU is present")
	}
	if !errors.Is(err, cuda.ErrNoDriver) && !errors.Is(err, cuda.ErrNoDevice) {
		t.Errorf("CUDAAvailable() = %v; want ErrNoDriver or ErrNoDevice", err)
	}
	if n := theCUDA.deviceCount(); n != 0 {
		t.Errorf("deviceCount() = %d without a GPU", n)
	}
	if _, err := CUDAProperties(CUDA(0)); err == nil {
		t.Error("CUDAProperties(CUDA(0)) succeeded without a GPU")
	}
}

// needCUDA skips without a GPU, or fails under DL_REQUIRE_CUDA=1.
func needCUDA(t *testing.T) Device {
	t.Helper()
	if err := CUDAAvailable(); err != nil {
		if os.Getenv("DL_REQUIRE_CUDA") == "1" {
			t.Fatalf("DL_REQUIRE_CUDA=1 but: %v", err)
		}
		t.Skipf("no CUDA GPU: %v", err)
	}
	return CUDA(0)
}

// devArray uploads host data (any element type) into a fresh buffer.
func devArray[T any](t *testing.T, dev Device, dt DType, x []T) cudaArray {
	t.Helper()
	var z T
	nb := len(x) * int(unsafe.Sizeof(z))
	buf, err := theCUDA.malloc(dev, max(nb, 1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { theCUDA.free(dev, buf) })
	if nb > 0 {
		theCUDA.copy(dev, buf, 0, CPU, buffer{host: unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), nb)}, 0, nb)
	}
	return cudaArray{buf: buf, dtype: dt}
}

// poisoned returns an n-element output filled with NaN (all ones in bits).
func poisoned(t *testing.T, dev Device, dt DType, n int) cudaArray {
	a := devArray(t, dev, dt, make([]byte, n*dt.Size()))
	theCUDA.cudaFill(dev, a, n, math.NaN())
	return a
}

func fetch[T any](t *testing.T, dev Device, a cudaArray, n int) []T {
	t.Helper()
	out := make([]T, n)
	var z T
	nb := n * int(unsafe.Sizeof(z))
	if nb > 0 {
		theCUDA.copy(CPU, buffer{host: unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), nb)}, 0, dev, a.buf, a.off*a.dtype.Size(), nb)
	}
	return out
}

func gelu64(x float64) float64 { return 0.5 * x * (1 + math.Erf(x/math.Sqrt2)) }
func geluTanh64(x float64) float64 {
	return 0.5 * x * (1 + math.Tanh(0.7978845608028654*(x+0.044715*x*x*x)))
}

// cudaUnaryRef is each unary op in float64, the CPU's definition.
var cudaUnaryRef = map[cudaFn]func(float64) float64{
	cudaNeg: func(x float64) float64 { return -x }, cudaExp: math.Exp, cudaLog: math.Log, cudaSqrt: math.Sqrt,
	cudaRsqrt: func(x float64) float64 { return 1 / math.Sqrt(x) }, cudaTanh: math.Tanh,
	cudaSigmoid: func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }, cudaReLU: func(x float64) float64 { return math.Max(x, 0) },
	cudaAbs: math.Abs, cudaGELU: gelu64, cudaGELUTanh: geluTanh64,
}

// relErr is |got-want| / max(|want|, 1): relative for large values,
// absolute near zero.
func relErr(got, want float64) float64 { return math.Abs(got-want) / math.Max(math.Abs(want), 1) }

func TestCUDAUnaryMatchesCPU(t *testing.T) {
	dev := needCUDA(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 1))
	const n = 10007
	x := make([]float32, n)
	for i := range x {
		x[i] = 0.01 + 4*r.Float32() // positive: log, sqrt and rsqrt are defined
		if i%2 == 1 {
			x[i] = -x[i] + 4 // negative values too for the others
		}
	}
	for _, fn := range cudaUnaryFns {
		t.Run(fmt.Sprintf("op=%s/dtype=float32", fn), func(t *testing.T) {
			src, dst := devArray(t, dev, Float32, x), poisoned(t, dev, Float32, n)
			theCUDA.cudaUnary(dev, fn, dst, src, n)
			got := fetch[float32](t, dev, dst, n)
			for i, v := range x {
				want := cudaUnaryRef[fn](float64(v))
				if math.IsNaN(want) {
					continue
				}
				if e := relErr(float64(got[i]), want); !(e < 1e-5) {
					t.Fatalf("%s(%v) = %v; want %v (error %.1e)", fn, v, got[i], want, e)
				}
			}
		})
	}
}

func TestCUDABinaryBroadcast(t *testing.T) {
	dev := needCUDA(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 2))
	// a [3,1,5] with b [4,1] -> out [3,4,5].
	a, b := make([]float64, 15), make([]float64, 4)
	for i := range a {
		a[i] = r.Float64()*4 - 2
	}
	for i := range b {
		b[i] = r.Float64()*4 - 2
	}
	da, db := devArray(t, dev, Float64, a), devArray(t, dev, Float64, b)
	dims, sa, sb := []int{3, 4, 5}, []int{5, 0, 1}, []int{0, 1, 0}
	for fn, ref := range map[cudaFn]func(x, y float64) float64{
		cudaAdd: func(x, y float64) float64 { return x + y }, cudaMul: func(x, y float64) float64 { return x * y },
		cudaDiv: func(x, y float64) float64 { return x / y }, cudaMax: math.Max,
		cudaGt: func(x, y float64) float64 {
			if x > y {
				return 1
			}
			return 0
		},
	} {
		out := poisoned(t, dev, Float64, 60)
		theCUDA.cudaBinary(dev, fn, out, da, db, 60, dims, sa, sb)
		got := fetch[float64](t, dev, out, 60)
		for i := 0; i < 3; i++ {
			for j := 0; j < 4; j++ {
				for k := 0; k < 5; k++ {
					if want := ref(a[i*5+k], b[j]); got[(i*4+j)*5+k] != want {
						t.Fatalf("%s broadcast [3,1,5]x[4,1] at (%d,%d,%d) = %v; want %v", fn, i, j, k, got[(i*4+j)*5+k], want)
					}
				}
			}
		}
	}
}

func TestCUDAReduce(t *testing.T) {
	dev := needCUDA(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 3))
	for _, sh := range [][3]int{{1, 100003, 1}, {7, 1000, 3}, {5, 1, 4}, {2, 300, 1}} {
		outer, n, inner := sh[0], sh[1], sh[2]
		x := make([]float32, outer*n*inner)
		for i := range x {
			x[i] = r.Float32()*2 - 1
		}
		x[len(x)/2] = 5 // a unique maximum somewhere
		src := devArray(t, dev, Float32, x)
		for _, fn := range cudaReduceFns {
			t.Run(fmt.Sprintf("op=%s/shape=%dx%dx%d", fn, outer, n, inner), func(t *testing.T) {
				dst := poisoned(t, dev, Float32, outer*inner)
				theCUDA.cudaReduce(dev, fn, dst, src, outer, n, inner)
				got := fetch[float32](t, dev, dst, outer*inner)
				for o := 0; o < outer; o++ {
					for in := 0; in < inner; in++ {
						sum, best, arg := 0.0, math.Inf(-1), 0
						for j := 0; j < n; j++ {
							v := float64(x[(o*n+j)*inner+in])
							sum += v
							if v > best {
								best, arg = v, j
							}
						}
						want := map[cudaFn]float64{cudaReduceSum: sum, cudaReduceMax: best, cudaArgMax: float64(arg)}[fn]
						if e := relErr(float64(got[o*inner+in]), want); !(e < 1e-5) {
							t.Fatalf("%s at (%d,%d) = %v; want %v", fn, o, in, got[o*inner+in], want)
						}
					}
				}
			})
		}
	}
}

func TestCUDACastAndPermute(t *testing.T) {
	dev := needCUDA(t)
	x := []float32{0, 1, -2.5, 3.14159, 65504, 1e-8, float32(math.Inf(1)), 1.0 / 3}
	src := devArray(t, dev, Float32, x)
	for _, dt := range []DType{Float16, BFloat16} {
		mid, back := poisoned(t, dev, dt, len(x)), poisoned(t, dev, Float32, len(x))
		theCUDA.cudaCast(dev, mid, src, len(x))
		theCUDA.cudaCast(dev, back, mid, len(x))
		bits, got := fetch[uint16](t, dev, mid, len(x)), fetch[float32](t, dev, back, len(x))
		for i, v := range x {
			want := half.Float32ToFloat16(v)
			if dt == BFloat16 {
				want = half.Float32ToBFloat16(v)
			}
			if bits[i] != want {
				t.Errorf("cast %v to %v = %#04x; want %#04x (as dl/internal/kernels/half)", v, dt, bits[i], want)
			}
			if dt == BFloat16 && got[i] != half.BFloat16ToFloat32(want) {
				t.Errorf("bfloat16 %#04x back to float32 = %v; want %v", want, got[i], half.BFloat16ToFloat32(want))
			}
		}
	}
	// permute [2,3,4] with perm [2,0,1] -> [4,2,3].
	p := make([]float32, 24)
	for i := range p {
		p[i] = float32(i)
	}
	dst := poisoned(t, dev, Float32, 24)
	theCUDA.cudaPermute(dev, dst, devArray(t, dev, Float32, p), []int{2, 3, 4}, []int{2, 0, 1})
	got := fetch[float32](t, dev, dst, 24)
	for a := 0; a < 4; a++ {
		for b := 0; b < 2; b++ {
			for c := 0; c < 3; c++ {
				if want := p[(b*3+c)*4+a]; got[(a*2+b)*3+c] != want {
					t.Fatalf("permute at (%d,%d,%d) = %v; want %v", a, b, c, got[(a*2+b)*3+c], want)
				}
			}
		}
	}
}

func TestCUDAOutOfMemoryMessage(t *testing.T) {
	dev := needCUDA(t)
	_, total, err := CUDAMemInfo(dev)
	if err != nil {
		t.Fatal(err)
	}
	_, err = theCUDA.malloc(dev, int(2*total))
	if err == nil || !errors.Is(err, cuda.ErrOutOfMemory) ||
		!strings.Contains(err.Error(), "CUDA out of memory. Tried to allocate "+FormatBytes(2*total)+" (GPU 0; "+FormatBytes(total)+" total capacity;") {
		t.Errorf("malloc(2×total) = %v; want PyTorch's wording wrapping cuda.ErrOutOfMemory", err)
	}
}
