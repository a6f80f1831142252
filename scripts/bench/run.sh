#!/bin/sh
# make bench: run dlbd's benchmarks next to their anchors and write
# build/bench.json (see scripts/bench/README.md).  Arguments go to
# cmd/dlbd-bench, e.g. scripts/bench/run.sh -run 'sgemm/n=512' -rounds 3.
set -eu
cd "$(dirname "$0")/../.."

# The anchors use Debian's packages: PyPI's torch wheel drags gigabytes of
# CUDA libraries, and without libopenblas0-pthread Debian's numpy falls
# back to the (slow) reference BLAS, which would make every ratio a lie.
PKGS="python3-numpy python3-torch python3-threadpoolctl libopenblas0-pthread"
PY=/usr/bin/python3
have_anchors() {
	[ -x "$PY" ] && "$PY" - <<'PYEOF' 2>/dev/null
import numpy, torch, threadpoolctl
from threadpoolctl import threadpool_info
assert any(d.get("internal_api") == "openblas" for d in threadpool_info())
PYEOF
}
if ! have_anchors; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		echo "bench: installing the anchors' Debian packages: $PKGS" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get install -y --no-install-recommends $PKGS >/dev/null ||
			{ apt-get update >/dev/null && apt-get install -y --no-install-recommends $PKGS >/dev/null; }
	else
		echo "bench: anchors need Debian packages; run as root: apt-get install $PKGS" >&2
		echo "bench: continuing without the anchors that cannot start" >&2
	fi
fi
exec go run ./cmd/dlbd-bench -python "$PY" "$@"
