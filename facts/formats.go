package facts

import (
	"fmt"
	"strconv"
	"strings"
)

// Format is one row of formats.csv: a floating-point format's bit layout and
// limits. The limits were computed exactly from the layout.
type Format struct {
	Name           string // format column: "FP64", "FP32", "FP16", "BF16", "TF32", "FP8 E4M3", "FP8 E5M2"
	Aliases        string // "binary16, half", ...
	Origin         string
	TotalBits      int // storage bits (TF32: 19 significant bits in a 32-bit register)
	SignBits       int
	ExponentBits   int
	MantissaBits   int // explicit fraction bits
	ExponentBias   int
	MaxFinite      float64
	MinNormal      float64
	MinSubnormal   float64
	MachineEpsilon float64 // 2^-MantissaBits
	DecimalDigits  float64 // approximate decimal digits of precision
	HasInf         bool
	NaNEncoding    string
	Citation       // Source, Status, Note
}

var formats lazy[Format]

// Formats returns every row of formats.csv, in file order.
func Formats() []Format {
	return loadRows(&formats, "formats.csv", func(r row) Format {
		return Format{
			Name: r.str("format"), Aliases: r.str("aliases"), Origin: r.str("origin"),
			TotalBits: r.integer("total_bits"), SignBits: r.integer("sign_bits"),
			ExponentBits: r.integer("exponent_bits"), MantissaBits: r.integer("mantissa_bits"),
			ExponentBias: r.integer("exponent_bias"), MaxFinite: r.num("max_finite"),
			MinNormal: r.leadingNum("min_normal"), MinSubnormal: r.leadingNum("min_subnormal"),
			MachineEpsilon: r.leadingNum("machine_epsilon"), DecimalDigits: r.num("decimal_digits_approx"),
			HasInf: r.str("has_inf") == "yes", NaNEncoding: r.str("nan_encoding"),
			Citation: r.cite(),
		}
	})
}

// FormatByName finds a format by the words of its name or aliases, ignoring
// case: "BF16", "bfloat16", "half", "E4M3". A name matching several rows
// ("FP8") or none is an error listing the choices.
func FormatByName(name string) (Format, error) {
	return byName("format", name, Formats(), func(x Format) string { return x.Name + " " + x.Aliases })
}

// leadingNum parses the number before the first space ("6.103515625e-05 (2^-14)").
func (r row) leadingNum(col string) float64 {
	s, _, _ := strings.Cut(strings.TrimSpace(r.str(col)), " ")
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(fmt.Errorf("facts: %s line %d column %s: %q does not start with a number", r.t.file, r.line, col, r.str(col)))
	}
	return f
}
