package exercises

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/facts"
)

// nb01Expect checks a checker's verdict: "right" (OK), "blank" (Blank, not
// OK) or "wrong" (neither, with hint in its note). The blank note must differ
// from every wrong one, which the callers pass as hint.
func nb01Expect(t *testing.T, what string, r Result, want, hint string) {
	t.Helper()
	switch want {
	case "right":
		expect(t, what, r, true, false, "")
	case "blank":
		expect(t, what, r, false, true, "")
		if hint != "" && strings.Contains(r.Note, hint) {
			t.Errorf("%s: the blank answer's note %q repeats the wrong answer's hint %q", what, r.Note, hint)
		}
	case "wrong":
		expect(t, what, r, false, false, hint)
	default:
		t.Fatalf("nb01Expect: want %q: use right, blank or wrong", want)
	}
}

// nb01Price is the reference solution's precio(): the notebook's lookup.
func nb01Price(year int) float64 {
	for _, p := range facts.StorageCost() {
		if p.Real() && p.Medium == "solid-state drive" && p.Year == year {
			return p.PriceUSDPerGB
		}
	}
	return 0
}

func TestSSDPriceDrop(t *testing.T) {
	a, b := nb01Price(2013), nb01Price(2023)
	if a == 0 || b == 0 {
		t.Fatalf("facts has no SSD price of 2013 (%g) or 2023 (%g) in 2020 dollars", a, b)
	}
	nb01Expect(t, "reference", SSDPriceDrop(a/b), "right", "")
	nb01Expect(t, "rounded", SSDPriceDrop(27), "right", "")
	nb01Expect(t, "inverted", SSDPriceDrop(b/a), "wrong", "al revés")
	nb01Expect(t, "difference", SSDPriceDrop(a-b), "wrong", "cociente")
	nb01Expect(t, "other", SSDPriceDrop(10), "wrong", "Divide")
	nb01Expect(t, "blank", SSDPriceDrop(0), "blank", "al revés")
}

func ExampleSSDPriceDrop() {
	fmt.Println(SSDPriceDrop(0))
	fmt.Println(SSDPriceDrop(0.04))
	// Output:
	// Ejercicio 1: aún sin respuesta. Escribe en respuesta el cociente entre el precio del GB de SSD en 2013 y en 2023; precio("solid-state drive", año) da cada uno.
	// Ejercicio 1: todavía no. Pista: has dividido al revés: el precio de 2013 va en el numerador (la respuesta es mayor que 1).
}
