#!/usr/bin/env bash
# The one prepared GPU check. Run on the GPU machine, from the repo root,
# after scripts/gpu-check/build.sh built .gpu/*.test on a machine with Go.
# It needs no Go; python3 (with PyTorch, optional) gives the JSON summary
# and the PyTorch anchor measured in the same run.
#
# Writes into $OUT (default .gpu/out), at most 8 files:
#   env.txt        nvidia-smi, driver, commit
#   tests-cuda.txt tests of dl/internal/cuda (DL_REQUIRE_CUDA=1: no skips)
#   tests-dl.txt   the CUDA backend's tests in package dl, and the convolution, pooling and
#                  BatchNorm tests on cuda:0 (their device tables include it)
#   tests-dist.txt dl/dist's CUDA ranks: in-process through NCCLComm, and the nccl backend launched
#   bench.txt      Sgemm/TF32/bf16/fp16 TFLOP/s at 4096 and 8192, H2D/D2H GB/s
#   bench-nb05.txt notebook 05's matmul benchmark (dl/bench) on the GPU
#   torch.txt      PyTorch anchor: bf16/fp32 matmul at 8192, copies
#   summary.json   every figure above, and whether bf16 reached 0.9x PyTorch
# Exit status: 1 if any test failed, else 0 (speed is reported, not enforced).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
OUT=${OUT:-$ROOT/.gpu/out}
mkdir -p "$OUT"
export DL_REQUIRE_CUDA=1
NB05_BENCH=${NB05_BENCH:-MatMul} # benchmark pattern of notebook 05 in dl/bench
status=0

{
	date -u +"%Y-%m-%dT%H:%M:%SZ"
	echo "commit $(cat .gpu/commit 2>/dev/null || echo unknown)"
	uname -a
	nvidia-smi 2>&1 || echo "nvidia-smi not available"
	ls -l .gpu/
} >"$OUT/env.txt" 2>&1

# Test binaries run in their package folder, as `go test` would: some
# tests read the package's sources (symbol tables) or testdata.
runtest() { # runtest BINARY PKGDIR OUTFILE [ARGS...]
	local bin=$1 dir=$2 out=$3
	shift 3
	if [ ! -x "$ROOT/.gpu/$bin" ]; then
		echo "no .gpu/$bin: run scripts/gpu-check/build.sh first" >"$OUT/$out"
		return 0
	fi
	(cd "$dir" && timeout 300 "$ROOT/.gpu/$bin" -test.count=1 "$@") >"$OUT/$out" 2>&1
}

runtest cuda.test dl/internal/cuda tests-cuda.txt -test.v -test.timeout 4m || status=1
runtest dl.test dl tests-dl.txt -test.v -test.short -test.run 'CUDA|NCCL|Conv2dDevices|PoolDevices|BatchNormDevices' -test.timeout 4m || status=1
runtest dist.test dl/dist tests-dist.txt -test.v -test.run 'GPU|NCCL' -test.timeout 4m || status=1
runtest cuda.test dl/internal/cuda bench.txt -test.run '^$' -test.bench 'Gemm|Copy' -test.benchtime 20x -test.timeout 4m
runtest bench.test dl/bench bench-nb05.txt -test.run '^$' -test.bench "$NB05_BENCH" -test.benchtime 10x -test.timeout 4m

# PyTorch anchor, measured now on this GPU (same data kind: random).
PYTHONUNBUFFERED=1 timeout 180 python3 - >"$OUT/torch.txt" 2>&1 <<'PY'
import json, time
import torch
dev = torch.device("cuda:0")
def matmul(dtype, n=8192, warm=3, reps=10):
    a = torch.randn(n, n, device=dev, dtype=dtype); b = torch.randn(n, n, device=dev, dtype=dtype)
    torch.backends.cuda.matmul.allow_tf32 = False
    for _ in range(warm): a @ b
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(reps): a @ b
    e.record(); torch.cuda.synchronize()
    return 2 * n**3 * reps / (s.elapsed_time(e) / 1e3) / 1e12
def copy(pinned, h2d, size=256 << 20, reps=20):
    h = torch.empty(size, dtype=torch.uint8, pin_memory=pinned); d = torch.empty(size, dtype=torch.uint8, device=dev)
    torch.cuda.synchronize(); t = time.perf_counter()
    for _ in range(reps):
        (d.copy_(h) if h2d else h.copy_(d)); torch.cuda.synchronize()
    return size * reps / (time.perf_counter() - t) / 1e9
print(json.dumps({"torch": torch.__version__, "bf16_tflops": matmul(torch.bfloat16), "fp32_tflops": matmul(torch.float32),
    "h2d_pageable_GBs": copy(False, True), "d2h_pageable_GBs": copy(False, False),
    "h2d_pinned_GBs": copy(True, True), "d2h_pinned_GBs": copy(True, False)}))
PY

# Summary: benchmark lines look like
#   BenchmarkGemm/type=bf16/n=8192-16  20  1391228 ns/op  790.3 TFLOP/s
PYTHONUNBUFFERED=1 python3 - "$OUT" >"$OUT/summary.json" <<'PY'
import json, os, re, sys
out = sys.argv[1]
def read(name):
    try: return open(os.path.join(out, name)).read()
    except OSError: return ""
res = {"benchmarks": {}, "tests": {}}
for f in ("bench.txt", "bench-nb05.txt"):
    for line in read(f).splitlines():
        m = re.match(r"(Benchmark\S+?)(-\d+)?\s+\d+\s+(.*)", line)
        if m:
            res["benchmarks"][m.group(1)] = {u: float(v) for v, u in re.findall(r"([\d.]+) (\S+)", m.group(3))}
for f in ("tests-cuda.txt", "tests-dl.txt", "tests-dist.txt"):
    t = read(f)
    res["tests"][f] = {k: len(re.findall(r"^--- %s: " % k, t, re.M)) for k in ("PASS", "FAIL", "SKIP")}
    res["tests"][f]["failed_names"] = re.findall(r"^--- FAIL: (\S+)", t, re.M)
torch_line = [l for l in read("torch.txt").splitlines() if l.startswith("{")]
res["torch"] = json.loads(torch_line[-1]) if torch_line else None
bf16 = res["benchmarks"].get("BenchmarkGemm/type=bf16/n=8192", {}).get("TFLOP/s")
anchor = res["torch"]["bf16_tflops"] if res["torch"] else 790.0  # 790: PyTorch on this H200 kind, earlier run
res["bf16_8192"] = {"dlbd_tflops": bf16, "anchor_tflops": anchor, "anchor_source": "torch same run" if res["torch"] else "earlier PyTorch run",
                    "ratio": bf16 / anchor if bf16 else None, "target_ratio": 0.9, "target_met": bool(bf16 and bf16 >= 0.9 * anchor)}
print(json.dumps(res, indent=1))
PY

cat "$OUT/summary.json" 2>/dev/null | head -80
grep -h -E "^(--- FAIL|FAIL|ok|PASS)" "$OUT"/tests-*.txt
exit $status
