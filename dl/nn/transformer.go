package nn

import (
	"fmt"

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
	if dl.IsGradEnabled() { // the graph keeps the intermediates for backward
		x = x.Add(b.Drop1.Forward(b.attention(b.LN1.Forward(x))))
		return x.Add(b.Drop2.Forward(b.MLP.Forward(b.LN2.Forward(x))))
	}
	// Without grad nothing needs the block's intermediates: each is
	// released once consumed, so that the next call reuses its memory
	// from the caching allocator instead of touching fresh pages (a
	// Transformer's inference left ~20 MiB per call to the garbage
	// collector otherwise).
	checkBlockInput(x)
	mlp := b.MLP.Modules
	if dl.FusionEnabled() {
		mlp = Fuse(mlp)
	}
	a := consume(b.LN1.Forward(x), b.QKV.Forward, func(t *dl.Tensor) *dl.Tensor { return dl.CausalSelfAttention(t, b.Heads) },
		b.Proj.Forward, b.Drop1.Forward)
	x = add(x, a, false)
	var fns []func(*dl.Tensor) *dl.Tensor
	for _, m := range mlp {
		fns = append(fns, m.Forward)
	}
	return add(x, consume(b.LN2.Forward(x), append(fns, b.Drop2.Forward)...), true)
}

// consume returns fns applied in order to x, an intermediate of the
// caller's: x and each later intermediate are released once the next
// function has returned a different tensor (views keep their memory).
func consume(x *dl.Tensor, fns ...func(*dl.Tensor) *dl.Tensor) *dl.Tensor {
	for _, f := range fns {
		y := f(x)
		if y != x {
			x.Release()
		}
		x = y
	}
	return x
}

// add returns x + y, releasing y, and x too if it is the caller's own
// intermediate.
func add(x, y *dl.Tensor, own bool) *dl.Tensor {
	z := x.Add(y)
	y.Release()
	if own {
		x.Release()
	}
	return z
}

// attention is causal multi-head self-attention:
// softmax(Q·Kᵀ/√d_head + mask)·V per head, heads concatenated, projected.
// dl.CausalSelfAttention runs it as one fused kernel on host devices and
// writes it out op by op (Narrow, Permute, MatMul, MaskedFill, Softmax)
// under dl.WithoutFusion.
func (b *Block) attention(x *dl.Tensor) *dl.Tensor {
	checkBlockInput(x)
	return b.Proj.Forward(dl.CausalSelfAttention(b.QKV.Forward(x), b.Heads)) // [B, T, 3d] → [B, T, d]
}

// checkBlockInput panics with a *dl.ShapeError unless x is [batch, time, dim].
func checkBlockInput(x *dl.Tensor) {
	if s := x.Shape(); len(s) != 3 {
		panic(&dl.ShapeError{Op: "nn.Block.Forward", Shapes: [][]int{s}, Reason: "want input [batch, time, dim]", Fix: "reshape to 3-D"})
	}
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
