package plan

import "fmt"

// Model is a decoder-only transformer configuration, in the notation of Megatron-LM and
// Korthikanti et al.: L layers, hidden size h, a attention heads, sequence length s,
// vocabulary V.
type Model struct {
	Name    string
	Layers  int // L
	Hidden  int // h
	Heads   int // a
	KVHeads int // key/value heads (grouped-query attention); 0 means Heads
	FFN     int // MLP inner size; 0 means 4h
	Vocab   int // V
	SeqLen  int // s, the training context length
	// GatedMLP is a SwiGLU MLP with three matrices (Llama) instead of two (GPT).
	GatedMLP bool
	// Biases: linear layers have biases and norms are LayerNorm with weight and bias
	// (GPT); otherwise no biases and RMSNorm with a weight only (Llama).
	Biases bool
	// LearnedPositions adds an s×h position embedding (GPT-2/3); rotary embeddings have
	// no parameters.
	LearnedPositions bool
	// TiedEmbeddings shares the input embedding with the output projection.
	TiedEmbeddings bool
	// Source cites where the configuration comes from.
	Source string
}

// Published configurations. Parameter counts follow from the shapes; tests check them
// against the names (70B, 175B, ...).
var (
	// GPT3_175B is GPT-3 175B.
	GPT3_175B = Model{Name: "GPT-3 175B", Layers: 96, Hidden: 12288, Heads: 96, Vocab: 50257, SeqLen: 2048,
		Biases: true, LearnedPositions: true, TiedEmbeddings: true,
		Source: "Brown et al. 2020, Language Models are Few-Shot Learners, arXiv:2005.14165, Table 2.1"}
	// Llama2_7B is Llama 2 7B.
	Llama2_7B = Model{Name: "Llama 2 7B", Layers: 32, Hidden: 4096, Heads: 32, FFN: 11008, Vocab: 32000, SeqLen: 4096,
		GatedMLP: true, Source: "Touvron et al. 2023, Llama 2, arXiv:2307.09288; config.json of meta-llama/Llama-2-7b-hf"}
	// Llama3_8B is Llama 3 8B.
	Llama3_8B = Model{Name: "Llama 3 8B", Layers: 32, Hidden: 4096, Heads: 32, KVHeads: 8, FFN: 14336, Vocab: 128256, SeqLen: 8192,
		GatedMLP: true, Source: "config.json of meta-llama/Meta-Llama-3-8B (April 2024)"}
	// Llama3_70B is Llama 3 70B, the model of the course's 6.4M GPU-hours example.
	Llama3_70B = Model{Name: "Llama 3 70B", Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8, FFN: 28672, Vocab: 128256, SeqLen: 8192,
		GatedMLP: true, Source: "config.json of meta-llama/Meta-Llama-3-70B (April 2024)"}
	// Llama31_70B is Llama 3.1 70B: the architecture of Llama 3 70B (the
	// paper's Table 3 lists the same layers, widths and heads), trained
	// longer (7.0M GPU-hours on its model card against 6.4M) and with a
	// long-context phase that SeqLen, the pretraining context, leaves out.
	Llama31_70B = Model{Name: "Llama 3.1 70B", Layers: 80, Hidden: 8192, Heads: 64, KVHeads: 8, FFN: 28672, Vocab: 128256, SeqLen: 8192,
		GatedMLP: true, Source: "Llama Team 2024, The Llama 3 Herd of Models, arXiv:2407.21783, Table 3"}
	// Llama31_405B is Llama 3.1 405B.
	Llama31_405B = Model{Name: "Llama 3.1 405B", Layers: 126, Hidden: 16384, Heads: 128, KVHeads: 8, FFN: 53248, Vocab: 128256, SeqLen: 8192,
		GatedMLP: true, Source: "Llama Team 2024, The Llama 3 Herd of Models, arXiv:2407.21783, Table 3"}
)

// Validate reports the first inconsistent field.
func (m Model) Validate() error {
	switch {
	case m.Layers <= 0 || m.Hidden <= 0 || m.Heads <= 0 || m.Vocab <= 0 || m.SeqLen <= 0:
		return fmt.Errorf("plan: model %q: Layers, Hidden, Heads, Vocab and SeqLen must be positive (got L=%d h=%d a=%d V=%d s=%d)", m.Name, m.Layers, m.Hidden, m.Heads, m.Vocab, m.SeqLen)
	case m.Hidden%m.Heads != 0:
		return fmt.Errorf("plan: model %q: Hidden %d is not a multiple of Heads %d", m.Name, m.Hidden, m.Heads)
	case m.kvHeads() <= 0 || m.Heads%m.kvHeads() != 0:
		return fmt.Errorf("plan: model %q: Heads %d is not a multiple of KVHeads %d", m.Name, m.Heads, m.kvHeads())
	}
	return nil
}

func (m Model) kvHeads() int {
	if m.KVHeads == 0 {
		return m.Heads
	}
	return m.KVHeads
}

func (m Model) ffn() int {
	if m.FFN == 0 {
		return 4 * m.Hidden
	}
	return m.FFN
}

// ParamCount breaks a model's parameters down by part.
type ParamCount struct {
	Embedding  int64 // token (and learned position) embeddings
	PerLayer   int64 // one transformer block: attention + MLP + norms
	Layers     int64 // PerLayer · L
	FinalNorm  int64
	OutputHead int64 // the V×h projection, 0 when tied to the embedding
	Total      int64
}

// Params counts the parameters of m exactly from its shapes.
func (m Model) Params() ParamCount {
	h, f, hd := int64(m.Hidden), int64(m.ffn()), int64(m.Hidden/m.Heads)
	kv := int64(m.kvHeads()) * hd
	attn := h*h + 2*h*kv + h*h // Wq, Wk, Wv, Wo
	mlpMats := int64(2)
	if m.GatedMLP {
		mlpMats = 3
	}
	mlp := mlpMats * h * f
	norm := h // RMSNorm: weight only
	if m.Biases {
		attn += h + 2*kv + h
		mlp += f*(mlpMats-1) + h
		norm = 2 * h // LayerNorm: weight and bias
	}
	var p ParamCount
	p.PerLayer = attn + mlp + 2*norm
	p.Layers = p.PerLayer * int64(m.Layers)
	p.Embedding = int64(m.Vocab) * h
	if m.LearnedPositions {
		p.Embedding += int64(m.SeqLen) * h
	}
	p.FinalNorm = norm
	if !m.TiedEmbeddings {
		p.OutputHead = int64(m.Vocab) * h
	}
	p.Total = p.Embedding + p.Layers + p.FinalNorm + p.OutputHead
	return p
}

// TrainingFLOPs is the compute to train a model of n parameters on tokens tokens,
// C = 6·N·D (Kaplan et al. 2020): 2 FLOPs per parameter and token forward, 4 backward.
// Simplification: it ignores the attention-score FLOPs (12·L·h·s per token, a few
// percent at these sizes) and recomputation.
func TrainingFLOPs(n int64, tokens float64) float64 { return 6 * float64(n) * tokens }
