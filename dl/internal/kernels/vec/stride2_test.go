package vec

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestStride2Rows checks Gather2Rows and ScatterAdd2Rows against their
// loops for every row length around the vector width (whole and partial
// blocks), several rows and leading dimensions (the tightest, 2*cols-1,
// included), at an odd offset, with NaN guards around both slices:
// nothing outside the elements named may be written, and the odd
// elements of ScatterAdd2Rows's rows (NaN here) must be left alone.
func TestStride2Rows(t *testing.T) {
	nan := float32(math.NaN())
	same := func(a, b float32) bool { return a == b || (a != a && b != b) }
	for cols := 1; cols <= 50; cols++ {
		for _, rows := range []int{1, 2, 3} {
			for _, extra := range []int{0, 1, 4} {
				ld := 2*cols - 1 + extra
				need := (rows-1)*ld + 2*cols - 1
				// The strided side is buf[1 : 1+need], the packed side
				// packed[1 : 1+rows*cols]; guards around both.
				buf := make([]float32, need+2)
				for i := range buf {
					buf[i] = float32(i)*0.5 - 3
				}
				buf[0], buf[need+1] = nan, nan
				packed := make([]float32, rows*cols+2)
				packed[0], packed[rows*cols+1] = 42, 42
				Gather2Rows(packed[1:1+rows*cols], buf[1:1+need], rows, cols, ld)
				for r := range rows {
					for i := range cols {
						if got, want := packed[1+r*cols+i], buf[1+r*ld+2*i]; got != want {
							t.Fatalf("Gather2Rows rows=%d cols=%d ld=%d: dst[%d] = %v, want %v", rows, cols, ld, r*cols+i, got, want)
						}
					}
				}
				if packed[0] != 42 || packed[rows*cols+1] != 42 {
					t.Fatalf("Gather2Rows rows=%d cols=%d ld=%d wrote outside dst", rows, cols, ld)
				}

				want := append([]float32(nil), buf...)
				for i := 1; i <= need; i += 2 { // odd elements of the rows: NaN, left alone
					if (i-1)%ld%2 == 1 {
						buf[i], want[i] = nan, nan
					}
				}
				for r := range rows {
					for i := range cols {
						packed[1+r*cols+i] = float32(r*cols+i)*0.1 + 0.3
						want[1+r*ld+2*i] += packed[1+r*cols+i]
					}
				}
				ScatterAdd2Rows(buf[1:1+need], packed[1:1+rows*cols], rows, cols, ld)
				for i := range buf {
					if !same(buf[i], want[i]) {
						t.Fatalf("ScatterAdd2Rows rows=%d cols=%d ld=%d: element %d = %v, want %v", rows, cols, ld, i-1, buf[i], want[i])
					}
				}
			}
		}
	}
	for _, tc := range []struct {
		name string
		call func()
		want string
	}{
		{"short src", func() { Gather2Rows(make([]float32, 8), make([]float32, 14), 2, 4, 8) }, "Gather2Rows: strided slice of 14 elements, want at least (rows-1)*ld + 2*cols - 1 = 15"},
		{"short dst", func() { Gather2Rows(make([]float32, 7), make([]float32, 15), 2, 4, 8) }, "Gather2Rows: packed slice of 7 elements, want at least rows*cols = 8"},
		{"overlap", func() { ScatterAdd2Rows(make([]float32, 20), make([]float32, 8), 2, 4, 6) }, "ScatterAdd2Rows: ld = 6 is less than 2*cols-1 = 7"},
		{"short strided", func() { ScatterAdd2Rows(make([]float32, 14), make([]float32, 8), 2, 4, 8) }, "ScatterAdd2Rows: strided slice of 14 elements, want at least (rows-1)*ld + 2*cols - 1 = 15"},
	} {
		func() {
			defer func() {
				if r, _ := recover().(string); tc.want == "" || !strings.Contains(r, tc.want) {
					t.Errorf("%s: panic %q, want one containing %q", tc.name, r, tc.want)
				}
			}()
			tc.call()
		}()
	}
}

// TestMaxPool2Row checks MaxPool2Row against its Go loop (values bit for
// bit, NaN included, and indexes) on every length around the vector
// width, with ties, −∞ and NaN, rows longer than needed, guards past dst
// and arg, and the panic on short rows.
func TestMaxPool2Row(t *testing.T) {
	vals := []float32{float32(math.Inf(-1)), 0, 1, 1, 1, float32(math.NaN()), -2, 3, float32(math.Inf(1))}
	r := rand.New(rand.NewPCG(5, 6))
	for n := 0; n <= 50; n++ {
		for range 4 {
			w := 2*n + r.IntN(4)
			rows := make([]float32, 2*w)
			for i := range rows {
				rows[i] = vals[r.IntN(len(vals))]
			}
			base := r.IntN(1000)
			dst, arg := make([]float32, n+1), make([]int64, n+1)
			dst[n], arg[n] = 42, 42
			MaxPool2Row(dst[:n], arg[:n], rows[:w], rows[w:], base, w)
			want, wantArg := make([]float32, n), make([]int64, n)
			maxPool2RowGeneric(want, wantArg, rows[:w], rows[w:], base, w)
			for i := range n {
				if math.Float32bits(dst[i]) != math.Float32bits(want[i]) || arg[i] != wantArg[i] {
					t.Fatalf("n=%d w=%d: output %d = %v at %d, want %v at %d", n, w, i, dst[i], arg[i], want[i], wantArg[i])
				}
			}
			if dst[n] != 42 || arg[n] != 42 {
				t.Fatalf("n=%d: wrote past dst or arg", n)
			}
		}
	}
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, "MaxPool2Row: 4 outputs need 4 indexes (have 4) and rows of 8 (have 8 and 7)") {
			t.Errorf("panic %q", r)
		}
	}()
	MaxPool2Row(make([]float32, 4), make([]int64, 4), make([]float32, 8), make([]float32, 7), 0, 8)
}

// TestCopyRows checks CopyRows against its loop for row lengths and fills
// around the vector width, several strides (rows that touch, gaps between
// them), with guards around dst that must not change, and the panic on a
// short destination.
func TestCopyRows(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for it := range 500 {
		rows, cols, fill := 1+r.IntN(4), r.IntN(40), r.IntN(20)
		if it%7 == 0 {
			fill = 0
		}
		ldd, lds := cols+fill+r.IntN(3), cols+r.IntN(3)
		need := (rows-1)*ldd + cols + fill
		src := make([]float32, (rows-1)*lds+cols+1)
		for i := range src {
			src[i] = float32(i) + 0.5
		}
		dst := make([]float32, need+2) // dst[1 : 1+need], guards around
		for i := range dst {
			dst[i] = -1
		}
		want := append([]float32(nil), dst...)
		for row := range rows {
			d := want[1+row*ldd:][:cols+fill]
			copy(d, src[row*lds:][:cols])
			clear(d[cols:])
		}
		CopyRows(dst[1:1+need], ldd, src, lds, rows, cols, fill)
		for i := range dst {
			if dst[i] != want[i] {
				t.Fatalf("rows=%d cols=%d fill=%d ldd=%d lds=%d: element %d = %v, want %v", rows, cols, fill, ldd, lds, i-1, dst[i], want[i])
			}
		}
	}
	defer func() {
		if p, _ := recover().(string); !strings.Contains(p, "CopyRows: 2 rows of 4 (+1 cleared) with strides 6 (dst of 10)") {
			t.Errorf("panic %q", p)
		}
	}()
	CopyRows(make([]float32, 10), 6, make([]float32, 12), 6, 2, 4, 1)
}
