package scaling

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/optimize"
)

// PowerLaw is a saturating power law L(N) = A·N^(−Alpha) + C: the
// reducible part A·N^(−Alpha) falls by the factor 2^(−Alpha) each time N
// doubles, and C is the loss no size can remove (noise, or what the
// training recipe cannot reach).
//
// Course: "Leyes de escala (Scaling Laws)".
// Paper: Kaplan et al. 2020 (arXiv:2001.08361) fit L(N) = (N_c/N)^α_N, the
// special case C = 0, A = N_c^α_N; Hoffmann et al. 2022 (arXiv:2203.15556)
// add the constant E, as here.
type PowerLaw struct {
	A     float64 // scale of the reducible loss (A > 0)
	Alpha float64 // exponent α: the slope of L − C against N on log-log axes
	C     float64 // irreducible loss (C ≥ 0)
}

// Loss returns A·N^(−Alpha) + C.
func (p PowerLaw) Loss(n float64) float64 { return p.A*math.Pow(n, -p.Alpha) + p.C }

// Curve samples the law for a chart: points values of N spaced evenly on a
// logarithmic scale from lo to hi (both included), and the loss at each. It
// panics if points < 2 or lo and hi are not positive and finite with lo < hi:
// a chart that cannot be drawn is a mistake in the code that calls it.
func (p PowerLaw) Curve(lo, hi float64, points int) (n, loss []float64) {
	if points < 2 || !(lo > 0 && lo < hi && !math.IsInf(hi, 1)) {
		panic(fmt.Sprintf("scaling: Curve(%g, %g, %d): want 0 < lo < hi and at least 2 points", lo, hi, points))
	}
	n, loss = make([]float64, points), make([]float64, points)
	for i := range points {
		n[i] = lo * math.Pow(hi/lo, float64(i)/float64(points-1))
		loss[i] = p.Loss(n[i])
	}
	return n, loss
}

// String formats the law as "L(N) = 2.1·N^(−0.52) + 0.013".
func (p PowerLaw) String() string {
	return fmt.Sprintf("L(N) = %.3g·N^(−%.3g) + %.3g", p.A, p.Alpha, p.C)
}

// MinPoints is the number of points FitPowerLaw needs: one more than the
// law's three parameters, so that a fit is not merely an interpolation.
const MinPoints = 4

// ErrFit is wrapped by every error FitPowerLaw returns.
var ErrFit = errors.New("scaling: cannot fit power law")

// FitPowerLaw fits L(N) = A·N^(−α) + C to the points (n[i], loss[i]) by
// least squares on the logarithm of the loss,
//
//	minimise Σᵢ (log(A·nᵢ^(−α) + C) − log lossᵢ)²,
//
// so that every point counts by its relative error: losses spanning
// several decades would otherwise be fitted only at the small-N end, where
// they are largest. A = e^u and C = e^v are kept positive by fitting u and
// v; α is free. The minimiser is gonum's BFGS with the analytic gradient,
// started from several values of C below min(loss) (for each, A and α come
// from a straight line through log(loss − C) against log N); the best of
// these local fits is returned.
//
// It returns an error wrapping ErrFit when n and loss differ in length,
// when there are fewer than MinPoints points or fewer than 3 distinct
// sizes, when a value is not positive and finite (a log-log fit needs
// N > 0 and L > 0), or when no start converges.
func FitPowerLaw(n, loss []float64) (PowerLaw, error) {
	if err := checkPoints(n, loss); err != nil {
		return PowerLaw{}, err
	}
	logN, logL := make([]float64, len(n)), make([]float64, len(n))
	for i := range n {
		logN[i], logL[i] = math.Log(n[i]), math.Log(loss[i])
	}
	prob := optimize.Problem{
		Func: func(x []float64) float64 { return logResiduals(x, logN, logL, nil) },
		Grad: func(g, x []float64) { logResiduals(x, logN, logL, g) },
	}
	minL := slices.Min(loss)
	best, bestF, lastErr := []float64(nil), math.Inf(1), error(nil)
	// Starts for C: almost none of the loss is irreducible, about half of
	// the smallest loss, and most of it.
	for _, frac := range []float64{1e-3, 0.5, 0.9} {
		x0 := startAt(frac*minL, n, loss)
		res, err := optimize.Minimize(prob, x0, &optimize.Settings{MajorIterations: 2000, GradientThreshold: 1e-12}, &optimize.BFGS{})
		// Near the minimum BFGS's line search can fail to make progress in
		// floating point and Minimize returns an error with the location
		// reached; keep that location when it is a real point.
		if err != nil {
			lastErr = err
		}
		if res != nil && res.F < bestF && isFinite(res.X...) {
			best, bestF = res.X, res.F
		}
	}
	if best == nil {
		return PowerLaw{}, fmt.Errorf("%w: no start converged: %v", ErrFit, lastErr)
	}
	return PowerLaw{A: math.Exp(best[0]), Alpha: best[1], C: math.Exp(best[2])}, nil
}

// isFinite reports whether no value is NaN or infinite.
func isFinite(v ...float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// checkPoints validates FitPowerLaw's input.
func checkPoints(n, loss []float64) error {
	if len(n) != len(loss) {
		return fmt.Errorf("%w: %d sizes but %d losses; pass one loss per size", ErrFit, len(n), len(loss))
	}
	if len(n) < MinPoints {
		return fmt.Errorf("%w: %d points; need at least %d for 3 parameters", ErrFit, len(n), MinPoints)
	}
	for i := range n {
		if !(n[i] > 0 && loss[i] > 0) || math.IsInf(n[i], 0) || math.IsInf(loss[i], 0) {
			return fmt.Errorf("%w: point %d is (N=%g, L=%g); sizes and losses must be positive and finite", ErrFit, i, n[i], loss[i])
		}
	}
	if distinct := len(slices.Compact(slices.Sorted(slices.Values(n)))); distinct < 3 {
		return fmt.Errorf("%w: only %d distinct sizes; need at least 3", ErrFit, distinct)
	}
	return nil
}

// startAt returns the starting point (log A, α, log C) for a given C: the
// least-squares line through (log N, log(L − C)), with points at or below
// C left out.
func startAt(c float64, n, loss []float64) []float64 {
	var sx, sy, sxx, sxy, k float64
	for i := range n {
		if d := loss[i] - c; d > 0 {
			x, y := math.Log(n[i]), math.Log(d)
			sx, sy, sxx, sxy, k = sx+x, sy+y, sxx+x*x, sxy+x*y, k+1
		}
	}
	slope, icept := 0.0, math.Log(slices.Min(loss))
	if den := k*sxx - sx*sx; k >= 2 && den > 0 {
		slope = (k*sxy - sx*sy) / den
		icept = (sy - slope*sx) / k
	}
	return []float64{icept, -slope, math.Log(c)}
}

// logResiduals returns Σ (log(A·N^(−α) + C) − log L)² at x = (log A, α,
// log C), and its gradient in g when g is not nil.
func logResiduals(x, logN, logL, g []float64) float64 {
	u, alpha, v := x[0], x[1], x[2]
	c := math.Exp(v)
	if g != nil {
		clear(g)
	}
	f := 0.0
	for i := range logN {
		t := math.Exp(u - alpha*logN[i]) // A·N^(−α)
		m := t + c
		r := math.Log(m) - logL[i]
		f += r * r
		if g != nil {
			// ∂log m/∂u = t/m, ∂/∂α = −log N·t/m, ∂/∂v = c/m.
			g[0] += 2 * r * t / m
			g[1] -= 2 * r * logN[i] * t / m
			g[2] += 2 * r * c / m
		}
	}
	return f
}
