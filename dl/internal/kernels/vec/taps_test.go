package vec

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// tapRowsRef is TapRows in float64.
func tapRowsRef(y []float32, ldy int, x []float32, ldx, rows, cols int, offs []int, w []float32) []float64 {
	out := make([]float64, len(y))
	for i, v := range y {
		out[i] = float64(v)
	}
	for r := range rows {
		for c := range cols {
			for t, o := range offs {
				out[r*ldy+c] += float64(w[t]) * float64(x[r*ldx+c+o])
			}
		}
	}
	return out
}

func TestTapRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct{ rows, cols, ldy, ldx, taps int }{
		{28, 28, 28, 30, 9}, // a 3×3 depthwise layer on 28×28 planes
		{7, 7, 7, 9, 9},     // 7×7 planes
		{3, 1, 1, 3, 9},     // one column
		{5, 32, 33, 34, 4},  // a whole segment
		{4, 33, 40, 35, 25}, // a segment and one float
		{2, 70, 70, 74, 49}, // three segments, 7×7 taps
		{1, 16, 16, 18, 1},  // one tap, one vector
		{6, 17, 20, 19, 2},  // a vector and one float
	} {
		offs := make([]int, tc.taps)
		w := make([]float32, tc.taps)
		for i := range offs {
			offs[i] = rng.IntN(3*tc.ldx + 3)
			w[i] = float32(rng.NormFloat64())
		}
		top := 0
		for _, o := range offs {
			top = max(top, o)
		}
		// guards after y's last row and x's last read must stay untouched
		y := make([]float32, (tc.rows-1)*tc.ldy+tc.cols+16)
		x := make([]float32, (tc.rows-1)*tc.ldx+tc.cols+top)
		for i := range y {
			y[i] = float32(rng.NormFloat64())
		}
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		want := tapRowsRef(y, tc.ldy, x, tc.ldx, tc.rows, tc.cols, offs, w)
		before := append([]float32(nil), y...)
		TapRows(y, tc.ldy, x, tc.ldx, tc.rows, tc.cols, offs, w)
		for i, v := range y {
			inRow := i/tc.ldy < tc.rows && i%tc.ldy < tc.cols && i < (tc.rows-1)*tc.ldy+tc.cols
			if !inRow {
				if v != before[i] {
					t.Fatalf("%+v: y[%d] outside the rows changed: %g -> %g", tc, i, before[i], v)
				}
				continue
			}
			if d := math.Abs(float64(v) - want[i]); d > 1e-5*(1+math.Abs(want[i])) {
				t.Fatalf("%+v: y[%d] = %g, want %g", tc, i, v, want[i])
			}
		}
	}
}

func TestTapRowsBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"weights", func() { TapRows(make([]float32, 4), 4, make([]float32, 8), 4, 1, 4, []int{0, 1}, []float32{1}) }, "2 offsets for 1 weights"},
		{"negative", func() { TapRows(make([]float32, 4), 4, make([]float32, 8), 4, 1, 4, []int{-1}, []float32{1}) }, "offset -1 is negative"},
		{"short x", func() { TapRows(make([]float32, 8), 4, make([]float32, 8), 4, 2, 4, []int{1}, []float32{1}) }, "x holds 8 floats"},
		{"short y", func() { TapRows(make([]float32, 7), 4, make([]float32, 9), 4, 2, 4, []int{1}, []float32{1}) }, "y holds 7 floats"},
		{"stride", func() { TapRows(make([]float32, 8), 3, make([]float32, 9), 4, 2, 4, []int{1}, []float32{1}) }, "stride must be at least"},
	} {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, tc.want) || !strings.HasPrefix(s, "vec.TapRows") {
					t.Errorf("%s: panic %v, want one naming vec.TapRows and %q", tc.name, r, tc.want)
				}
			}()
			tc.f()
		}()
	}
}

func TestTapDots(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct{ rows, cols, ldg, ldx, taps int }{
		{28, 28, 28, 30, 9}, // a 3×3 depthwise layer's weight gradient on 28×28 planes
		{7, 7, 7, 9, 9},     // 7×7 planes
		{3, 1, 1, 3, 9},     // one column, one row group short
		{5, 32, 33, 34, 4},  // a whole segment, 4 + 1 rows
		{9, 33, 40, 35, 25}, // a segment and one float
		{2, 70, 70, 74, 49}, // three segments, 7×7 taps
		{6, 17, 20, 19, 2},  // a vector and one float
	} {
		offs := make([]int, tc.taps)
		for i := range offs {
			offs[i] = rng.IntN(3*tc.ldx + 3)
		}
		top := 0
		for _, o := range offs {
			top = max(top, o)
		}
		g := make([]float32, (tc.rows-1)*tc.ldg+tc.cols)
		x := make([]float32, (tc.rows-1)*tc.ldx+tc.cols+top)
		for i := range g {
			g[i] = float32(rng.NormFloat64())
		}
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		acc := make([]float64, tc.taps)
		for i := range acc {
			acc[i] = float64(i) // TapDots adds to what acc holds
		}
		TapDots(acc, g, tc.ldg, x, tc.ldx, tc.rows, tc.cols, offs)
		for ti, o := range offs {
			want, mag := float64(ti), 0.0
			for r := range tc.rows {
				for c := range tc.cols {
					p := float64(g[r*tc.ldg+c]) * float64(x[r*tc.ldx+c+o])
					want += p
					mag += math.Abs(p)
				}
			}
			if d := math.Abs(acc[ti] - want); d > 1e-6*(mag+1) {
				t.Fatalf("%+v: tap %d: %g, want %g", tc, ti, acc[ti], want)
			}
		}
	}
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, "vec.TapDots: 1 offsets for 2 sums") {
			t.Errorf("TapDots with 2 sums and 1 offset: panic %q", r)
		}
	}()
	TapDots(make([]float64, 2), make([]float32, 4), 4, make([]float32, 4), 4, 1, 4, []int{0})
}
