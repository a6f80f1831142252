"""PyTorch CPU anchor for BenchmarkMLPStep (dl/nn/bench_test.go).

One training step of a 784-1024-1024-10 ReLU MLP on a batch of 256, float32,
plain SGD (lr 0.01): zero_grad, forward, cross-entropy, backward, step -- the
same work as the Go benchmark. Run it with the Python of scripts/bench/run.sh (PyTorch from PyPI).

It runs PyTorch in its best configuration on a 2-core machine, which it
sets up by re-executing itself with this environment unless
DLBD_TORCH_DEFAULT_ENV=1:
  OMP_WAIT_POLICY=PASSIVE           idle OpenMP workers sleep instead of
                                    spinning (spinning steals the other core)
  MALLOC_MMAP_THRESHOLD_=33554432   4 MiB activations come from the heap, not
                                    fresh mmap()s (32 MiB is glibc's maximum;
                                    larger values are ignored)
  MALLOC_TRIM_THRESHOLD_=4294967296 freed memory is not returned to the
  MALLOC_TOP_PAD_=268435456         kernel, so steps do not pay first-touch
                                    page faults again
By default its 2-thread step is slower than its 1-thread step.

Two ways to run it:
  python3 mlp_step_anchor.py --threads 2        # standalone: prints JSON
  python3 mlp_step_anchor.py                    # anchor server for
                                                # cmd/dlbd-bench, case "mlp_step"
"""
import os
import sys

BEST_ENV = {
    "OMP_WAIT_POLICY": "PASSIVE",
    "MALLOC_MMAP_THRESHOLD_": "33554432",
    "MALLOC_TRIM_THRESHOLD_": "4294967296",
    "MALLOC_TOP_PAD_": "268435456",
}
if os.environ.get("DLBD_TORCH_DEFAULT_ENV") != "1" and any(os.environ.get(k) != v for k, v in BEST_ENV.items()):
    os.execve(sys.executable, [sys.executable] + sys.argv, {**os.environ, **BEST_ENV})

import argparse  # noqa: E402

import torch  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
sys.path.insert(0, os.path.join(ROOT, "dl", "testdata"))
import steptime  # noqa: E402


def make_step(batch=256, sizes=(784, 1024, 1024, 10), lr=0.01, autocast=None):
    """Returns a function running one training step; with autocast (a torch
    dtype) the forward pass and the loss run under torch.autocast("cpu")."""
    torch.manual_seed(0)
    layers = []
    for i in range(len(sizes) - 1):
        layers.append(torch.nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(torch.nn.ReLU())
    model = torch.nn.Sequential(*layers)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x = torch.randn(batch, sizes[0])
    y = torch.randint(0, sizes[-1], (batch,))
    loss_fn = torch.nn.CrossEntropyLoss()

    def step():
        opt.zero_grad(set_to_none=True)
        if autocast is None:
            loss = loss_fn(model(x), y)
        else:
            with torch.autocast("cpu", dtype=autocast):
                loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
    return step


def standalone():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=60)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    steptime.report(make_step(), args.steps, warmup=10, threads=args.threads, torch=torch.__version__,
                    env="default" if os.environ.get("DLBD_TORCH_DEFAULT_ENV") == "1" else "best")


def serve():
    import anchor

    @anchor.case("mlp_step")
    def mlp_step(args):
        step = make_step(batch=int(args.get("batch", 256)))
        return anchor.Timed(step, "ms/step", lambda sec: sec * 1e3)

    anchor.serve("torch %s, OMP_WAIT_POLICY=%s, MALLOC_MMAP_THRESHOLD_=%s" % (
        torch.__version__, os.environ.get("OMP_WAIT_POLICY"), os.environ.get("MALLOC_MMAP_THRESHOLD_")))


if __name__ == "__main__":
    if len(sys.argv) > 1:
        standalone()
    else:
        serve()
