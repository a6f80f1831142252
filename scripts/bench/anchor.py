"""Anchor-server helper for cmd/dlbd-bench (the `make bench` driver).

An anchor script measures the reference implementation (NumPy/OpenBLAS,
PyTorch CPU, ...) of benchmarks that dlbd measures in Go.  The driver starts
it once (`python3 script.py`) and interleaves its measurements with the Go
ones, so both run under the same machine load.  Protocol, one JSON object
per line:

  script -> driver, first line:  {"anchor": "numpy 1.24.2, OpenBLAS 0.3.21 Cooperlake"}
  driver -> script:              {"case": "gemm", "args": {...}, "budget_s": 0.2}
  script -> driver:              {"value": 171.3, "unit": "GFLOP/s", "reps": 31}
                            or   {"error": "what went wrong"}

A script registers cases and calls serve():

  import anchor

  @anchor.case("gemm")
  def gemm(args):
      a, b = ...                       # set up once per request
      flops = 2 * m * n * k
      return anchor.Timed(lambda: np.matmul(a, b, out=c), "GFLOP/s",
                          lambda sec: flops / sec / 1e9)

  anchor.serve(describe="numpy ...")

Timed.run is called once to warm up, then repeatedly until budget_s has
passed (at least 3 times); value = per_call(total seconds / calls), the same
statistic (mean per call) that Go's testing.B reports.  The driver takes the
median over its rounds.
"""
import json
import sys
import time

_CASES = {}


class Timed:
    """What a case returns: the call to time and how to turn seconds per
    call into the reported value (unit as in the driver's entry)."""

    def __init__(self, run, unit, per_call):
        self.run, self.unit, self.per_call = run, unit, per_call


def case(name):
    """Decorator registering fn(args) -> Timed under the case name."""
    def register(fn):
        _CASES[name] = fn
        return fn
    return register


def threads(n):
    """Context manager limiting BLAS and OpenMP pools (threadpoolctl) and,
    if torch is imported, torch's intra-op threads to n."""
    from threadpoolctl import threadpool_limits
    mod = sys.modules.get("torch")
    if mod is not None:
        mod.set_num_threads(int(n))
    return threadpool_limits(limits=int(n))


def _measure(t, budget):
    t.run()  # warm up: first-touch of buffers, thread pools, caches
    reps, start = 0, time.perf_counter()
    while True:
        t.run()
        reps += 1
        elapsed = time.perf_counter() - start
        if reps >= 3 and elapsed >= budget:
            return elapsed / reps, reps


def torch_origin():
    """Where the imported torch comes from, for the anchor's describe line:
    "" without torch, else PyPI's wheel (the venv of scripts/bench/run.sh)
    or, labelled as such, the fallback on Debian's python3-torch."""
    mod = sys.modules.get("torch")
    if mod is None:
        return ""
    if mod.__file__.startswith("/usr/lib/python3/"):
        return "FALLBACK: Debian's python3-torch %s, not current PyTorch" % mod.__version__
    return "torch %s from PyPI" % mod.__version__


def serve(describe):
    """Answer the driver's requests on stdin until it closes the pipe."""
    origin = torch_origin()
    if origin:
        describe = "%s [%s]" % (describe, origin)
    print(json.dumps({"anchor": describe}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            fn = _CASES.get(req["case"])
            if fn is None:
                raise KeyError("unknown case %r; have %s" % (req["case"], sorted(_CASES)))
            args = req.get("args", {})
            t = fn(args)
            if "threads" in args:
                with threads(args["threads"]):
                    sec, reps = _measure(t, float(req.get("budget_s", 0.2)))
            else:
                sec, reps = _measure(t, float(req.get("budget_s", 0.2)))
            out = {"value": t.per_call(sec), "unit": t.unit, "reps": reps}
        except Exception as e:  # reported to the driver, which prints it
            out = {"error": "%s: %s" % (type(e).__name__, e)}
        print(json.dumps(out), flush=True)
