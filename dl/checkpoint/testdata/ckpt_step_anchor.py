"""PyTorch CPU anchor for BenchmarkCheckpointStep (dl/checkpoint/bench_test.go).

One SGD step of a 64-layer MLP (Linear(128, 128) + ReLU layers, batch 128,
float32, loss mean(y**2)), plainly (segments 0) or with
torch.utils.checkpoint.checkpoint_sequential(model, segments, x): the same
work as the Go benchmark.  The input requires grad, as the reentrant
checkpoint of torch 1.13 needs for the first segment's parameters to get
gradients (dlbd adds a 4-byte leaf instead; the extra input gradient is one
GEMM in 192).  Run it with the Python of scripts/bench/run.sh.

  python3 ckpt_step_anchor.py --segments 8    # standalone: prints JSON
  python3 ckpt_step_anchor.py                 # anchor server, case "ckpt_step"
"""
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "dl", "nn", "testdata"))
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
sys.path.insert(0, os.path.join(ROOT, "dl", "testdata"))
import mlp_step_anchor  # noqa: E402,F401  (re-executes this script with its BEST_ENV)

import argparse  # noqa: E402
import warnings  # noqa: E402

import torch  # noqa: E402
import torch.utils.checkpoint  # noqa: E402

import steptime  # noqa: E402


def make_step(segments, layers=64, d=128, batch=128, lr=1e-3):
    torch.manual_seed(0)
    model = torch.nn.Sequential(*[torch.nn.Sequential(torch.nn.Linear(d, d), torch.nn.ReLU()) for _ in range(layers)])
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x = torch.randn(batch, d, requires_grad=True)

    def step():
        opt.zero_grad(set_to_none=False)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = model(x) if segments == 0 else torch.utils.checkpoint.checkpoint_sequential(model, segments, x)
        y.pow(2).mean().backward()
        opt.step()
    return step


def standalone():
    ap = argparse.ArgumentParser()
    ap.add_argument("--segments", type=int, default=0)
    ap.add_argument("--steps", type=int, default=30)
    args = ap.parse_args()
    torch.set_num_threads(1)
    steptime.report(make_step(args.segments), args.steps, segments=args.segments, torch=torch.__version__)


def serve():
    import anchor

    @anchor.case("ckpt_step")
    def ckpt_step(args):
        return anchor.Timed(make_step(int(args["segments"])), "ms/step", lambda sec: sec * 1e3)

    anchor.serve("torch %s checkpoint_sequential" % torch.__version__)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        standalone()
    else:
        serve()
