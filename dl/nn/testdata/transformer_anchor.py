"""PyTorch CPU anchor for BenchmarkTransformerStep and
BenchmarkTransformerInference (dl/nn/transformer_bench_test.go).

The same GPT-style model as the Go benchmark: token and learned position
embeddings, `layers` pre-LN blocks (LayerNorm, fused QKV Linear(d, 3d),
causal multi-head attention, Linear(d, d), LayerNorm, Linear(d, 4d), exact
GELU, Linear(4d, d), residuals, no dropout), a final LayerNorm and a linear
head over a vocabulary of 256.  Attention is F.scaled_dot_product_attention
(is_causal=True) where this torch has it (>= 2.0); torch 1.13, Debian 12's,
does not, and then it is the same computation written out (Q·Kᵀ/√d_h,
masked_fill of the future with -inf, softmax, ·V), which is what SDPA's math
backend runs on CPU.  The describe line says which.

Cases:
  transformer_step   one training step: forward (under torch.autocast("cpu",
                     bfloat16) for dtype bfloat16), cross-entropy over every
                     position, backward, AdamW (torch's defaults), zero_grad
  transformer_infer  the forward pass of one sequence (batch 1) under
                     torch.inference_mode, float32

It runs with the environment of mlp_step_anchor.py (idle OpenMP workers
sleep, no fresh mmap()s per step), re-executing itself.

  python3 transformer_anchor.py --d 256 --heads 4 --seq 128 --threads 1   # standalone
  python3 transformer_anchor.py                                           # anchor server
"""
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
sys.path.insert(0, os.path.join(ROOT, "dl", "testdata"))
import mlp_step_anchor  # noqa: E402,F401  (re-executes this script with its BEST_ENV)

import argparse  # noqa: E402

import steptime  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

SDPA = getattr(F, "scaled_dot_product_attention", None)
VOCAB = 256


class Block(torch.nn.Module):
    """nn.Block of dl/nn/transformer.go."""

    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = torch.nn.LayerNorm(d)
        self.qkv = torch.nn.Linear(d, 3 * d)
        self.proj = torch.nn.Linear(d, d)
        self.ln2 = torch.nn.LayerNorm(d)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(d, 4 * d), torch.nn.GELU(), torch.nn.Linear(4 * d, d))

    def attention(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=2)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        if SDPA is not None:
            y = SDPA(q, k, v, is_causal=True)
        else:
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(d // self.heads))
            mask = torch.ones(t, t, dtype=torch.bool).triu(1)
            y = att.masked_fill(mask, float("-inf")).softmax(dim=-1) @ v
        return self.proj(y.transpose(1, 2).reshape(b, t, d))

    def forward(self, x):
        x = x + self.attention(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class GPT(torch.nn.Module):
    """benchGPT of dl/nn/transformer_bench_test.go."""

    def __init__(self, d, heads, seq, layers):
        super().__init__()
        self.tok = torch.nn.Embedding(VOCAB, d)
        self.pos = torch.nn.Embedding(seq, d)
        self.blocks = torch.nn.Sequential(*[Block(d, heads) for _ in range(layers)])
        self.ln = torch.nn.LayerNorm(d)
        self.head = torch.nn.Linear(d, VOCAB)
        self.register_buffer("pos_ids", torch.arange(seq))

    def forward(self, ids):
        x = self.tok(ids) + self.pos(self.pos_ids)
        return self.head(self.ln(self.blocks(x)))


def make_step(d, heads, seq, batch=8, layers=4, dtype="float32"):
    """Returns a function running one training step."""
    torch.manual_seed(0)
    model = GPT(d, heads, seq, layers)
    opt = torch.optim.AdamW(model.parameters())
    ids = torch.randint(0, VOCAB, (batch, seq))
    targets = torch.randint(0, VOCAB, (batch * seq,))

    def step():
        opt.zero_grad(set_to_none=True)
        if dtype == "float32":
            loss = F.cross_entropy(model(ids).view(-1, VOCAB), targets)
        else:
            with torch.autocast("cpu", dtype=getattr(torch, dtype)):
                loss = F.cross_entropy(model(ids).view(-1, VOCAB), targets)
        loss.backward()
        opt.step()
    return step


def make_infer(d, heads, seq, layers=4):
    """Returns a function running the forward pass of one sequence."""
    torch.manual_seed(0)
    model = GPT(d, heads, seq, layers).eval()
    ids = torch.randint(0, VOCAB, (1, seq))

    def infer():
        with torch.inference_mode():
            model(ids)
    return infer


def describe():
    attn = "F.scaled_dot_product_attention" if SDPA is not None else "attention written out (no SDPA in this torch)"
    return "torch %s, %s, OMP_WAIT_POLICY=%s" % (torch.__version__, attn, os.environ.get("OMP_WAIT_POLICY"))


def standalone():
    ap = argparse.ArgumentParser()
    ap.add_argument("--d", type=int, default=256)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--infer", action="store_true")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    if args.infer:
        fn = make_infer(args.d, args.heads, args.seq)
    else:
        fn = make_step(args.d, args.heads, args.seq, dtype=args.dtype)
    steptime.report(fn, args.steps, warmup=2, d=args.d, heads=args.heads, seq=args.seq, dtype=args.dtype,
                    threads=args.threads, infer=args.infer, anchor=describe())


def serve():
    import anchor

    def size(args):
        return int(args["d"]), int(args["heads"]), int(args["seq"])

    @anchor.case("transformer_step")
    def transformer_step(args):
        step = make_step(*size(args), batch=int(args.get("batch", 8)), layers=int(args.get("layers", 4)),
                         dtype=args.get("dtype", "float32"))
        return anchor.Timed(step, "ms/step", lambda sec: sec * 1e3)

    @anchor.case("transformer_infer")
    def transformer_infer(args):
        infer = make_infer(*size(args), layers=int(args.get("layers", 4)))
        return anchor.Timed(infer, "ms", lambda sec: sec * 1e3)

    anchor.serve(describe())


if __name__ == "__main__":
    if len(sys.argv) > 1:
        standalone()
    else:
        serve()
