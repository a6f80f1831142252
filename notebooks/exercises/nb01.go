package exercises

import (
	"github.com/dlbd/dlbd/facts"
)

// SSDPriceDrop checks exercise 1 of 01-big-data: how many times cheaper a GB
// of SSD was in 2023 than in 2013, the first year of the series, in constant
// 2020 dollars (the cheapest price of facts.StorageCost in each year). A
// blank answer is 0; within 10 % is right.
func SSDPriceDrop(times float64) Result {
	const label = "Ejercicio 1"
	if times == 0 {
		return blank(label, `Escribe en respuesta el cociente entre el precio del GB de SSD en 2013 y en 2023; precio("solid-state drive", año) da cada uno.`)
	}
	first, last := nb01SSDPrices()
	want := first / last
	switch {
	case within(times, want, 0.1):
		return correct(label, "×%s (%s US$/GB en 2013, %s en 2023, dólares de 2020).", decimal("%.1f", want), decimal("%.3g", first), decimal("%.3g", last))
	case within(times, 1/want, 0.1):
		return wrong(label, "has dividido al revés: el precio de 2013 va en el numerador (la respuesta es mayor que 1).")
	case within(times, first-last, 0.1):
		return wrong(label, "eso es la diferencia de precios en US$/GB; «cuántas veces más barato» es un cociente.")
	}
	return wrong(label, `no es %s. Divide precio("solid-state drive", 2013).PriceUSDPerGB entre el de 2023 (dólares de 2020, los de precio()).`, decimal("%g", times))
}

// nb01SSDPrices returns the SSD prices in constant dollars of 2013 and 2023
// (0 where facts has none: the test checks that it has both).
func nb01SSDPrices() (y2013, y2023 float64) {
	for _, p := range facts.StorageCost() {
		if p.Real() && p.Medium == "solid-state drive" {
			switch p.Year {
			case 2013:
				y2013 = p.PriceUSDPerGB
			case 2023:
				y2023 = p.PriceUSDPerGB
			}
		}
	}
	return y2013, y2023
}
