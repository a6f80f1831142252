package plan

import (
	"fmt"
	"testing"
)

// BenchmarkTransformerActivations times nothing: it reports, as "MiB", the
// activation memory that Korthikanti et al.'s formula (ActivationsPerLayer,
// s·b·h·(34 + 5·a·s/h) bytes per layer at 16 bits, doubled for float32)
// gives for the model of dl/nn's BenchmarkTransformerStep (4 layers, batch
// 8), so that `make bench` can show the analytic size beside the peak that
// dl's memory accounting measures for that step.  bfloat16 is autocast's:
// 16-bit activations.
func BenchmarkTransformerActivations(b *testing.B) {
	for _, sz := range []struct{ d, h, t int }{{256, 4, 128}, {256, 4, 512}, {512, 8, 128}} {
		for _, dt := range []string{"float32", "bfloat16"} {
			b.Run(fmt.Sprintf("d=%d/h=%d/T=%d/dtype=%s", sz.d, sz.h, sz.t, dt), func(b *testing.B) {
				m := Model{Layers: 4, Hidden: sz.d, Heads: sz.h, SeqLen: sz.t, Vocab: 256, Biases: true, LearnedPositions: true}
				s := Strategy{MicroBatch: 8, Precision: MixedPrecisionAdam}
				if dt == "float32" {
					s.Precision = FP32Adam
				}
				bytes := ActivationsPerLayer(m, s) * float64(m.Layers)
				for b.Loop() {
				}
				b.ReportMetric(bytes/(1<<20), "MiB")
			})
		}
	}
}
