"""PyTorch CPU anchor for BenchmarkCrossEntropy (dl/fused_bench_test.go).

Forward and backward of torch.nn.functional.cross_entropy on [N, C]
float32 logits with integer targets, one thread: the same work as the Go
benchmark (torch's kernel is log_softmax + nll_loss).  Run it with the
Python of scripts/bench/run.sh.

  python3 fused_anchor.py --n 256 --c 8192    # standalone: prints JSON
  python3 fused_anchor.py                     # anchor server, case "cross_entropy"
"""
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "dl", "nn", "testdata"))
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
sys.path.insert(0, os.path.join(ROOT, "dl", "testdata"))
import mlp_step_anchor  # noqa: E402,F401  (re-executes this script with its BEST_ENV)

import argparse  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import steptime  # noqa: E402


def make_step(n, c):
    torch.manual_seed(0)
    logits = torch.randn(n, c, requires_grad=True)
    y = torch.randint(0, c, (n,))

    def step():
        logits.grad = None
        F.cross_entropy(logits, y).backward()
    return step


def standalone():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=256)
    ap.add_argument("--c", type=int, default=8192)
    ap.add_argument("--steps", type=int, default=30)
    args = ap.parse_args()
    torch.set_num_threads(1)
    steptime.report(make_step(args.n, args.c), args.steps, n=args.n, c=args.c, torch=torch.__version__)


def serve():
    import anchor

    @anchor.case("cross_entropy")
    def cross_entropy(args):
        return anchor.Timed(make_step(int(args["n"]), int(args["c"])), "ms", lambda sec: sec * 1e3)

    anchor.serve("torch %s F.cross_entropy" % torch.__version__)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        standalone()
    else:
        serve()
