package facts

import (
	"fmt"
	"strings"
)

// ScalingLawParam is one row of scaling_laws.csv (long format): one constant
// of a published scaling law, e.g. Paper "Kaplan et al. 2020, ...", Law
// "L(N)=(N_c/N)^alpha_N", Parameter "alpha_N", ValueNum 0.076. ValueNum is
// NaN when Value is a formula or text.
type ScalingLawParam struct {
	Paper     string
	Law       string
	Parameter string
	Value     string
	ValueNum  float64
	Unit      string
	Citation  // Source, Status, Note
}

var scalingParams lazy[ScalingLawParam]

// ScalingLaws returns every row of scaling_laws.csv, in file order.
func ScalingLaws() []ScalingLawParam {
	return loadRows(&scalingParams, "scaling_laws.csv", func(r row) ScalingLawParam {
		return ScalingLawParam{Paper: r.str("paper"), Law: r.str("law"), Parameter: r.str("parameter"),
			Value: r.str("value"), ValueNum: r.num("value_num"), Unit: r.str("unit"),
			Citation: r.cite()}
	})
}

// paramSet reads named constants of one law, remembering the rows used.
type paramSet struct {
	rows []ScalingLawParam
	used []ScalingLawParam
}

// get returns the constant whose paper starts with author, whose law starts
// with law and whose parameter is param. The embedded data is fixed, so a
// missing constant is a broken copy and panics.
func (ps *paramSet) get(author, law, param string) float64 {
	for _, p := range ps.rows {
		if strings.HasPrefix(p.Paper, author) && strings.HasPrefix(p.Law, law) && p.Parameter == param {
			ps.used = append(ps.used, p)
			return p.ValueNum
		}
	}
	panic(fmt.Errorf("facts: scaling_laws.csv has no %s / %s / %s", author, law, param))
}

// Rule returns the rows of one paper whose law starts with law (for example
// "Rule of thumb" or "Compute-optimal allocation"), in file order.
func Rule(paperPrefix, lawPrefix string) []ScalingLawParam {
	var out []ScalingLawParam
	for _, p := range ScalingLaws() {
		if strings.HasPrefix(p.Paper, paperPrefix) && strings.HasPrefix(p.Law, lawPrefix) {
			out = append(out, p)
		}
	}
	return out
}
