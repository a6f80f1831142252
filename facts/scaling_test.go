package facts

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

func near(got, want, rel float64) bool { return math.Abs(got-want) <= rel*math.Abs(want) }

func TestKaplanConstants(t *testing.T) {
	k := Kaplan()
	got := []float64{k.AlphaN, k.NC, k.AlphaD, k.DC, k.AlphaC, k.CC, k.AlphaCMin, k.CCMin, k.PN, k.NE, k.PD, k.DE}
	want := []float64{0.076, 8.8e13, 0.095, 5.4e13, 0.057, 1.6e7, 0.050, 3.1e8, 0.73, 1.3e9, 0.27, 2e10}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Kaplan constant %d = %v; want %v", i, got[i], want[i])
		}
	}
	if len(k.Params) != len(want) {
		t.Errorf("Kaplan().Params has %d rows; want %d (one per constant)", len(k.Params), len(want))
	}
	// The paper: doubling N lowers the loss by a factor 2^-0.076 = 0.95.
	if r := k.LossN(2e9) / k.LossN(1e9); !near(r, 0.9487, 1e-3) {
		t.Errorf("L(2N)/L(N) = %v; want 2^-0.076 = 0.9487", r)
	}
	if l := k.LossN(k.NC); l != 1 {
		t.Errorf("L(N_c) = %v; want 1", l)
	}
}

func TestKaplanParam(t *testing.T) {
	k := Kaplan()
	for name, want := range map[string]float64{"alpha_N": k.AlphaN, "alpha_D": k.AlphaD, "D_c": k.DC, "N_e": k.NE} {
		p, err := k.Param(name)
		if err != nil || p.ValueNum != want || p.Source == "" {
			t.Errorf("Kaplan().Param(%q) = %v (source %q), %v; want the row of %v", name, p.ValueNum, p.Source, err, want)
		}
	}
	if _, err := k.Param("alpha_X"); err == nil || !strings.Contains(err.Error(), "alpha_N") {
		t.Errorf("Kaplan().Param(\"alpha_X\") error = %v; want one listing the known names", err)
	}
}

// parsePair reads "3.22e+10 / 2.98e+12 (tokens/param 92.6)".
func parsePair(t *testing.T, s string) (float64, float64) {
	a, rest, _ := strings.Cut(s, " / ")
	b, _, _ := strings.Cut(rest, " ")
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("cannot parse %q", s)
	}
	return x, y
}

func TestChinchillaOptimumMatchesDerivedRows(t *testing.T) {
	const budget = 5.76e23 // Chinchilla's training compute
	fits := map[string]ParametricLoss{"Hoffmann fit, rounded": Chinchilla(), "Besiroglu re-fit": ChinchillaRefit()}
	for key, fit := range fits {
		var row ScalingLawParam
		for _, p := range Rule("", "Closed-form optimum") {
			if strings.Contains(p.Parameter, key) {
				row = p
			}
		}
		if row.Value == "" {
			t.Fatalf("no closed-form row for %q", key)
		}
		wantN, wantD := parsePair(t, row.Value)
		n, d := fit.Optimal(budget)
		if !near(n, wantN, 0.005) || !near(d, wantD, 0.005) {
			t.Errorf("%s.Optimal(%g) = N %.3g, D %.3g; the derived row says %s", fit.Name, budget, n, d, row.Value)
		}
		if !near(6*n*d, budget, 1e-9) {
			t.Errorf("%s: 6·N·D = %g; want the budget %g", fit.Name, 6*n*d, budget)
		}
	}
	c := Chinchilla()
	if c.E != 1.69 || c.A != 406.4 || c.B != 410.7 || c.Alpha != 0.34 || c.Beta != 0.28 {
		t.Errorf("Chinchilla() = %+v; want E=1.69 A=406.4 B=410.7 α=0.34 β=0.28", c)
	}
}

func TestChinchillaTable3IsSixND(t *testing.T) {
	rows := ChinchillaTable3()
	if len(rows) != 9 {
		t.Fatalf("Table 3 has %d rows; want 9 (400M … 10T)", len(rows))
	}
	if rows[0].Params != 400e6 || rows[0].FLOPs != 1.92e19 || rows[0].Tokens != 8e9 {
		t.Errorf("Table 3 first row = %+v; want 400M params, 1.92e19 FLOPs, 8.0e9 tokens", rows[0])
	}
	if rows[8].Params != 10e12 {
		t.Errorf("Table 3 last row = %g params; want 1e13", rows[8].Params)
	}
	for _, r := range rows {
		// The table's FLOPs are C = 6·N·D to about 1%, except the 67B row:
		// 6 × 67e9 × 1.5e12 = 6.03e23 against the table's 5.76e23 (4.7%),
		// because the paper rounds its tokens to 1.5T.
		tol := 0.01
		if r.Params == 67e9 {
			tol = 0.05
		}
		if !near(6*r.Params*r.Tokens, r.FLOPs, tol) {
			t.Errorf("Table 3, %g params: 6·N·D = %.3g; table says %.3g", r.Params, 6*r.Params*r.Tokens, r.FLOPs)
		}
	}
}

func TestGrowthRates(t *testing.T) {
	var openAI, epoch GrowthRate
	for _, g := range ComputeGrowthRates() {
		if g.SourceOrg == "OpenAI" && strings.HasPrefix(g.Metric, "Doubling time") {
			openAI = g
		}
		if g.Period == "2010-May 2024" {
			epoch = g
		}
	}
	if lo, hi, ok := openAI.DoublingRange(); !ok || lo != 3.4 || hi != 3.4 {
		t.Errorf("OpenAI doubling = %v-%v (%v); want 3.4 months", lo, hi, ok)
	}
	if lo, hi, ok := epoch.GrowthRange(); !ok || lo != 4 || hi != 5 {
		t.Errorf("Epoch 2010-May 2024 growth = %v-%v (%v); want 4-5×/year", lo, hi, ok)
	}
}

func TestComputeTrendsKnownValues(t *testing.T) {
	for _, m := range ComputeTrends() {
		if !near(math.Log10(m.TrainingComputeFLOP), m.Log10Compute, 0.002) {
			t.Errorf("%s: log10(%g) != %v", m.Model, m.TrainingComputeFLOP, m.Log10Compute)
		}
		if m.Model == "GPT-4" && !m.Speculative() {
			t.Errorf("GPT-4 confidence %q; Epoch rates closed-model estimates speculative", m.EpochConfidence)
		}
	}
}
