# shellcheck shell=bash
# scripts/docker/common.sh — sourced by the scripts beside it (make docker-test).
#
# Sets: repo (the checkout), state (build/docker: logs, the engine's pid), cache (kept between
# runs on one machine: debootstrap tarballs), and docker_cli, the Docker CLI that can build with
# BuildKit here. The Dockerfile needs BuildKit (RUN --mount=type=secret for a proxy's CA).
# Debian's docker.io 20.10 CLI builds with DOCKER_BUILDKIT=1 on its own; a newer CLI (23+)
# needs its buildx plugin for that, so a 28.x /usr/local/bin/docker without buildx cannot.

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
state="$repo/build/docker"
# shellcheck disable=SC2034 # used by the scripts that source this file
cache=${DLBD_DOCKER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dlbd-docker}
mkdir -p "$state"

say() { printf '%s: %s\n' "${0##*/}" "$*"; }
die() { printf '%s: %s\n' "${0##*/}" "$*" >&2; exit 1; }

# can_buildkit CLI: true when CLI can run a BuildKit build.
can_buildkit() {
  local v
  "$1" buildx version >/dev/null 2>&1 && return 0
  # (prints the client's version even when no engine answers)
  v=$("$1" version --format '{{.Client.Version}}' 2>/dev/null || true)
  # Before 23.0 the CLI carried BuildKit's client itself (DOCKER_BUILDKIT=1).
  [ -n "$v" ] && [ "${v%%.*}" -lt 23 ] 2>/dev/null
}

# pick_cli: sets docker_cli to the first CLI on PATH (or Debian's /usr/bin/docker) that builds
# with BuildKit; empty when none does.
pick_cli() {
  docker_cli=
  local c
  for c in ${DLBD_DOCKER:-} $(type -ap docker) /usr/bin/docker; do
    [ -x "$c" ] || continue
    if can_buildkit "$c"; then docker_cli=$c; return 0; fi
  done
  return 1
}

# dk ARGS...: the chosen CLI, with BuildKit on.
dk() { DOCKER_BUILDKIT=1 "$docker_cli" "$@"; }

# engine_up: true when the chosen CLI reaches a Docker engine.
engine_up() { [ -n "${docker_cli:-}" ] && "$docker_cli" info >/dev/null 2>&1; }

# dockerfile_arg NAME: the default value of ARG NAME in docker/Dockerfile.
dockerfile_arg() { sed -nE "s/^ARG $1=(.*)$/\1/p" "$repo/docker/Dockerfile" | head -1; }

# start_engine WHAT: an engine for the tests of WHAT (scripts/docker/engine.sh start: the running
# one, or Debian's dockerd started here as root). Exits 0, saying why, when DLBD_DOCKER_TEST=0 or
# when no engine can be had (a failure with DLBD_DOCKER_TEST=1); dies when one fails to start.
start_engine() {
  local mode=${DLBD_DOCKER_TEST:-auto} rc=0
  if [ "$mode" = 0 ]; then say "skipped (DLBD_DOCKER_TEST=0)"; exit 0; fi
  "$repo/scripts/docker/engine.sh" start 2>"$state/engine.err" || rc=$?
  if [ "$rc" = 3 ]; then
    [ "$mode" != 1 ] || die "no Docker engine: $(cat "$state/engine.err")"
    say "skipped: no Docker engine can be had here: $(cat "$state/engine.err")"
    say "($1 is checked where one can: as root, or in the group docker; DLBD_DOCKER_TEST=1 makes this a failure)"
    exit 0
  elif [ "$rc" != 0 ]; then
    cat "$state/engine.err" >&2
    die "could not start a Docker engine"
  fi
}
