package nn

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/amp"
	"github.com/dlbd/dlbd/dl/dltest"
	"github.com/dlbd/dlbd/dl/optim"
)

// benchGPT is the GPT-style model of BenchmarkTransformerStep: token and
// learned position embeddings, Layers pre-LN Blocks (MLP 4d, no dropout),
// a final LayerNorm and a linear head over the vocabulary.  Its PyTorch
// twin is testdata/transformer_anchor.py's GPT.
type benchGPT struct {
	tok, pos *Embedding
	blocks   []*Block
	ln       *LayerNorm
	head     *Linear
	posIDs   *dl.Tensor // 0 … T-1
}

// The shapes every size of the benchmark shares: 4 blocks, batch 8, a
// byte-level vocabulary.
const (
	benchLayers = 4
	benchBatch  = 8
	benchVocab  = 256
)

// transformerSizes are the widths d, heads h and sequence lengths T of the
// benchmarks: the size of issue 19's measurement (d=256, T=128), a long
// sequence (T=512, where the T×T attention matrix dominates) and a wide
// model (d=512).
var transformerSizes = []struct{ d, h, t int }{{256, 4, 128}, {256, 4, 512}, {512, 8, 128}}

func newBenchGPT(d, h, t int) *benchGPT {
	ic := InitConfig{Generator: dl.NewGenerator(0)}
	m := &benchGPT{tok: NewEmbedding(benchVocab, d, ic), pos: NewEmbedding(t, d, ic), ln: NewLayerNorm(d, ic),
		head: NewLinear(d, benchVocab, LinearConfig{InitConfig: ic})}
	for range benchLayers {
		m.blocks = append(m.blocks, NewBlock(BlockConfig{InitConfig: ic, Dim: d, Heads: h}))
	}
	ids := make([]int64, t)
	for i := range ids {
		ids[i] = int64(i)
	}
	m.posIDs = dl.FromSlice(ids, t)
	return m
}

// forward returns the logits [B, T, V] of token ids [B, T].
func (m *benchGPT) forward(ids *dl.Tensor) *dl.Tensor {
	x := m.tok.Forward(ids).Add(m.pos.Forward(m.posIDs))
	for _, b := range m.blocks {
		x = b.Forward(x)
	}
	return m.head.Forward(m.ln.Forward(x))
}

func (m *benchGPT) parameters() []*dl.Tensor {
	ps := append(Parameters(m.tok), Parameters(m.pos)...)
	for _, b := range m.blocks {
		ps = append(ps, Parameters(b)...)
	}
	return append(append(ps, Parameters(m.ln)...), Parameters(m.head)...)
}

// benchTokens returns random token ids [batch, t] and next-token targets
// [batch·t].
func benchTokens(batch, t int) (ids, targets *dl.Tensor) {
	g := dl.NewGenerator(1)
	return dl.Options{Generator: g}.Randint(0, benchVocab, batch, t), dl.Options{Generator: g}.Randint(0, benchVocab, batch*t)
}

// BenchmarkTransformerStep times one training step of a GPT-style stack
// of 4 nn.Blocks (d, h heads, MLP 4d, sequence T, batch 8, vocabulary 256):
// forward, cross-entropy over every position, backward and an AdamW step
// (torch's defaults: lr 1e-3, weight decay 0.01), in float32 or with the
// forward pass under bfloat16 autocast.  It reports ms/step and the step's
// peak memory above the resting state (parameters, gradients, AdamW's
// moments, data) in MiB from the device accounting; the gradients are
// released between timed steps, as the anchor's zero_grad(set_to_none=True)
// does (dltest.BenchTrainStep).  Its PyTorch anchor is
// testdata/transformer_anchor.py, case "transformer_step".
func BenchmarkTransformerStep(b *testing.B) {
	for _, sz := range transformerSizes {
		for _, dt := range []dl.DType{dl.Float32, dl.BFloat16} {
			for _, threads := range []int{1, 2} {
				b.Run(fmt.Sprintf("d=%d/h=%d/T=%d/dtype=%v/threads=%d", sz.d, sz.h, sz.t, dt, threads), func(b *testing.B) {
					dltest.UseThreads(b, threads)
					m := newBenchGPT(sz.d, sz.h, sz.t)
					params := m.parameters()
					opt := optim.NewAdamW(params, optim.AdamConfig{})
					ids, targets := benchTokens(benchBatch, sz.t)
					step := func() {
						var loss *dl.Tensor
						forward := func() { loss = dl.CrossEntropy(m.forward(ids).Reshape(-1, benchVocab), targets) }
						if dt == dl.Float32 {
							forward()
						} else {
							amp.Autocast(dt, forward)
						}
						loss.Backward()
						opt.Step()
						loss.Release()
					}
					dltest.BenchTrainStep(b, dl.CPU, params, step) // gradients released between steps, as the anchor's zero_grad(set_to_none=True)
				})
			}
		}
	}
}

// BenchmarkTransformerInference times the forward pass of
// BenchmarkTransformerStep's model on one sequence (batch 1) without
// autograd, in float32: the latency of a prediction.  Its PyTorch anchor
// is testdata/transformer_anchor.py, case "transformer_infer".
func BenchmarkTransformerInference(b *testing.B) {
	for _, sz := range transformerSizes {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("d=%d/h=%d/T=%d/threads=%d", sz.d, sz.h, sz.t, threads), func(b *testing.B) {
				dltest.UseThreads(b, threads)
				m := newBenchGPT(sz.d, sz.h, sz.t)
				ids, _ := benchTokens(1, sz.t)
				infer := func() {
					dl.NoGrad(func() { m.forward(ids).Release() })
				}
				infer()
				b.ResetTimer()
				for b.Loop() {
					infer()
				}
			})
		}
	}
}
