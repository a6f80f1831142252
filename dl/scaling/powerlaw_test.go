package scaling

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// sizes returns k sizes spaced evenly in log N from 10 to 10⁵.
func sizes(k int) []float64 {
	n := make([]float64, k)
	for i := range n {
		n[i] = math.Pow(10, 1+4*float64(i)/float64(k-1))
	}
	return n
}

func TestFitPowerLawRecoversKnownLaw(t *testing.T) {
	for _, tc := range []struct {
		name  string
		law   PowerLaw
		noise float64 // relative noise on each loss
		tol   float64 // tolerance on α, and relative tolerance on A and C
	}{
		{name: "exact/alpha=0.5", law: PowerLaw{A: 2, Alpha: 0.5, C: 0.01}, tol: 1e-4},
		{name: "exact/alpha=0.076", law: PowerLaw{A: 11.5, Alpha: 0.076, C: 0.3}, tol: 1e-4},
		{name: "exact/alpha=1.2", law: PowerLaw{A: 50, Alpha: 1.2, C: 1e-4}, tol: 1e-4},
		{name: "noise=2%/alpha=0.7", law: PowerLaw{A: 3, Alpha: 0.7, C: 0.002}, noise: 0.02, tol: 0.05},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			n := sizes(12)
			loss := make([]float64, len(n))
			for i := range n {
				loss[i] = tc.law.Loss(n[i]) * math.Exp(tc.noise*r.NormFloat64())
			}
			got, err := FitPowerLaw(n, loss)
			if err != nil {
				t.Fatalf("FitPowerLaw: %v", err)
			}
			t.Logf("FitPowerLaw = %v (want %v)", got, tc.law)
			if math.Abs(got.Alpha-tc.law.Alpha) > tc.tol ||
				math.Abs(got.A/tc.law.A-1) > tc.tol || math.Abs(got.C/tc.law.C-1) > tc.tol {
				t.Errorf("FitPowerLaw = %v; want %v (α within %g, A and C within %g %%)", got, tc.law, tc.tol, 100*tc.tol)
			}
		})
	}
}

// TestFitPowerLawPureLaw fits data with no constant: the fit must find c ≈ 0
// and the exponent of the straight line.
func TestFitPowerLawPureLaw(t *testing.T) {
	law := PowerLaw{A: 5, Alpha: 0.3}
	n := sizes(8)
	loss := make([]float64, len(n))
	for i := range n {
		loss[i] = law.Loss(n[i])
	}
	got, err := FitPowerLaw(n, loss)
	if err != nil {
		t.Fatalf("FitPowerLaw: %v", err)
	}
	if math.Abs(got.Alpha-0.3) > 1e-3 || got.C > 1e-3*law.Loss(n[len(n)-1]) {
		t.Errorf("FitPowerLaw = %v; want %v", got, law)
	}
}

func TestFitPowerLawErrors(t *testing.T) {
	good := []float64{10, 100, 1000, 10000}
	for _, tc := range []struct {
		name    string
		n, loss []float64
		want    string
	}{
		{name: "lengths", n: good, loss: []float64{1, 2, 3}, want: "4 sizes but 3 losses"},
		{name: "few", n: good[:3], loss: []float64{3, 2, 1}, want: "3 points; need at least 4"},
		{name: "zero-loss", n: good, loss: []float64{3, 2, 1, 0}, want: "point 3 is (N=10000, L=0)"},
		{name: "negative-n", n: []float64{-1, 100, 1000, 10000}, loss: []float64{4, 3, 2, 1}, want: "point 0 is (N=-1"},
		{name: "nan", n: good, loss: []float64{4, math.NaN(), 2, 1}, want: "point 1 is (N=100, L=NaN)"},
		{name: "inf", n: []float64{10, 100, math.Inf(1), 10000}, loss: []float64{4, 3, 2, 1}, want: "point 2"},
		{name: "repeated", n: []float64{10, 10, 100, 100}, loss: []float64{4, 3, 2, 1}, want: "only 2 distinct sizes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FitPowerLaw(tc.n, tc.loss)
			if !errors.Is(err, ErrFit) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "scaling: ") {
				t.Errorf("FitPowerLaw(%v, %v) error = %v; want ErrFit containing %q", tc.n, tc.loss, err, tc.want)
			}
		})
	}
}

// TestLogResidualsGradient checks the analytic gradient against central
// finite differences.
func TestLogResidualsGradient(t *testing.T) {
	n := sizes(6)
	logN, logL := make([]float64, len(n)), make([]float64, len(n))
	for i := range n {
		logN[i], logL[i] = math.Log(n[i]), math.Log(0.5/math.Sqrt(n[i])+0.01*float64(i+1))
	}
	for _, x := range [][]float64{{0.3, 0.4, -3}, {2, 0.9, -6}, {-1, 0.1, -1}} {
		g := make([]float64, 3)
		logResiduals(x, logN, logL, g)
		for j := range x {
			const h = 1e-6
			xp, xm := append([]float64(nil), x...), append([]float64(nil), x...)
			xp[j] += h
			xm[j] -= h
			fd := (logResiduals(xp, logN, logL, nil) - logResiduals(xm, logN, logL, nil)) / (2 * h)
			if math.Abs(fd-g[j]) > 1e-6*math.Max(1, math.Abs(fd)) {
				t.Errorf("gradient at %v, component %d = %g; finite difference %g", x, j, g[j], fd)
			}
		}
	}
}

func TestPowerLawString(t *testing.T) {
	got := fmt.Sprint(PowerLaw{A: 2.1, Alpha: 0.52, C: 0.013})
	if want := "L(N) = 2.1·N^(−0.52) + 0.013"; got != want {
		t.Errorf("PowerLaw.String() = %q; want %q", got, want)
	}
}

func TestPowerLawCurve(t *testing.T) {
	law := PowerLaw{A: 2, Alpha: 1, C: 0.5}
	n, loss := law.Curve(10, 1000, 3)
	if len(n) != 3 || len(loss) != 3 {
		t.Fatalf("Curve(10, 1000, 3) gave %d and %d values; want 3", len(n), len(loss))
	}
	for i, want := range []float64{10, 100, 1000} {
		if math.Abs(n[i]-want) > 1e-9*want || loss[i] != law.Loss(n[i]) {
			t.Errorf("Curve(10, 1000, 3)[%d] = (%v, %v); want (%v, %v)", i, n[i], loss[i], want, law.Loss(want))
		}
	}
	for _, bad := range []struct {
		lo, hi float64
		points int
	}{{10, 1000, 1}, {0, 1000, 5}, {1000, 10, 5}, {-1, 10, 5}, {1, math.Inf(1), 5}, {math.NaN(), 10, 5}} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "scaling: Curve") {
					t.Errorf("Curve(%v, %v, %d): panic %v; want a scaling: Curve panic", bad.lo, bad.hi, bad.points, r)
				}
			}()
			law.Curve(bad.lo, bad.hi, bad.points)
		}()
	}
}
