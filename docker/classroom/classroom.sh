#!/usr/bin/env bash
# docker/classroom/classroom.sh up|down|status|build — a JupyterHub for a class on one Linux
# server with Docker: each student gets a container of the dlbd image (DockerSpawner), with
# limits, a volume of their own (dlbd-work-NAME) and no way to reach another student's
# container. README.md, "For instructors: a classroom".
#
#   up       build the hub's image (cached after the first time), create the students' network,
#            (re)start the hub; students' running servers are kept across a restart
#   down     stop the hub and the students' containers; their volumes (dlbd-work-NAME) and the
#            hub's data (users, sign-ups: volume NAME-data) stay. down --all also removes the
#            students' network.
#   status   the hub, and each student's container with its memory and CPU use
#   build    only build the hub's image
#
# Settings, from the environment (all optional but the admin; `export` them or put them in a
# file named by DLBD_CLASSROOM_ENV_FILE, which is sourced):
#   DLBD_CLASSROOM_ADMIN            the instructor's user name (required)
#   DLBD_CLASSROOM_AUTH             native (default: students sign up, the admin approves them at
#                                   /hub/authorize) or shared (one password for the workshop)
#   DLBD_CLASSROOM_PASSWORD         shared: the students' password (8+ characters)
#   DLBD_CLASSROOM_ADMIN_PASSWORD   shared: the admin's own password (32+ characters)
#   DLBD_CLASSROOM_IMAGE            the students' image (default dlbd: docker build -f docker/Dockerfile -t dlbd .)
#   DLBD_CLASSROOM_PORT             the port students open (default 8000, every interface)
#   DLBD_CLASSROOM_MEM, _CPUS, _PIDS, _SHM   per-student limits (2G, 1, 512, 1g)
#   DLBD_CLASSROOM_CULL_TIMEOUT     stop a server idle this many seconds (3600; 0: never);
#   DLBD_CLASSROOM_CULL_EVERY       checked every this many seconds (300)
#   DLBD_CLASSROOM_API_TOKEN        a token (32+ characters) for scripts using the hub's REST API
#                                   as admin (service classroom-admin)
#   DLBD_CLASSROOM_HUB              the hub's container name (dlbd-hub); _NETWORK (dlbd-classroom);
#                                   _PREFIX of the students' containers (dlbd-student); _HUB_PORT
#                                   the hub's API port on the students' gateway (8081)
#   DLBD_CLASSROOM_BASE             the hub image's Debian base (debian:bookworm-slim)
#   DLBD_CA_CERTS                   a proxy's CA (PEM) for the hub image's build (build secret ca_certs)
#   DLBD_DOCKER                     the Docker CLI (default docker; the build needs BuildKit)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
say() { printf 'classroom: %s\n' "$*"; }
die() { printf 'classroom: %s\n' "$*" >&2; exit 1; }

if [ -n "${DLBD_CLASSROOM_ENV_FILE:-}" ]; then
  [ -r "$DLBD_CLASSROOM_ENV_FILE" ] || die "cannot read DLBD_CLASSROOM_ENV_FILE=$DLBD_CLASSROOM_ENV_FILE"
  set -a
  # shellcheck disable=SC1090
  . "$DLBD_CLASSROOM_ENV_FILE"
  set +a
fi
docker_cli=${DLBD_DOCKER:-docker}
dk() { DOCKER_BUILDKIT=1 "$docker_cli" "$@"; }
hub=${DLBD_CLASSROOM_HUB:-dlbd-hub}
hub_image=${DLBD_CLASSROOM_HUB_IMAGE:-dlbd-hub}
network=${DLBD_CLASSROOM_NETWORK:-dlbd-classroom}
prefix=${DLBD_CLASSROOM_PREFIX:-dlbd-student}
image=${DLBD_CLASSROOM_IMAGE:-dlbd}
port=${DLBD_CLASSROOM_PORT:-8000}

need_engine() {
  command -v "$docker_cli" >/dev/null || die "no Docker CLI '$docker_cli' (install Docker, or set DLBD_DOCKER)"
  dk info >/dev/null 2>&1 || die "no Docker engine answers '$docker_cli info' (start dockerd, or run as a member of the group docker)"
}

build() {
  local log secret=()
  log=$(mktemp "${TMPDIR:-/tmp}/dlbd-hub-build.XXXXXX")
  [ -z "${DLBD_CA_CERTS:-}" ] || secret=(--secret "id=ca_certs,src=$DLBD_CA_CERTS")
  say "building the hub's image $hub_image (docker/classroom/Dockerfile)"
  if ! dk build --progress=plain -f "$here/Dockerfile" "${secret[@]}" \
       --build-arg "BASE=${DLBD_CLASSROOM_BASE:-debian:bookworm-slim}" -t "$hub_image" "$here/.." >"$log" 2>&1; then
    tail -30 "$log" >&2
    die "docker build of the hub's image failed (log: $log)"
  fi
  rm -f "$log"
}

students() { dk ps -a -q --filter "name=^/$prefix-"; }

up() {
  [ -n "${DLBD_CLASSROOM_ADMIN:-}" ] || die "DLBD_CLASSROOM_ADMIN is not set: export DLBD_CLASSROOM_ADMIN=<the instructor's user name>"
  need_engine
  dk image inspect "$image" >/dev/null 2>&1 ||
    die "no image '$image' for the students: build it (docker build -f docker/Dockerfile -t $image .) or set DLBD_CLASSROOM_IMAGE"
  build
  if ! dk network inspect "$network" >/dev/null 2>&1; then
    # --internal: no route out; enable_icc=false: no traffic between the students' containers.
    # The hub, on the host's network, reaches them through the bridge from the host.
    dk network create --internal -o com.docker.network.bridge.enable_icc=false \
      --label dlbd.classroom=students "$network" >/dev/null
    say "created the students' network $network"
  fi
  [ "$(dk network inspect -f '{{index .Options "com.docker.network.bridge.enable_icc"}}' "$network")" = false ] ||
    die "the network $network lets containers reach each other (enable_icc is not false): remove it (classroom.sh down --all) and run up again"
  if dk container inspect "$hub" >/dev/null 2>&1; then
    say "restarting the hub (students' servers keep running)"
    dk rm -f "$hub" >/dev/null
  fi
  local envs=() v
  for v in $(compgen -e); do
    case "$v" in DLBD_CLASSROOM_*) envs+=(-e "$v") ;; esac
  done
  dk run -d --name "$hub" --network host --restart unless-stopped \
    -v /var/run/docker.sock:/var/run/docker.sock -v "$hub-data:/srv/jupyterhub" \
    -e "DLBD_CLASSROOM_IMAGE=$image" -e "DLBD_CLASSROOM_NETWORK=$network" -e "DLBD_CLASSROOM_PREFIX=$prefix" \
    "${envs[@]}" "$hub_image" >/dev/null
  local i
  for i in $(seq 120); do
    if dk exec "$hub" python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$port/hub/api', timeout=3)" >/dev/null 2>&1; then
      say "the hub answers: http://$(hostname -f 2>/dev/null || hostname):$port/ (admin: $DLBD_CLASSROOM_ADMIN; sign-in: ${DLBD_CLASSROOM_AUTH:-native})"
      return 0
    fi
    [ "$(dk inspect -f '{{.State.Running}}' "$hub" 2>/dev/null)" = true ] || break
    [ "$i" -lt 120 ] && sleep 1
  done
  dk logs --tail 40 "$hub" >&2 || true
  die "the hub did not answer on port $port (its log is above: docker logs $hub)"
}

down() {
  need_engine
  if dk container inspect "$hub" >/dev/null 2>&1; then
    dk rm -f "$hub" >/dev/null
    say "stopped the hub $hub"
  fi
  local ids id
  ids=$(students)
  if [ -n "$ids" ]; then
    # One at a time: a container the culler or Docker's auto-remove is removing already says so
    # and goes anyway.
    for id in $ids; do dk rm -f "$id" >/dev/null 2>&1 || true; done
    for _ in $(seq 30); do [ -z "$(students)" ] && break; sleep 1; done
    [ -z "$(students)" ] || die "could not remove the students' containers $(students | tr '\n' ' ')(docker rm -f them)"
    say "stopped $(wc -w <<<"$ids") students' containers (their volumes dlbd-work-* stay)"
  fi
  if [ "${1:-}" = --all ] && dk network inspect "$network" >/dev/null 2>&1; then
    dk network rm "$network" >/dev/null
    say "removed the network $network"
  fi
}

status() {
  need_engine
  dk ps -a --filter "name=^/$hub\$" --format 'hub: {{.Names}} {{.Status}}'
  local ids
  ids=$(students)
  if [ -z "$ids" ]; then say "no students' containers"; return 0; fi
  # shellcheck disable=SC2086 # one id a word
  dk stats --no-stream --format '{{.Name}} mem {{.MemUsage}} cpu {{.CPUPerc}} pids {{.PIDs}}' $ids
}

case "${1:-}" in
  up) up ;;
  down) down "${2:-}" ;;
  status) status ;;
  build) need_engine; build ;;
  *) echo "usage: $0 up|down [--all]|status|build" >&2; exit 2 ;;
esac
