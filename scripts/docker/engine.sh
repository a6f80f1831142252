#!/usr/bin/env bash
# scripts/docker/engine.sh start|stop — a Docker engine for make docker-test.
#
#   start  use the engine the Docker CLI reaches; if there is none and this runs as root, install
#          Debian's docker.io when dockerd is missing, start dockerd in the background (log:
#          build/docker/dockerd.log) and wait until it answers. Exit status 3, with the reason on
#          stderr, when no engine can be had (not root, no apt-get, dockerd does not start).
#   stop   stop the dockerd that `start` started, and nothing else. Its data (/var/lib/docker:
#          images, the layer cache) stays, so the next run on this machine builds from cache.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

started="$state/dockerd.started"   # the pid of the dockerd this script started

no_engine() { printf '%s\n' "$*" >&2; exit 3; }

start() {
  pick_cli || true
  if engine_up; then
    say "using the running Docker engine ($("$docker_cli" version --format '{{.Server.Version}}'))"
    return 0
  fi
  local info=
  [ -z "${docker_cli:-}" ] || info=$("$docker_cli" info 2>&1 || true)
  if [[ "$info" == *"permission denied"* ]]; then
    no_engine "a Docker engine runs, but this user may not use it (add it to the group docker)"
  fi
  [ "$(id -u)" = 0 ] || no_engine "no Docker engine answers, and starting one needs root"
  if ! command -v dockerd >/dev/null || [ ! -x /usr/bin/docker ]; then
    command -v apt-get >/dev/null || no_engine "no Docker engine, and no apt-get to install Debian's docker.io"
    say "installing Debian's docker.io"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker.io; } \
      >"$state/apt-docker.log" 2>&1 || no_engine "apt-get install docker.io failed (see $state/apt-docker.log)"
  fi
  pick_cli || no_engine "no Docker CLI here can build with BuildKit (Debian's docker.io has one: apt-get install docker.io)"
  say "starting dockerd (log: $state/dockerd.log)"
  setsid dockerd >"$state/dockerd.log" 2>&1 </dev/null &
  echo $! >"$started"
  for _ in $(seq 60); do
    engine_up && { say "dockerd $("$docker_cli" version --format '{{.Server.Version}}') is up"; return 0; }
    kill -0 "$(cat "$started")" 2>/dev/null || break
    sleep 1
  done
  tail -5 "$state/dockerd.log" >&2 || true
  stop
  no_engine "dockerd did not start (see $state/dockerd.log)"
}

stop() {
  [ -s "$started" ] || return 0
  local pid
  pid=$(cat "$started")
  rm -f "$started"
  # A pid file left by a run that was killed may name another process by now.
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = dockerd ] || return 0
  say "stopping the dockerd this run started (pid $pid)"
  kill -TERM "$pid"
  for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || return 0; sleep 1; done
  say "dockerd (pid $pid) did not stop in 30 s; killing it"
  kill -KILL "$pid" 2>/dev/null || true
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
