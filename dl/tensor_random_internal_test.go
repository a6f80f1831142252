package dl

import (
	"math"
	"testing"
)

func TestPortableLog(t *testing.T) {
	g := NewGenerator(11)
	xs := make([]float64, 10000)
	g.uniform(xs)
	xs = append(xs, 1, 0.5, 0x1p-1022, 1-0x1p-53, math.Sqrt2/2)
	for _, x := range xs {
		if x == 0 {
			continue
		}
		got, want := portableLog(x), math.Log(x)
		if math.Abs(got-want) > 2e-16*math.Max(1, math.Abs(want)) {
			t.Errorf("portableLog(%v) = %v; math.Log gives %v", x, got, want)
		}
	}
}

func TestPortableLogSubnormal(t *testing.T) {
	// log(2^-1074) = -1074·ln 2 (math.Log on amd64 is wrong here).
	if got, want := portableLog(math.SmallestNonzeroFloat64), -1074*math.Ln2; math.Abs(got-want) > 1e-12 {
		t.Errorf("portableLog(2^-1074) = %v; want %v", got, want)
	}
}
