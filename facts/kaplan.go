package facts

import (
	"fmt"
	"math"
	"strings"
)

// PFDay is one petaflop/s-day in FLOP (1e15 FLOP/s × 86,400 s), Kaplan et
// al.'s unit of compute.
const PFDay = 8.64e19

// KaplanLaws holds the power laws of Kaplan et al. 2020 ("Scaling Laws for
// Neural Language Models", Tables 5 and 6): test loss in nats/token as a
// function of non-embedding parameters N, dataset tokens D and compute.
// Compute constants are in PF-days (see PFDay).
type KaplanLaws struct {
	AlphaN, NC       float64 // L(N) = (NC/N)^AlphaN, models trained to convergence
	AlphaD, DC       float64 // L(D) = (DC/D)^AlphaD, large models, early stopping
	AlphaC, CC       float64 // L(C) = (CC/C)^AlphaC, naive fixed-batch training
	AlphaCMin, CCMin float64 // L(Cmin) = (CCMin/Cmin)^AlphaCMin, compute-efficient frontier
	PN, NE           float64 // Nopt = NE · Cmin^PN (Cmin in PF-days)
	PD, DE           float64 // Dopt = DE · Cmin^PD (one epoch)
	Params           []ScalingLawParam
}

// Kaplan returns Kaplan et al.'s constants, with the rows they come from.
func Kaplan() KaplanLaws {
	ps := paramSet{rows: ScalingLaws()}
	const k = "Kaplan"
	t6 := "Compute-efficient frontier (Table 6)"
	law := KaplanLaws{
		AlphaN: ps.get(k, "L(N)=", "alpha_N"), NC: ps.get(k, "L(N)=", "N_c"),
		AlphaD: ps.get(k, "L(D)=", "alpha_D"), DC: ps.get(k, "L(D)=", "D_c"),
		AlphaC: ps.get(k, "L(C)=", "alpha_C"), CC: ps.get(k, "L(C)=", "C_c"),
		AlphaCMin: ps.get(k, "L(C_min)=", "alpha_C_min"), CCMin: ps.get(k, "L(C_min)=", "C_c_min"),
		PN: ps.get(k, t6, "p_N (N_opt = N_e*C_min^p_N)"), NE: ps.get(k, t6, "N_e"),
		PD: ps.get(k, t6, "p_D (D_opt = D_e*C_min^p_D, 1 epoch)"), DE: ps.get(k, t6, "D_e"),
	}
	law.Params = ps.used
	return law
}

// Param returns the row of scaling_laws.csv that constant name comes from
// ("alpha_N", "D_c", …: the Parameter column), with its source and status.
// It returns an error listing the names there are when none has that name.
func (k KaplanLaws) Param(name string) (ScalingLawParam, error) {
	names := make([]string, len(k.Params))
	for i, p := range k.Params {
		if p.Parameter == name {
			return p, nil
		}
		names[i] = p.Parameter
	}
	return ScalingLawParam{}, fmt.Errorf("facts: Kaplan et al. have no constant %q (known: %s)", name, strings.Join(names, "; "))
}

// LossN is L(N) = (NC/N)^AlphaN, in nats/token.
func (k KaplanLaws) LossN(n float64) float64 { return math.Pow(k.NC/n, k.AlphaN) }

// LossD is L(D) = (DC/D)^AlphaD, in nats/token.
func (k KaplanLaws) LossD(d float64) float64 { return math.Pow(k.DC/d, k.AlphaD) }

// LossCMin is L(Cmin) = (CCMin/Cmin)^AlphaCMin for Cmin in PF-days.
func (k KaplanLaws) LossCMin(pfDays float64) float64 {
	return math.Pow(k.CCMin/pfDays, k.AlphaCMin)
}

// OptimalParams is Kaplan's compute-efficient model size NE · Cmin^PN.
func (k KaplanLaws) OptimalParams(pfDays float64) float64 { return k.NE * math.Pow(pfDays, k.PN) }
