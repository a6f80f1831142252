#!/usr/bin/env bash
# scripts/timed.sh CMD [ARGS...] — runs CMD, then says how long it took and its exit status:
# make test prefixes its steps with it, so CI's log shows where the time goes.
start=$(date +%s)
"$@"
rc=$?
cmd="$*"
[ ${#cmd} -le 100 ] || cmd="${cmd:0:97}..."
printf 'timed: %d s (exit %d): %s\n' "$(( $(date +%s) - start ))" "$rc" "$cmd"
exit "$rc"
