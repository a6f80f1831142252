package exercises

import (
	"math"
	"testing"

	"github.com/dlbd/dlbd/dl/scaling"
	"github.com/dlbd/dlbd/facts"
)

func TestKaplanDataFactor(t *testing.T) {
	k := facts.Kaplan()
	reference := math.Pow(0.9, -1/k.AlphaD)
	nb01Expect(t, "reference", KaplanDataFactor(reference), "right", "")
	nb01Expect(t, "rounded", KaplanDataFactor(3), "right", "")
	nb01Expect(t, "α_N", KaplanDataFactor(math.Pow(0.9, -1/k.AlphaN)), "wrong", "factor de los parámetros")
	nb01Expect(t, "inverse", KaplanDataFactor(1/reference), "wrong", "mayor que 1")
	nb01Expect(t, "1.1", KaplanDataFactor(math.Pow(1.1, 1/k.AlphaD)), "wrong", "no dividirla entre 1,1")
	nb01Expect(t, "other", KaplanDataFactor(10), "wrong", "Despeja k")
	nb01Expect(t, "blank", KaplanDataFactor(0), "blank", "factor de los parámetros")
}

// nb02BarridoDatos is the reference solution of exercise 2, as a student
// writes it in the notebook (there with kernel.Must).
func nb02BarridoDatos(base scaling.ExperimentConfig, tamanos []int) []float64 {
	var perdidas []float64
	for _, d := range tamanos {
		cfg := base
		cfg.Samples = d
		res, err := scaling.Run(cfg)
		if err != nil {
			panic(err)
		}
		perdidas = append(perdidas, res.Points[0].TestLoss)
	}
	return perdidas
}

func TestDataSizeSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("trains some 60 small students (seconds)")
	}
	nb01Expect(t, "reference", DataSizeSweep(nb02BarridoDatos), "right", "")
	train := func(base scaling.ExperimentConfig, tamanos []int) []float64 {
		var perdidas []float64
		for _, d := range tamanos {
			cfg := base
			cfg.Samples = d
			res, _ := scaling.Run(cfg)
			perdidas = append(perdidas, res.Points[0].TrainLoss)
		}
		return perdidas
	}
	nb01Expect(t, "train loss", DataSizeSweep(train), "wrong", "pérdidas de entrenamiento")
	unchanged := func(base scaling.ExperimentConfig, tamanos []int) []float64 {
		var perdidas []float64
		for range tamanos {
			res, _ := scaling.Run(base)
			perdidas = append(perdidas, res.Points[0].TestLoss)
		}
		return perdidas
	}
	nb01Expect(t, "Samples unchanged", DataSizeSweep(unchanged), "wrong", "cambias Samples")
	reversed := func(base scaling.ExperimentConfig, tamanos []int) []float64 {
		p := nb02BarridoDatos(base, tamanos)
		for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
			p[i], p[j] = p[j], p[i]
		}
		return p
	}
	nb01Expect(t, "reversed", DataSizeSweep(reversed), "wrong", "al revés")
	otherSteps := func(base scaling.ExperimentConfig, tamanos []int) []float64 {
		base.Steps /= 2
		return nb02BarridoDatos(base, tamanos)
	}
	nb01Expect(t, "other steps", DataSizeSweep(otherSteps), "wrong", "sin cambiar nada más que Samples")
	short := func(base scaling.ExperimentConfig, tamanos []int) []float64 {
		return nb02BarridoDatos(base, tamanos[:2])
	}
	nb01Expect(t, "too few", DataSizeSweep(short), "wrong", "una por tamaño")
	panics := func(base scaling.ExperimentConfig, tamanos []int) []float64 {
		res, _ := scaling.Run(scaling.ExperimentConfig{Widths: []int{}})
		return []float64{res.Points[0].TestLoss}
	}
	nb01Expect(t, "panics", DataSizeSweep(panics), "wrong", "pánico")
	nb01Expect(t, "blank", DataSizeSweep(func(scaling.ExperimentConfig, []int) []float64 { return nil }), "blank", "pánico")
	nb01Expect(t, "nil", DataSizeSweep(nil), "blank", "pánico")
}
