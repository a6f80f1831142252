package facts

import (
	"math"
	"strconv"
	"strings"
)

// ParametricLoss is the loss model of Hoffmann et al. 2022 ("Chinchilla"),
// L(N, D) = E + A/N^Alpha + B/D^Beta, for N parameters and D training tokens,
// in nats/token.
type ParametricLoss struct {
	Name                 string // "Hoffmann et al. 2022" or "Besiroglu et al. 2024"
	E, A, B, Alpha, Beta float64
	Params               []ScalingLawParam
}

// Chinchilla returns Hoffmann et al.'s Approach 3 fit (E=1.69, A=406.4,
// B=410.7, α=0.34, β=0.28), with the rows it comes from.
func Chinchilla() ParametricLoss {
	return parametric("Hoffmann et al. 2022", "Hoffmann", "L(N,D)=E+A/N^alpha+B/D^beta")
}

// ChinchillaRefit returns the re-fit of the same model by Besiroglu et al.
// 2024 on data extracted from Hoffmann et al.'s figures.
func ChinchillaRefit() ParametricLoss {
	return parametric("Besiroglu et al. 2024", "Besiroglu", "Re-fit of L(N,D)")
}

func parametric(name, author, law string) ParametricLoss {
	ps := paramSet{rows: ScalingLaws()}
	p := ParametricLoss{Name: name,
		E: ps.get(author, law, "E"), A: ps.get(author, law, "A"), B: ps.get(author, law, "B"),
		Alpha: ps.get(author, law, "alpha"), Beta: ps.get(author, law, "beta")}
	p.Params = ps.used
	return p
}

// Loss is E + A/N^Alpha + B/D^Beta.
func (p ParametricLoss) Loss(n, d float64) float64 {
	return p.E + p.A/math.Pow(n, p.Alpha) + p.B/math.Pow(d, p.Beta)
}

// Optimal returns the N and D that minimise Loss under the budget
// C = 6·N·D FLOP: N = G·(C/6)^a, D = (C/6)^b / G with
// G = (αA/(βB))^(1/(α+β)), a = β/(α+β), b = α/(α+β) (Hoffmann et al., eq. 4).
func (p ParametricLoss) Optimal(flop float64) (n, d float64) {
	g := math.Pow(p.Alpha*p.A/(p.Beta*p.B), 1/(p.Alpha+p.Beta))
	a := p.Beta / (p.Alpha + p.Beta)
	b := p.Alpha / (p.Alpha + p.Beta)
	return g * math.Pow(flop/6, a), math.Pow(flop/6, b) / g
}

// ComputeOptimalPoint is one row pair of Hoffmann et al.'s Table 3
// (Approach 1): a model size with its compute-optimal FLOPs and tokens.
type ComputeOptimalPoint struct {
	Params, FLOPs, Tokens float64
	Rows                  []ScalingLawParam
}

// ChinchillaTable3 returns Hoffmann et al.'s Table 3, from 400M to 10T
// parameters.
func ChinchillaTable3() []ComputeOptimalPoint {
	var out []ComputeOptimalPoint
	index := map[string]int{}
	for _, p := range Rule("Hoffmann", "Compute-optimal allocation (Table 3") {
		size, what, ok := strings.Cut(p.Parameter, " params: ")
		if !ok {
			continue
		}
		i, seen := index[size]
		if !seen {
			i = len(out)
			index[size] = i
			out = append(out, ComputeOptimalPoint{Params: parseSize(size)})
		}
		switch what {
		case "FLOPs":
			out[i].FLOPs = p.ValueNum
		case "tokens":
			out[i].Tokens = p.ValueNum
		}
		out[i].Rows = append(out[i].Rows, p)
	}
	return out
}

// parseSize reads "400M", "10B", "1T" as a number.
func parseSize(s string) float64 {
	mult := map[byte]float64{'M': 1e6, 'B': 1e9, 'T': 1e12}[s[len(s)-1]]
	v, err := strconv.ParseFloat(s[:len(s)-1], 64)
	if err != nil || mult == 0 {
		return math.NaN()
	}
	return v * mult
}
