#!/usr/bin/env bash
# Build, here (a machine with Go, no GPU needed), the test binaries that
# scripts/gpu-check/run.sh runs on a GPU machine that has no Go toolchain.
# CGO_ENABLED=0: purego loads the CUDA libraries at run time, so the
# binaries need nothing from the build machine but the Linux C library.
# Output: .gpu/*.test (git-ignored); carry .gpu to the GPU machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .gpu
rm -f .gpu/*.test
export CGO_ENABLED=0 GOOS=linux GOARCH=amd64
build() { # build PKG NAME: only packages that exist and have tests
	if [ -n "$(go list -f '{{if or .TestGoFiles .XTestGoFiles}}yes{{end}}' "$1" 2>/dev/null)" ]; then
		go test -c -o ".gpu/$2.test" "$1"
		echo "built .gpu/$2.test from $1"
	else
		echo "skipped $1 (absent or without tests)"
	fi
}
build ./dl/internal/cuda/ cuda # the binding: tests, Gemm and Copy benchmarks
build ./dl/ dl                 # package dl: the CUDA backend's tests (TestCUDA*)
build ./dl/bench/ bench        # dl/bench: notebook 05's matmul benchmark
build ./dl/dist/ dist          # dl/dist: CUDA ranks through NCCL, in-process and the nccl backend
git rev-parse HEAD >.gpu/commit 2>/dev/null || true
du -ch .gpu/*.test | tail -1
