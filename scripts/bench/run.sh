#!/bin/sh
# make bench: run dlbd's benchmarks next to their anchors and write
# build/bench.json (see scripts/bench/README.md).  Arguments go to
# cmd/dlbd-bench, e.g. scripts/bench/run.sh -run 'sgemm/n=512' -rounds 3.
#
# Anchors: NumPy on OpenBLAS from Debian (without libopenblas0-pthread
# Debian's numpy falls back to the reference BLAS, which would make every
# ratio a lie) and current PyTorch from PyPI (scripts/bench/
# requirements-torch.txt), installed on first use into a venv of its own,
# $DLBD_BENCH_VENV (default ~/.cache/dlbd/bench-torch-<version>), that
# also sees Debian's packages.  Where PyPI cannot be reached (or with
# DLBD_BENCH_TORCH=debian) the torch anchors fall back to Debian's
# python3-torch 1.13, and every anchor line says so.
set -eu
cd "$(dirname "$0")/../.."

PKGS="python3-numpy python3-threadpoolctl libopenblas0-pthread"
SYSPY=/usr/bin/python3
apt_install() {
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		echo "bench: installing Debian packages: $*" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get install -y --no-install-recommends "$@" >/dev/null ||
			{ apt-get update >/dev/null && apt-get install -y --no-install-recommends "$@" >/dev/null; }
	else
		echo "bench: run as root or install: apt-get install $*" >&2
		return 1
	fi
}
have_numpy() {
	"$1" - <<'PYEOF' 2>/dev/null
import numpy, threadpoolctl
from threadpoolctl import threadpool_info
assert any(d.get("internal_api") == "openblas" for d in threadpool_info())
PYEOF
}
have_numpy "$SYSPY" || apt_install $PKGS || echo "bench: continuing without the anchors that cannot start" >&2

PIN=$(sed -n 's/^torch==//p' scripts/bench/requirements-torch.txt)
VENV=${DLBD_BENCH_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/dlbd/bench-torch-$PIN}
PY=""
if [ "${DLBD_BENCH_TORCH:-pypi}" != debian ]; then
	if [ ! -f "$VENV/.complete" ]; then
		echo "bench: installing PyTorch $PIN from PyPI into $VENV (once; with its CUDA wheels, about 5 GB)" >&2
		rm -rf "$VENV"
		t0=$(date +%s)
		if "$SYSPY" -m venv --system-site-packages "$VENV" &&
			"$VENV/bin/python" -m pip install -q --disable-pip-version-check -r scripts/bench/requirements-torch.txt >&2; then
			t1=$(date +%s)
			size=$(du -sh "$VENV" | cut -f1)
			echo "torch $PIN from PyPI: installed in $((t1 - t0)) s, $size on disk" >"$VENV/.complete"
		else
			echo "bench: could not install torch $PIN from PyPI" >&2
		fi
	fi
	if [ -f "$VENV/.complete" ]; then
		echo "bench: $(cat "$VENV/.complete") ($VENV)" >&2
		PY=$VENV/bin/python
	fi
fi
if [ -z "$PY" ]; then
	echo "bench: FALLBACK: the torch anchors use Debian's python3-torch 1.13, not current PyTorch" >&2
	"$SYSPY" -c 'import torch' 2>/dev/null || apt_install python3-torch || true
	PY=$SYSPY
fi
exec go run ./cmd/dlbd-bench -python "$PY" "$@"
