package cuda

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestTargetFor(t *testing.T) {
	nvrtc13 := []int{75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121}
	for _, tc := range []struct {
		name      string
		cc        int
		supported []int
		want      string
		wantErr   bool
	}{
		{"exact/h200", 90, nvrtc13, "sm_90", false},
		{"same-major-lower-minor", 61, []int{50, 52, 60, 70}, "sm_60", false}, // CUBIN for 6.0 runs on 6.1
		{"newer-than-compiler", 130, nvrtc13, "compute_121", false},           // only PTX can reach an unknown GPU
		{"unsorted-input", 86, []int{90, 80, 75}, "sm_80", false},
		{"too-old-gpu", 60, nvrtc13, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := TargetFor(tc.cc, tc.supported)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("TargetFor(%d, %v) = %q, %v; want %q (error %v)", tc.cc, tc.supported, got, err, tc.want, tc.wantErr)
			}
		})
	}
}

func TestPackArgs(t *testing.T) {
	slots, offs, err := packArgs("k", []any{DevPtr(0xdeadbeef00), int32(-1), uint32(7), int64(-2), uint64(3),
		float32(1.5), Int64s{4, -5}, float64(-0.25)})
	if err != nil {
		t.Fatal(err)
	}
	want := []uint64{0xdeadbeef00, 0xffffffff, 7, 0xfffffffffffffffe, 3, uint64(math.Float32bits(1.5)),
		4, 0xfffffffffffffffb, math.Float64bits(-0.25)}
	if !slices.Equal(slots, want) {
		t.Errorf("slots = %#x; want %#x", slots, want)
	}
	if wantOffs := []int{0, 1, 2, 3, 4, 5, 6, 8}; !slices.Equal(offs, wantOffs) {
		t.Errorf("offsets = %v; want %v (the Int64s takes two slots)", offs, wantOffs)
	}
	_, _, err = packArgs("saxpy", []any{DevPtr(1), 42})
	if err == nil || !strings.Contains(err.Error(), "kernel saxpy argument 1 has Go type int") {
		t.Errorf("packArgs with a Go int = %v; want an error naming the kernel, the argument and the type", err)
	}
}

func TestDim3Norm(t *testing.T) {
	x, y, z := Dim3{X: 256}.norm()
	if x != 256 || y != 1 || z != 1 {
		t.Errorf("Dim3{X: 256}.norm() = %d,%d,%d; want 256,1,1", x, y, z)
	}
}

// gemmColMajorRef is cuBLAS's column-major definition of Sgemm with
// alpha = 1: C[i + j*ldc] = sum_p op(A)[i,p]·op(B)[p,j] + beta·C.
func gemmColMajorRef(ta, tb Op, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	at := func(i, p int) float32 {
		if ta == NoTrans {
			return a[i+p*lda]
		}
		return a[p+i*lda]
	}
	bt := func(p, j int) float32 {
		if tb == NoTrans {
			return b[p+j*ldb]
		}
		return b[j+p*ldb]
	}
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			var s float32
			for p := 0; p < k; p++ {
				s += at(i, p) * bt(p, j)
			}
			c[i+j*ldc] = s + beta*c[i+j*ldc]
		}
	}
}

// TestRowMajorToColMajor checks the operand swap of Gemm.toColMajor on
// the CPU: running its column-major call on row-major data must give the
// row-major product.
func TestRowMajorToColMajor(t *testing.T) {
	const m, n, k = 3, 4, 5
	for _, ta := range []Op{NoTrans, Trans} {
		for _, tb := range []Op{NoTrans, Trans} {
			a := make([]float32, m*k) // op(A) is m×k
			b := make([]float32, k*n)
			for i := range a {
				a[i] = float32(i%7) - 3
			}
			for i := range b {
				b[i] = float32(i%5) - 2
			}
			opA := func(i, p int) float32 { // row-major storage
				if ta == NoTrans {
					return a[i*k+p]
				}
				return a[p*m+i]
			}
			opB := func(p, j int) float32 {
				if tb == NoTrans {
					return b[p*n+j]
				}
				return b[j*k+p]
			}
			got := make([]float32, m*n)
			cm := Gemm{TransA: ta, TransB: tb, M: m, N: n, K: k, A: 1, B: 2}.toColMajor()
			ops := map[DevPtr][]float32{1: a, 2: b}
			if !cm.allFloat32Def || cm.alpha != 1 {
				t.Fatalf("float32 Gemm should map to Sgemm with alpha 1: %+v", cm)
			}
			gemmColMajorRef(cm.ta, cm.tb, cm.m, cm.n, cm.k, ops[cm.a], cm.lda, ops[cm.b], cm.ldb, 0, got, cm.ldc)
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					var want float32
					for p := 0; p < k; p++ {
						want += opA(i, p) * opB(p, j)
					}
					if got[i*n+j] != want {
						t.Fatalf("TransA=%d TransB=%d: C[%d,%d] = %v; want %v", ta, tb, i, j, got[i*n+j], want)
					}
				}
			}
		}
	}
	if cm := (Gemm{AType: R16BF, BType: R16BF, M: 1, N: 1, K: 1}).toColMajor(); cm.allFloat32Def || cm.compute != Compute32F {
		t.Errorf("bf16 Gemm must go through GemmEx with Compute32F by default: %+v", cm)
	}
}

// TestRowMajorLeadingDims checks padded rows (LDA/LDB/LDC > dense) and
// Alpha: the sub-matrix product of row-major views into wider arrays.
func TestRowMajorLeadingDims(t *testing.T) {
	const m, n, k, lda, ldb, ldc = 2, 3, 4, 7, 5, 6
	a, b := make([]float32, m*lda), make([]float32, k*ldb)
	for i := range a {
		a[i] = float32(i%5) - 2
	}
	for i := range b {
		b[i] = float32(i%3) - 1
	}
	cm := Gemm{M: m, N: n, K: k, A: 1, B: 2, LDA: lda, LDB: ldb, LDC: ldc, Alpha: 2}.toColMajor()
	got := make([]float32, m*ldc)
	ops := map[DevPtr][]float32{1: a, 2: b}
	gemmColMajorRef(cm.ta, cm.tb, cm.m, cm.n, cm.k, ops[cm.a], cm.lda, ops[cm.b], cm.ldb, 0, got, cm.ldc)
	for i := range got { // alpha is applied by cuBLAS, not by the reference: scale here
		got[i] *= float32(cm.alpha)
	}
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var want float32
			for p := 0; p < k; p++ {
				want += 2 * a[i*lda+p] * b[p*ldb+j]
			}
			if got[i*ldc+j] != want {
				t.Fatalf("C[%d,%d] = %v; want %v", i, j, got[i*ldc+j], want)
			}
		}
	}
}
