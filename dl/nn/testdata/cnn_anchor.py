"""PyTorch CPU anchor for the CNN benchmarks: BenchmarkCNNStep and
BenchmarkCNNInference (dl/nn/cnn_bench_test.go) and BenchmarkConv2d
(dl/ops_conv_bench_test.go).

The same networks as the Go benchmarks, in float32 on inputs shaped like an
MNIST batch ([128, 1, 28, 28], random values, 10 classes):
  lenet5  5x5 convolutions with ReLU and 2x2 max pooling (1->6 with padding
          2, 6->16), Linear 400-120-84-10 with ReLU
  resnet  3x3 stem of 16 channels (no bias) + BatchNorm + ReLU, three basic
          blocks (16 ch at 28x28, 32 at 14x14, 64 at 7x7; a 1x1 convolution
          + BatchNorm on the shortcut where the shape changes), global
          average pooling, Linear(64, 10)
PyTorch runs them in its default CPU path (oneDNN convolutions, NCHW).

Cases:
  cnn_step   args: net, threads.  zero_grad(set_to_none=True), forward,
             cross-entropy, backward, SGD (lr 0.01, momentum 0.9); ms/step
  cnn_infer  args: net, threads.  eval mode, one image, inference_mode; us
  conv2d     args: n, c, h, w, cout, k, pad, groups, pass ("fwd" or
             "fwd+bwd"), threads.  F.conv2d with bias (and, for fwd+bwd,
             backward to input, weight and bias with a ones gradient);
             GFLOP/s of 2*N*Cout*Ho*Wo*C/groups*k*k (x3 with backward)

It runs with the environment of mlp_step_anchor.py (idle OpenMP workers
sleep, no fresh mmap()s per step), re-executing itself.

  python3 cnn_anchor.py --net resnet --threads 1    # standalone: prints JSON
  python3 cnn_anchor.py --params                    # parameter counts
  python3 cnn_anchor.py                             # anchor server
"""
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
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

BATCH, CLASSES = 128, 10


def lenet5():
    """newLeNet5 of dl/nn/cnn_bench_test.go."""
    return nn.Sequential(
        nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, CLASSES))


class BasicBlock(nn.Module):
    """basicBlock of dl/nn/cnn_bench_test.go."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
            nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout))
        self.shortcut = None
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1, stride=stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        skip = x if self.shortcut is None else self.shortcut(x)
        return F.relu(self.main(x) + skip)


def resnet():
    """newSmallResNet of dl/nn/cnn_bench_test.go."""
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
        BasicBlock(16, 16, 1), BasicBlock(16, 32, 2), BasicBlock(32, 64, 2),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, CLASSES))


NETS = {"lenet5": lenet5, "resnet": resnet}


def make_step(net, batch=BATCH):
    """Returns a function running one training step of net."""
    torch.manual_seed(0)
    model = NETS[net]()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x = torch.randn(batch, 1, 28, 28)
    y = torch.randint(0, CLASSES, (batch,))

    def step():
        opt.zero_grad(set_to_none=True)
        F.cross_entropy(model(x), y).backward()
        opt.step()
    return step


def make_infer(net):
    """Returns a function classifying one image with net in eval mode."""
    torch.manual_seed(0)
    model = NETS[net]().eval()
    x = torch.randn(1, 1, 28, 28)

    def infer():
        with torch.inference_mode():
            model(x)
    return infer


def make_conv(args):
    """Returns (call, flops) for the conv2d case."""
    n, c, h, w = (int(args[k]) for k in ("n", "c", "h", "w"))
    cout, k, pad, groups = int(args["cout"]), int(args["k"]), int(args.get("pad", 0)), int(args.get("groups", 1))
    grad = args.get("pass", "fwd") != "fwd"
    torch.manual_seed(0)
    x = torch.randn(n, c, h, w, requires_grad=grad)
    wt = (torch.randn(cout, c // groups, k, k) * 0.1).requires_grad_(grad)
    b = torch.randn(cout, requires_grad=grad)
    y = F.conv2d(x, wt, b, padding=pad, groups=groups)
    ho, wo = y.shape[2], y.shape[3]
    gy = torch.ones_like(y)
    flops = 2.0 * n * cout * ho * wo * (c // groups) * k * k

    def fwd():
        with torch.no_grad():
            F.conv2d(x, wt, b, padding=pad, groups=groups)

    def fwd_bwd():
        for t in (x, wt, b):
            t.grad = None
        F.conv2d(x, wt, b, padding=pad, groups=groups).backward(gy)
    return (fwd_bwd, 3 * flops) if grad else (fwd, flops)


def describe():
    return "torch %s (%s), OMP_WAIT_POLICY=%s" % (
        torch.__version__, "oneDNN" if torch.backends.mkldnn.is_available() else "no oneDNN",
        os.environ.get("OMP_WAIT_POLICY"))


def standalone():
    ap = argparse.ArgumentParser()
    ap.add_argument("--net", default="lenet5", choices=sorted(NETS))
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--infer", action="store_true")
    ap.add_argument("--params", action="store_true")
    args = ap.parse_args()
    if args.params:
        for name, net in sorted(NETS.items()):
            print(name, sum(p.numel() for p in net().parameters()))
        return
    torch.set_num_threads(args.threads)
    fn = make_infer(args.net) if args.infer else make_step(args.net)
    steptime.report(fn, args.steps, warmup=3, net=args.net, threads=args.threads, infer=args.infer,
                    anchor=describe())


def serve():
    import anchor

    @anchor.case("cnn_step")
    def cnn_step(args):
        return anchor.Timed(make_step(args["net"]), "ms/step", lambda sec: sec * 1e3)

    @anchor.case("cnn_infer")
    def cnn_infer(args):
        return anchor.Timed(make_infer(args["net"]), "us", lambda sec: sec * 1e6)

    @anchor.case("conv2d")
    def conv2d(args):
        call, flops = make_conv(args)
        return anchor.Timed(call, "GFLOP/s", lambda sec: flops / sec / 1e9)

    anchor.serve(describe())


if __name__ == "__main__":
    if len(sys.argv) > 1:
        standalone()
    else:
        serve()
