"""NumPy anchors (OpenBLAS through Debian's python3-numpy) for make bench.

Cases:
  gemm  args: dtype ("float32"/"float64"), m, n, k, op ("NN", "NT", "TN",
        "TT"), threads.  Times np.matmul with a preallocated out=; op(X) is
        a transposed view, which NumPy passes to BLAS as a transpose flag.
        With args.batch, a stack of batch products (np.matmul on 3-D arrays).
        Reports GFLOP/s = 2mnk / t.
  cast  args: to ("float16"), from ("float32"), n.  Times x.astype into a
        preallocated array (float32 -> float16 uses F16C in NumPy >= 1.24
        where available).  Reports GB/s of source + destination bytes.
"""
import numpy as np
from threadpoolctl import threadpool_info

import anchor

_rng = np.random.default_rng(0)


@anchor.case("gemm")
def gemm(args):
    dt = np.dtype(args.get("dtype", "float32"))
    m, n, k = int(args["m"]), int(args["n"]), int(args["k"])
    op = args.get("op", "NN")
    batch = (int(args["batch"]),) if "batch" in args else ()
    a = _rng.standard_normal(batch + ((k, m) if op[0] == "T" else (m, k))).astype(dt)
    b = _rng.standard_normal(batch + ((n, k) if op[1] == "T" else (k, n))).astype(dt)
    a = np.swapaxes(a, -1, -2) if op[0] == "T" else a
    b = np.swapaxes(b, -1, -2) if op[1] == "T" else b
    c = np.empty(batch + (m, n), dt)
    flops = 2.0 * m * n * k * (batch[0] if batch else 1)
    return anchor.Timed(lambda: np.matmul(a, b, out=c), "GFLOP/s", lambda s: flops / s / 1e9)


@anchor.case("cast")
def cast(args):
    n = int(args["n"])
    src = _rng.standard_normal(n).astype(args.get("from", "float32"))
    dst = np.empty(n, args["to"])
    nbytes = src.nbytes + dst.nbytes

    def run():
        dst[...] = src  # casting assignment, no allocation
    return anchor.Timed(run, "GB/s", lambda s: nbytes / s / 1e9)


def describe():
    blas = [d for d in threadpool_info() if d.get("user_api") == "blas"]
    libs = ", ".join("%s %s %s" % (d.get("internal_api"), d.get("version"), d.get("architecture")) for d in blas)
    return "numpy %s, BLAS: %s" % (np.__version__, libs or "none found")


if __name__ == "__main__":
    anchor.serve(describe())
