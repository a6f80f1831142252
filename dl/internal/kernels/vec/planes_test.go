package vec

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRowsMatchPerRow checks the *Rows functions against the per-row
// ones on rows of every length up to 40 and BatchNorm's plane sizes (49,
// 196, 784), 1 to 9 rows, strides with gaps whose elements must not
// change: the affine maps bit for bit, the sums within float64 rounding
// (their order differs).
func TestRowsMatchPerRow(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	sizes := []int{1, 7, 15, 16, 17, 31, 32, 33, 40, 49, 196, 784}
	for _, n := range sizes {
		for _, rows := range []int{1, 2, 3, 9} {
			stride := n + r.IntN(20)
			total := (rows-1)*stride + n
			fill := func() []float32 {
				v := make([]float32, total)
				for i := range v {
					v[i] = float32(r.NormFloat64()*3 + 1)
				}
				return v
			}
			x, y, g := fill(), fill(), fill()
			var s, q, sg, sgx float64
			for k := range rows {
				o := k * stride
				s += Sum64(x[o:][:n])
				q += SqDev64(x[o:][:n], 0.25)
				sg += Sum64(g[o:][:n])
				sgx += Dot64(g[o:][:n], x[o:][:n])
			}
			near := func(name string, got, want float64) {
				if math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
					t.Errorf("n=%d rows=%d stride=%d: %s = %v, per row %v", n, rows, stride, name, got, want)
				}
			}
			near("SumRows64", SumRows64(x, n, rows, stride), s)
			near("SqDevRows64", SqDevRows64(x, n, rows, stride, 0.25), q)
			gs, gsx := SumDotRows64(g, x, n, rows, stride)
			near("SumDotRows64 Σg", gs, sg)
			near("SumDotRows64 Σg·x", gsx, sgx)

			for _, two := range []bool{false, true} {
				got := make([]float32, total)
				want := make([]float32, total)
				for i := range got {
					got[i], want[i] = -7, -7 // the gaps keep these
				}
				if two {
					Affine2Rows(got, x, y, n, rows, stride, 0.75, -2, 0.125)
				} else {
					AffineRows(got, x, n, rows, stride, 1.5, -0.5)
				}
				for k := range rows {
					o := k * stride
					if two {
						Affine2(want[o:][:n], x[o:][:n], y[o:][:n], 0.75, -2, 0.125)
					} else {
						Affine(want[o:][:n], x[o:][:n], 1.5, -0.5)
					}
				}
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("n=%d rows=%d stride=%d affine2=%v: [%d] = %v, want %v", n, rows, stride, two, i, got[i], want[i])
					}
				}
			}
		}
	}
	if SumRows64(nil, 0, 5, 0) != 0 || SumRows64(make([]float32, 3), 3, 0, 3) != 0 {
		t.Error("empty rows do not sum to 0")
	}
	for _, tc := range []struct {
		call func()
		want string
	}{
		{func() { SumRows64(make([]float32, 10), 4, 3, 4) }, "want at least 12"},
		{func() { AffineRows(make([]float32, 12), make([]float32, 12), 4, 3, 3, 1, 0) }, "want n, rows >= 0 and stride >= n"},
	} {
		func() {
			defer func() {
				if p, _ := recover().(string); !strings.Contains(p, tc.want) {
					t.Errorf("panic %q, want one containing %q", p, tc.want)
				}
			}()
			tc.call()
		}()
	}
}
