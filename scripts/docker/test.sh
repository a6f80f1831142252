#!/usr/bin/env bash
# scripts/docker/test.sh — `make docker-test`: build the instructors' image from a clean copy of the
# checkout and check it in a Docker engine (docker/image*_test.go), then build the CUDA variant's
# Dockerfile path on a stand-in base and check it too.
#
#   1. an engine: the running one, or Debian's docker.io started here as root and stopped at the
#      end (scripts/docker/engine.sh); none to be had: skipped, with the reason;
#   2. base images: local stand-ins (scripts/docker/bases.sh: debootstrap, this machine's Go),
#      since CI reaches no container registry; DLBD_DOCKER_BASES=public uses the Dockerfile's own;
#   3. the build context: the files git tracks or would track (no host builds, whatever
#      .dockerignore says), in build/docker/context;
#   4. the build, with this machine's CA bundle as the build secret ca_certs (DLBD_CA_CERTS, default
#      /etc/ssl/certs/ca-certificates.crt): the way through a TLS-inspecting proxy; time and size;
#   5. go test -run TestImage ./docker/ against it, while 6. the CUDA variant builds (then its
#      test; DLBD_DOCKER_CUDA=0: not).
#
# DLBD_DOCKER_TEST=0 skips everything; DLBD_DOCKER_TEST=1 makes "no engine" a failure.
# Logs: build/docker/. Kept between runs on one machine: the engine's images and build cache (trimmed
# to DLBD_DOCKER_KEEP_CACHE, default 10GB, at the end), the debootstrap tarball
# (~/.cache/dlbd-docker), so a second run rebuilds only what changed.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
here="$repo/scripts/docker"
t_start=$(date +%s)

# --- 1. engine ---------------------------------------------------------------------------------
start_engine "the image"
cleanup() {
  # This run's images replaced older ones; their untagged predecessors go (dlbd's only). The
  # build cache keeps this run's layers and cache mounts but not every earlier run's: each run
  # adds its ~3 GB of layers, and left alone the cache grew to 66 GB on the development machine
  # and filled its disk (the engine's own GC did not step in). DLBD_DOCKER_KEEP_CACHE sets the
  # bound (docker's sizes: 10GB).
  if [ -n "${docker_cli:-}" ]; then
    dk image prune -f --filter label=org.opencontainers.image.title=dlbd >/dev/null 2>&1 || true
    dk builder prune -f --keep-storage "${DLBD_DOCKER_KEEP_CACHE:-10GB}" >/dev/null 2>&1 ||
      say "warning: could not trim the build cache (docker builder prune --keep-storage)"
  fi
  "$here/engine.sh" stop
}
trap cleanup EXIT
pick_cli

# --- 2. base images ----------------------------------------------------------------------------
args=()
cuda_base=nvidia/cuda:12.9.1-runtime-ubuntu24.04
if [ "${DLBD_DOCKER_BASES:-local}" = public ]; then
  say "base images: the Dockerfile's own (pulled from their registry)"
else
  t0=$(date +%s)
  bases=$("$here/bases.sh" --cuda) || die "could not make the local base images (see above)"
  while IFS='=' read -r k v; do
    case "$k" in
      BASE|GO_IMAGE) args+=(--build-arg "$k=$v") ;;
      CUDA_BASE) cuda_base=$v ;;
    esac
  done <<<"$bases"
  say "base images ready in $(( $(date +%s) - t0 )) s"
  say "base images: local stand-ins (${args[*]}; CUDA: $cuda_base)"
fi

# --- 3. a clean copy of the checkout -----------------------------------------------------------
ctx="$state/context"
rm -rf "$ctx"
mkdir -p "$ctx"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) |
  tar -C "$ctx" -xf -
[ -x "$ctx/scripts/setup.sh" ] || die "could not copy the checkout (is $repo a git checkout?)"
version=$(git -C "$repo" describe --always --dirty 2>/dev/null || echo dev)

# --- 4. build ----------------------------------------------------------------------------------
ca=${DLBD_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}
secret=()
if [ -s "$ca" ]; then
  secret=(--secret "id=ca_certs,src=$ca")
  say "CA certificates for the build: $ca"
fi

# build NAME LOG BUILD-ARG...: docker build of the context; prints seconds taken.
build() {
  local name=$1 log=$2 t0
  shift 2
  t0=$(date +%s)
  if ! dk build --progress=plain -f "$ctx/docker/Dockerfile" "${secret[@]}" "$@" \
       --build-arg "VERSION=$version" -t "$name" "$ctx" >"$log" 2>&1; then
    tail -40 "$log" >&2
    die "docker build of $name failed (log: $log)"
  fi
  echo $(( $(date +%s) - t0 ))
}

image=dlbd:docker-test
say "building $image (log: $state/build.log)"
build_s=$(build "$image" "$state/build.log" "${args[@]}")
size=$(dk image inspect -f '{{.Size}}' "$image")
say "built $image in $((build_s / 60)) min $((build_s % 60)) s; image size $((size / 1000000)) MB"
# What the size is made of (du inside the image).
dk run --rm --entrypoint du "$image" -sh /usr/lib/jvm /usr/lib/gcc /usr/local/go /opt/go/pkg/mod /opt/go/cache \
  /opt/dlbd/.venv /opt/dlbd/.kafka /opt/dlbd/.assets /opt/dlbd/bin 2>/dev/null | sed "s/^/${0##*/}:   /" || true

# --- 5. the image's tests, while the CUDA variant builds (6.: its stages differ from the first
# build's from the base on, so they are built again; the download and Go caches are shared) ----
cuda_pid=
if [ "${DLBD_DOCKER_CUDA:-1}" != 0 ]; then
  cuda=dlbd:docker-test-cuda
  say "building $cuda on $cuda_base in the background (log: $state/build-cuda.log)"
  build "$cuda" "$state/build-cuda.log" "${args[@]}" --build-arg "BASE=$cuda_base" \
    >"$state/build-cuda.seconds" 2>"$state/build-cuda.err" &
  cuda_pid=$!
  trap '[ -z "$cuda_pid" ] || kill "$cuda_pid" 2>/dev/null; cleanup' EXIT
fi
cd "$repo"
status=0
DLBD_IMAGE=$image DLBD_DOCKER=$docker_cli DLBD_CA_CERTS=${secret:+$ca} go test -count=1 -timeout 30m -v -run '^TestImage(Runs|Trusts)' ./docker/ \
  2>&1 | tee "$state/test.log" || status=1

# --- 6. the CUDA variant's Dockerfile path on a stand-in base -----------------------------------
if [ -n "$cuda_pid" ]; then
  if wait "$cuda_pid"; then
    cuda_pid=
    cuda_s=$(cat "$state/build-cuda.seconds")
    say "built $cuda in $((cuda_s / 60)) min $((cuda_s % 60)) s (beside the tests above)"
    DLBD_CUDA_IMAGE=$cuda DLBD_DOCKER=$docker_cli go test -count=1 -timeout 10m -v -run '^TestImageCUDAVariant' ./docker/ \
      2>&1 | tee "$state/test-cuda.log" || status=1
  else
    cuda_pid=
    cat "$state/build-cuda.err" >&2
    status=1
  fi
fi

total=$(( $(date +%s) - t_start ))
say "image built in ${build_s} s, $((size / 1000000)) MB; docker-test took $((total / 60)) min $((total % 60)) s in all"
[ "$status" = 0 ] || die "the image's tests failed (see above; logs in $state)"
