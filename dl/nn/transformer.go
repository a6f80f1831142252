package nn

import (
	"fmt"
	"math"

	"github.com/dlbd/dlbd/dl"
)

// BlockConfig configures NewBlock; zero values are the defaults.
type BlockConfig struct {
	InitConfig
	Dim     int     // model width d; required
	Heads   int     // attention heads h (d must be a multiple of h); default 1
	Hidden  int     // MLP hidden width; default 4·Dim, as in GPT-2
	Dropout float64 // dropout after attention and after the MLP; default 0
}

// Block is a pre-LayerNorm causal Transformer block, as in GPT-2:
//
//	x = x + Dropout(Attn(LN1(x)))      multi-head self-attention with a causal mask
//	x = x + Dropout(MLP(LN2(x)))       MLP: Linear(d, 4d) → GELU → Linear(4d, d)
//
// Input and output are [B, T, d]. Position t attends to positions ≤ t only.
// Parameter names: "ln1.*", "attn.qkv.*" (the fused Q, K, V projection, as
// GPT-2's c_attn), "attn.proj.*", "ln2.*", "mlp.0.*", "mlp.2.*".
//
// Course: "Model Parallelism" (the layer that tensor parallelism splits).
// Paper: Vaswani et al. 2017, Attention Is All You Need (arXiv:1706.03762);
// Radford et al. 2019 (GPT-2) for the pre-LN layout.
type Block struct {
	LN1, LN2  *LayerNorm
	QKV, Proj *Linear
	MLP       *Sequential
	Drop1     *Dropout
	Drop2     *Dropout
	Heads     int
}

var _ Module = (*Block)(nil)

// NewBlock returns a Transformer block. It panics with a *dl.ValueError if
// Dim is not positive or not a multiple of Heads.
func NewBlock(cfg BlockConfig) *Block {
	h := or(cfg.Heads, 1)
	if cfg.Dim <= 0 || cfg.Dim%h != 0 {
		panic(&dl.ValueError{Op: "nn.NewBlock", Reason: fmt.Sprintf("Dim %d with Heads %d", cfg.Dim, h), Fix: "use a positive Dim that is a multiple of Heads"})
	}
	d, hid := cfg.Dim, or(cfg.Hidden, 4*cfg.Dim)
	lc := LinearConfig{InitConfig: cfg.InitConfig}
	return &Block{
		LN1:   NewLayerNorm(d, cfg.InitConfig),
		QKV:   NewLinear(d, 3*d, lc),
		Proj:  NewLinear(d, d, lc),
		LN2:   NewLayerNorm(d, cfg.InitConfig),
		MLP:   NewSequential(NewLinear(d, hid, lc), GELU(), NewLinear(hid, d, lc)),
		Drop1: NewDropout(cfg.Dropout, cfg.Generator),
		Drop2: NewDropout(cfg.Dropout, cfg.Generator),
		Heads: h,
	}
}

// Forward applies the block to x [B, T, d].
func (b *Block) Forward(x *dl.Tensor) *dl.Tensor {
	x = x.Add(b.Drop1.Forward(b.attention(b.LN1.Forward(x))))
	return x.Add(b.Drop2.Forward(b.MLP.Forward(b.LN2.Forward(x))))
}

// attention is causal multi-head self-attention:
// softmax(Q·Kᵀ/√d_head + mask)·V per head, heads concatenated, projected.
func (b *Block) attention(x *dl.Tensor) *dl.Tensor {
	s := x.Shape()
	if len(s) != 3 {
		panic(&dl.ShapeError{Op: "nn.Block.Forward", Shapes: [][]int{s}, Reason: "want input [batch, time, dim]", Fix: "reshape to 3-D"})
	}
	bs, t, d := s[0], s[1], s[2]
	h, dh := b.Heads, d/b.Heads
	qkv := b.QKV.Forward(x)           // [B, T, 3d]
	split := func(i int) *dl.Tensor { // → [B, h, T, dh]
		return qkv.Narrow(2, i*d, d).Reshape(bs, t, h, dh).Permute(0, 2, 1, 3)
	}
	q, k, v := split(0), split(1), split(2)
	scores := q.MatMul(k.Transpose(2, 3)).MulScalar(1 / math.Sqrt(float64(dh))) // [B, h, T, T]
	att := scores.MaskedFill(causalMask(t, scores.DType(), scores.Device()), math.Inf(-1)).Softmax(3)
	y := att.MatMul(v).Permute(0, 2, 1, 3).Reshape(bs, t, d) // heads side by side
	return b.Proj.Forward(y)
}

// causalMask is [T, T] with ones above the diagonal: position i may not
// look at positions j > i.
func causalMask(t int, dt dl.DType, dev dl.Device) *dl.Tensor {
	m := make([]float32, t*t)
	for i := range t {
		for j := i + 1; j < t; j++ {
			m[i*t+j] = 1
		}
	}
	mask := dl.FromSlice(m, t, t)
	if dt != dl.Float32 {
		mask = mask.AsType(dt)
	}
	return mask.To(dev)
}

// NamedParameters returns the block's parameters with GPT-style names.
func (b *Block) NamedParameters() []NamedParameter {
	var ps []NamedParameter
	ps = append(ps, prefixed("ln1", b.LN1.NamedParameters())...)
	ps = append(ps, prefixed("attn.qkv", b.QKV.NamedParameters())...)
	ps = append(ps, prefixed("attn.proj", b.Proj.NamedParameters())...)
	ps = append(ps, prefixed("ln2", b.LN2.NamedParameters())...)
	return append(ps, prefixed("mlp", b.MLP.NamedParameters())...)
}

// SetTraining sets the mode of the dropout layers.
func (b *Block) SetTraining(training bool) {
	b.Drop1.SetTraining(training)
	b.Drop2.SetTraining(training)
}

// or returns v, or def when v is 0.
func or(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
