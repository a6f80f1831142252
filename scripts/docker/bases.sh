#!/usr/bin/env bash
# scripts/docker/bases.sh [--cuda] — local stand-ins for the Dockerfile's base images, for machines
# that reach no container registry (CI). Instructors never need this: `docker build` pulls the
# public images.
#
#   dlbd-local/debian:<release>-slim   debootstrap (minbase) of the Debian release of the
#                                      Dockerfile's default BASE, from Debian's packages (the
#                                      mirror debootstrap picks, or DLBD_DEBIAN_MIRROR), with its
#                                      updates and security suites, imported with `docker import`
#   dlbd-local/golang:<version>        this machine's Go toolchain (GOROOT) at /usr/local/go, the
#                                      one path the Dockerfile copies from its GO_IMAGE stage
#   dlbd-local/cuda-standin:<release>  (--cuda) what the CUDA variant's base changes for the
#                                      Dockerfile, on that Debian base: a user `ubuntu` with uid
#                                      1000, as Ubuntu's and NVIDIA's CUDA images have, and
#                                      NVIDIA's environment. No CUDA libraries and not Ubuntu
#                                      (only Debian's packages are reachable here): it tests the
#                                      Dockerfile's path with such a base, not the GPU.
#
# Prints the build arguments that select them (BASE=..., GO_IMAGE=..., CUDA_BASE=...), one a
# line. The debootstrap tree is kept as a tarball in $DLBD_DOCKER_CACHE (default
# ~/.cache/dlbd-docker) and imported only when the engine lacks an image made from that tarball,
# so Docker's layer cache survives between runs; remove the tarball to refresh it.
# Needs root (debootstrap) and debootstrap (installed with apt-get when missing).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# Progress goes to stderr: stdout carries the build arguments.
say() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
pick_cli || die "no Docker CLI that builds with BuildKit (scripts/docker/engine.sh start)"

want_cuda=0
for a in "$@"; do
  case "$a" in
    --cuda) want_cuda=1 ;;
    *) die "unknown option $a (use --cuda)" ;;
  esac
done
mkdir -p "$cache"

# import_tar TAR IMAGE CHANGE...: docker import TAR as IMAGE unless IMAGE was made from it.
import_tar() {
  local tar=$1 image=$2 sum have
  shift 2
  sum=$(sha256sum "$tar" | cut -c1-16)
  have=$(dk image inspect --format '{{index .Config.Labels "dlbd.source"}}' "$image" 2>/dev/null || true)
  [ "$have" = "$sum" ] && return 0
  local change=(--change "LABEL dlbd.source=$sum")
  for c in "$@"; do change+=(--change "$c"); done
  say "importing $image"
  dk import "${change[@]}" "$tar" "$image" >/dev/null
}

need_debootstrap() {
  [ "$(id -u)" = 0 ] || die "debootstrap needs root"
  command -v debootstrap >/dev/null && return 0
  say "installing debootstrap"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
}

# rootfs_tar NAME TAR FIX SUITE [MIRROR]: debootstrap SUITE into a temporary tree, let the
# function FIX adjust it, and tar it to TAR (atomically). Kept when TAR exists.
rootfs_tar() {
  local name=$1 tar=$2 fix=$3 suite=$4 mirror=${5:-}
  [ -s "$tar" ] && return 0
  need_debootstrap
  local root
  root=$(mktemp -d "$cache/.root.XXXXXX")
  # shellcheck disable=SC2064
  trap "rm -rf '$root'" EXIT
  say "debootstrap $name (log: $state/debootstrap-$name.log; a few minutes, once per machine)"
  if ! debootstrap --variant=minbase "$suite" "$root" ${mirror:+"$mirror"} >"$state/debootstrap-$name.log" 2>&1; then
    tail -5 "$state/debootstrap-$name.log" >&2
    die "debootstrap $name failed (see $state/debootstrap-$name.log)"
  fi
  "$fix" "$root"
  # As Docker's official images: no package lists or downloaded packages, no docs, man pages
  # or translations in later installs either.
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb "$root"/var/log/*.log
  cat >"$root/etc/dpkg/dpkg.cfg.d/dlbd-slim" <<'EOF'
# dlbd stand-in base: keep documentation out of installed packages (copyright files stay)
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
EOF
  tar --numeric-owner -C "$root" -cf "$tar.tmp" .
  mv "$tar.tmp" "$tar"
  rm -rf "$root"
  trap - EXIT
}

# --- Debian: the release of the default BASE ---------------------------------------------------
base=$(dockerfile_arg BASE)           # debian:bookworm-slim
release=${base#debian:}
release=${release%-slim}
[ "$release" != "$base" ] || die "the Dockerfile's default BASE ($base) is not a debian:RELEASE-slim image"
# Debian's layout: the updates suite beside the release, security in the mirror's sibling
# debian-security (or DLBD_DEBIAN_SECURITY_MIRROR).
fix_debian() {
  local m
  m=$(awk '$1 == "deb" { print $2; exit }' "$1/etc/apt/sources.list")
  [ -n "$m" ] || die "debootstrap wrote no mirror into /etc/apt/sources.list"
  rm -f "$1/etc/apt/sources.list"
  cat >"$1/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $m
Suites: $release $release-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${DLBD_DEBIAN_SECURITY_MIRROR:-${m%/debian}/debian-security}
Suites: $release-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
}
rootfs_tar "debian-$release" "$cache/debian-$release-minbase.tar" fix_debian "$release" "${DLBD_DEBIAN_MIRROR:-}"
debian_image="dlbd-local/debian:$release-slim"
import_tar "$cache/debian-$release-minbase.tar" "$debian_image" 'CMD ["bash"]' \
  'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
echo "BASE=$debian_image"

# --- Go: this machine's toolchain, the Go minor version of the default GO_IMAGE ----------------
goimage=$(dockerfile_arg GO_IMAGE)    # golang:1.26-bookworm
wantgo=${goimage#golang:}
wantgo=go${wantgo%%-*}
gov=$(go env GOVERSION)
case "$gov" in "$wantgo"|"$wantgo".*) ;; *) die "the Dockerfile builds with $goimage, but this machine's Go is $gov" ;; esac
gotar="$cache/go-$gov.tar"
goroot=$(go env GOROOT)
if [ ! -s "$gotar" ]; then
  tar --numeric-owner --owner=0 --group=0 -cf "$gotar.tmp" --transform "s,^\.,usr/local/go," -C "$goroot" .
  mv "$gotar.tmp" "$gotar"
fi
go_image="dlbd-local/golang:${gov#go}"
import_tar "$gotar" "$go_image"
echo "GO_IMAGE=$go_image"

# --- CUDA stand-in: the uid-1000 user and the environment of NVIDIA's images --------------------
if [ "$want_cuda" = 1 ]; then
  cuda_image="dlbd-local/cuda-standin:$release"
  # Built, not imported: on top of the Debian image above, so it changes only when that does.
  dk build -q -t "$cuda_image" - >/dev/null <<EOF
FROM $debian_image
RUN useradd --create-home --uid 1000 --shell /bin/bash ubuntu
ENV PATH=/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \\
    LD_LIBRARY_PATH=/usr/local/nvidia/lib:/usr/local/nvidia/lib64 \\
    NVIDIA_VISIBLE_DEVICES=all NVIDIA_DRIVER_CAPABILITIES=compute,utility
EOF
  echo "CUDA_BASE=$cuda_image"
fi
