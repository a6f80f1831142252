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
	ok := false
	switch want {
	case "right":
		ok = r.OK && !r.Blank
	case "blank":
		ok = r.Blank && !r.OK && r.Note != "" && (hint == "" || !strings.Contains(r.Note, hint))
	case "wrong":
		ok = !r.OK && !r.Blank && strings.Contains(r.Note, hint)
	default:
		t.Fatalf("nb01Expect: want %q: use right, blank or wrong", want)
	}
	if !ok || r.Label == "" || !strings.HasPrefix(r.String(), r.Label+": ") {
		t.Errorf("%s: got %q (OK %v, Blank %v); want %s (hint %q)", what, r.String(), r.OK, r.Blank, want, hint)
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

func TestNb01Format(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 8889: "8.889", 6400000: "6.400.000", -1234: "-1.234"} {
		if got := nb01Int(n); got != want {
			t.Errorf("nb01Int(%d) = %q; want %q", n, got, want)
		}
	}
	if got := nb01Dec("%.1f", 26.84); got != "26,8" {
		t.Errorf(`nb01Dec("%%.1f", 26.84) = %q; want "26,8"`, got)
	}
}
