#!/usr/bin/env bash
# scripts/docker/classroom-test.sh — `make classroom-test`: the classroom (docker/classroom) in a
# Docker engine, with the image `make docker-test` built (dlbd:docker-test, or DLBD_CLASSROOM_IMAGE):
#
#   1. an engine, as docker-test gets one (scripts/docker/engine.sh: the running one, or Debian's
#      dockerd started here as root and stopped at the end); none: skipped, with the reason;
#   2. the hub's image (docker/classroom/Dockerfile) on the local Debian stand-in
#      (scripts/docker/bases.sh; DLBD_DOCKER_BASES=public: the Dockerfile's own), cached after
#      the first build;
#   3. go test -run TestClassroom ./docker/: a hub from classroom.sh, DLBD_CLASSROOM_STUDENTS
#      students (default 4) spawned at once, notebooks over the kernel websocket, isolation,
#      limits, persistence, the culler; and the image as Zero to JupyterHub runs it.
#
# DLBD_DOCKER_TEST=0 skips everything; DLBD_DOCKER_TEST=1 makes "no engine" a failure. Everything
# the tests create (hub, students' containers, networks, volumes) goes at the end, also on failure.
# Logs: build/docker/classroom-*.log.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
here="$repo/scripts/docker"
t_start=$(date +%s)

# --- 1. engine ---------------------------------------------------------------------------------
start_engine "the classroom"
# leftovers: what a killed test run may have left (the tests' own names only).
leftovers() {
  local ids vols
  ids=$(dk ps -aq --filter name=dlbd-ctest- --filter name=dlbd-hub-test- --filter name=dlbd-test-k8s- 2>/dev/null || true)
  # shellcheck disable=SC2086 # one id a word
  [ -z "$ids" ] || dk rm -f $ids >/dev/null 2>&1 || true
  for n in $(dk network ls -q --filter name=dlbd-classroom-test- 2>/dev/null); do dk network rm "$n" >/dev/null 2>&1 || true; done
  vols=$(dk volume ls -q 2>/dev/null | grep -E '^(dlbd-work-st[0-9a-f]{8}-[0-9]+|dlbd-hub-test-[0-9a-f]{8}-data)$' || true)
  # shellcheck disable=SC2086 # one name a word
  [ -z "$vols" ] || dk volume rm -f $vols >/dev/null 2>&1 || true
}
cleanup() {
  [ -z "${docker_cli:-}" ] || leftovers
  "$here/engine.sh" stop
}
trap cleanup EXIT
pick_cli || die "no Docker CLI that builds with BuildKit (Debian's docker.io has one)"

image=${DLBD_CLASSROOM_IMAGE:-dlbd:docker-test}
dk image inspect "$image" >/dev/null 2>&1 ||
  die "no image $image to give the students: make docker-test builds it (or set DLBD_CLASSROOM_IMAGE to an image of docker/Dockerfile)"

# --- 2. the hub's image ------------------------------------------------------------------------
export DLBD_DOCKER=$docker_cli
export DLBD_CLASSROOM_HUB_IMAGE=${DLBD_CLASSROOM_HUB_IMAGE:-dlbd-hub:classroom-test}
if [ "${DLBD_DOCKER_BASES:-local}" != public ]; then
  base=$("$here/bases.sh" | sed -n 's/^BASE=//p') || die "could not make the local base images (see above)"
  export DLBD_CLASSROOM_BASE=$base
fi
ca=${DLBD_CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}
if [ -s "$ca" ]; then export DLBD_CA_CERTS=$ca; else unset DLBD_CA_CERTS; fi
t0=$(date +%s)
"$repo/docker/classroom/classroom.sh" build
hub_s=$(( $(date +%s) - t0 ))
say "hub image $DLBD_CLASSROOM_HUB_IMAGE ready in $hub_s s (base ${DLBD_CLASSROOM_BASE:-debian:bookworm-slim})"

# --- 3. the tests ------------------------------------------------------------------------------
cd "$repo"
status=0
DLBD_CLASSROOM_IMAGE=$image go test -count=1 -timeout 30m -v -run '^TestClassroom' ./docker/ \
  2>&1 | tee "$state/classroom-test.log" || status=1
total=$(( $(date +%s) - t_start ))
say "report:"
grep -h 'REPORT' "$state/classroom-test.log" | sed 's/^ *[a-z_]*\.go:[0-9]*: REPORT /  /' || true
say "hub image in $hub_s s; classroom-test took $((total / 60)) min $((total % 60)) s in all"
[ "$status" = 0 ] || die "the classroom's tests failed (see above; log: $state/classroom-test.log)"
