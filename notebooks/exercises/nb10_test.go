package exercises

import (
	"fmt"
	"testing"
)

func TestZeRO2BytesPerParam(t *testing.T) {
	expect(t, "ZeRO2BytesPerParam(3.75)", ZeRO2BytesPerParam(3.75), true, false, "3,75 bytes")
	expect(t, "ZeRO2BytesPerParam(5.5)", ZeRO2BytesPerParam(5.5), false, false, "ZeRO-1")
	expect(t, "ZeRO2BytesPerParam(2)", ZeRO2BytesPerParam(2), false, false, "ZeRO-3")
	expect(t, "ZeRO2BytesPerParam(16)", ZeRO2BytesPerParam(16), false, false, "DDP")
	expect(t, "ZeRO2BytesPerParam(3)", ZeRO2BytesPerParam(3), false, false, "tabla de etapas")
	expect(t, "ZeRO2BytesPerParam(0)", ZeRO2BytesPerParam(0), false, true, "bytesPorParametro")
}

func TestZeRO3TrafficGB(t *testing.T) {
	expect(t, "ZeRO3TrafficGB(36.75)", ZeRO3TrafficGB(36.75), true, false, "36,75 GB")
	expect(t, "ZeRO3TrafficGB(36.75e9)", ZeRO3TrafficGB(36.75e9), false, false, "en bytes")
	expect(t, "ZeRO3TrafficGB(24.5)", ZeRO3TrafficGB(24.5), false, false, "DDP")
	expect(t, "ZeRO3TrafficGB(42)", ZeRO3TrafficGB(42), false, false, "(N−1)/N")
	expect(t, "ZeRO3TrafficGB(73.5)", ZeRO3TrafficGB(73.5), false, false, "BF16")
	expect(t, "ZeRO3TrafficGB(10)", ZeRO3TrafficGB(10), false, false, "cuaderno 08")
	expect(t, "ZeRO3TrafficGB(0)", ZeRO3TrafficGB(0), false, true, "gbPorGPU")
}

func TestPaper1F1B(t *testing.T) {
	expect(t, `Paper1F1B("1806.03377")`, Paper1F1B("1806.03377"), true, false, "PipeDream")
	expect(t, `Paper1F1B(" 1806.03377 ")`, Paper1F1B(" 1806.03377 "), true, false, "PipeDream")
	expect(t, `Paper1F1B("2104.04473")`, Paper1F1B("2104.04473"), false, false, "intercalado")
	expect(t, `Paper1F1B("1910.02054")`, Paper1F1B("1910.02054"), false, false, "otra cosa")
	expect(t, `Paper1F1B("arXiv:1806.03377")`, Paper1F1B("arXiv:1806.03377"), false, false, "sin «arXiv:»")
	expect(t, `Paper1F1B("1234.5678")`, Paper1F1B("1234.5678"), false, false, "ningún artículo")
	expect(t, `Paper1F1B("")`, Paper1F1B(""), false, true, "arxiv1F1B")
}

// refZeROMemory is the reference solution of notebook 10's exercise 4.
func refZeROMemory(psi float64, n, stage int) float64 {
	weights, grads, opt := 2*psi, 2*psi, 12*psi
	if stage >= 1 {
		opt /= float64(n)
	}
	if stage >= 2 {
		grads /= float64(n)
	}
	if stage >= 3 {
		weights /= float64(n)
	}
	return weights + grads + opt
}

func TestZeROMemory(t *testing.T) {
	for _, c := range []struct {
		name    string
		f       func(psi float64, n, stage int) float64
		ok      bool
		isBlank bool
		hint    string
	}{
		{"reference", refZeROMemory, true, false, "Llama 3 70B"},
		{"GB", func(psi float64, n, stage int) float64 { return refZeROMemory(psi, n, stage) / 1e9 }, false, false, "en GB"},
		{"stage 2 shards weights", func(psi float64, n, stage int) float64 {
			if stage == 2 {
				return 16 * psi / float64(n)
			}
			return refZeROMemory(psi, n, stage)
		}, false, false, "no los pesos"},
		{"no sharding", func(psi float64, n, stage int) float64 { return 16 * psi }, false, false, "la etapa 1 reparte"},
		{"panics", func(psi float64, n, stage int) float64 { return []float64{16}[stage] * psi }, false, false, "pánico"},
		{"blank", func(float64, int, int) float64 { return 0 }, false, true, "memoriaZeRO"},
		{"nil", nil, false, true, "memoriaZeRO"},
	} {
		t.Run(c.name, func(t *testing.T) {
			expect(t, "ZeROMemory", ZeROMemory(c.f), c.ok, c.isBlank, c.hint)
		})
	}
}

func ExampleZeRO2BytesPerParam() {
	fmt.Println(ZeRO2BytesPerParam(5.5))
	fmt.Println(ZeRO2BytesPerParam(3.75))
	// Output:
	// Ejercicio 1: todavía no. Pista: eso es ZeRO-1: la etapa 2 reparte también los gradientes.
	// Ejercicio 1: correcto, 3,75 bytes por parámetro (16 sin ZeRO).
}
