"""PyTorch CPU anchor for BenchmarkAMPStep (dl/amp/bench_test.go).

One training step of the 784-1024-1024-10 ReLU MLP of BenchmarkMLPStep
(batch 256, SGD lr 0.01), with the forward pass and the loss under
torch.autocast("cpu", dtype=...) for dtype bfloat16, or plain for
float32: the same work as the Go benchmark.  Run it with the Python of
scripts/bench/run.sh (float16 autocast on CPU needs torch >= 2.3: with
the Debian fallback, torch 1.13, that case reports an error and the driver shows no anchor.)

It runs with the environment of dl/nn/testdata/mlp_step_anchor.py (idle
OpenMP workers sleep, no fresh mmap()s per step), re-executing itself.

  python3 amp_step_anchor.py --dtype bfloat16 --threads 2   # standalone
  python3 amp_step_anchor.py                                 # anchor server, case "amp_step"
"""
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "dl", "nn", "testdata"))
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
sys.path.insert(0, os.path.join(ROOT, "dl", "testdata"))
import mlp_step_anchor  # noqa: E402  (re-executes this script with its BEST_ENV)

import argparse  # noqa: E402

import steptime  # noqa: E402

import torch  # noqa: E402


def make_step(dtype, batch=256):
    """Returns a function running one mixed-precision training step of
    mlp_step_anchor's model (dtype "float32": no autocast)."""
    step = mlp_step_anchor.make_step(batch=batch, autocast=None if dtype == "float32" else getattr(torch, dtype))
    step()  # fails here if this torch cannot autocast to dtype on CPU
    return step


def standalone():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="bfloat16")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=40)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    steptime.report(make_step(args.dtype), args.steps, dtype=args.dtype, threads=args.threads, torch=torch.__version__)


def serve():
    import anchor

    @anchor.case("amp_step")
    def amp_step(args):
        step = make_step(args.get("dtype", "float32"), batch=int(args.get("batch", 256)))
        return anchor.Timed(step, "ms/step", lambda sec: sec * 1e3)

    anchor.serve("torch %s, cpu autocast, OMP_WAIT_POLICY=%s" % (torch.__version__, os.environ.get("OMP_WAIT_POLICY")))


if __name__ == "__main__":
    if len(sys.argv) > 1:
        standalone()
    else:
        serve()
