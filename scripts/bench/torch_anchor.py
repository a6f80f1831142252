"""PyTorch CPU anchors (PyTorch from PyPI, scripts/bench/run.sh) for make bench.

Cases:
  matmul  args: dtype, m, n, k, op, threads.  torch.matmul(a, b, out=c) on
          (transposed views of) contiguous tensors; with args.batch, 3-D
          tensors (torch.bmm's work).  Reports GFLOP/s.
  cast    args: to ("float16", "bfloat16"), n.  dst.copy_(src) from
          float32.  Reports GB/s of source + destination bytes.
  uncast  args: from ("float16", "bfloat16"), n.  float32 dst.copy_(src).
"""
import torch

import anchor

torch.manual_seed(0)


def _dtype(name):
    return getattr(torch, name)


@anchor.case("matmul")
def matmul(args):
    dt = _dtype(args.get("dtype", "float32"))
    m, n, k = int(args["m"]), int(args["n"]), int(args["k"])
    op = args.get("op", "NN")
    batch = (int(args["batch"]),) if "batch" in args else ()
    a = torch.randn(batch + ((k, m) if op[0] == "T" else (m, k)), dtype=dt)
    b = torch.randn(batch + ((n, k) if op[1] == "T" else (k, n)), dtype=dt)
    a = a.transpose(-1, -2) if op[0] == "T" else a
    b = b.transpose(-1, -2) if op[1] == "T" else b
    c = torch.empty(batch + (m, n), dtype=dt)
    flops = 2.0 * m * n * k * (batch[0] if batch else 1)
    return anchor.Timed(lambda: torch.matmul(a, b, out=c), "GFLOP/s", lambda s: flops / s / 1e9)


def _copy_case(src_dtype, dst_dtype, n):
    src = torch.randn(n).to(src_dtype)
    dst = torch.empty(n, dtype=dst_dtype)
    nbytes = src.element_size() * n + dst.element_size() * n
    return anchor.Timed(lambda: dst.copy_(src), "GB/s", lambda s: nbytes / s / 1e9)


@anchor.case("cast")
def cast(args):
    return _copy_case(torch.float32, _dtype(args["to"]), int(args["n"]))


@anchor.case("uncast")
def uncast(args):
    return _copy_case(_dtype(args["from"]), torch.float32, int(args["n"]))


if __name__ == "__main__":
    anchor.serve("torch %s (%s), %d threads max" % (torch.__version__, torch.__config__.parallel_info().splitlines()[0], torch.get_num_threads()))
