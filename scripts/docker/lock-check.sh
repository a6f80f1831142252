#!/usr/bin/env bash
# scripts/docker/lock-check.sh [PYTHON...] — does requirements.lock install on every Python dlbd
# supports (3.10 and newer)? For each interpreter, pip resolves requirements.txt with the lock as
# constraints exactly as scripts/setup.sh installs it, but without installing (--dry-run, run by
# that interpreter: `pip --python`, so environment markers and Requires-Python are its own); then
# every package it would install must be pinned by the lock for that Python (a package the lock
# misses would come in at whatever version is newest).
#
# Interpreters: the arguments, or every Python 3.10+ found here: Debian's /usr/bin/python3 (the
# image's: 3.11.2 on Debian 12), python3.N on PATH and pyenv's versions ($PYENV_ROOT, default
# ~/.pyenv). Versions 3.10 to 3.13 must be among them: a Python that is missing fails the check
# (install it, or name interpreters).
# Needs the project's .venv (scripts/setup.sh) and the network to PyPI; `make lock-check`.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$repo"
pip=(.venv/bin/python -m pip)
[ -x .venv/bin/python ] || die "no .venv (run scripts/setup.sh first)"

pythons=("$@")
if [ ${#pythons[@]} -eq 0 ]; then
  pythons=(/usr/bin/python3)
  for n in 10 11 12 13 14 15; do pythons+=("$(command -v "python3.$n" || true)"); done
  # pyenv's versions, whether or not pyenv is on PATH.
  pyenv_root=${PYENV_ROOT:-$HOME/.pyenv}
  command -v pyenv >/dev/null && pyenv_root=$(pyenv root)
  for d in "$pyenv_root"/versions/3.*/bin/python3; do pythons+=("$d"); done
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check PY VERSION: resolve for PY; prints one line, and the reason on failure.
check() {
  local py=$1 v=$2
  if ! "${pip[@]}" --python "$py" install --disable-pip-version-check --dry-run --ignore-installed \
      --report "$tmp/report-$v.json" -r requirements.txt -c requirements.lock >"$tmp/pip-$v.log" 2>&1; then
    say "Python $v ($py): requirements.lock does not install:"
    grep -v -E '^ *(Collecting|Using|Downloading|Obtaining|Looking in|Would install|━)' "$tmp/pip-$v.log" | tail -15
    return 1
  fi
  # Every package pip chose is pinned by the lock for this Python, at the version pip chose.
  .venv/bin/python - "$v" "$tmp/report-$v.json" <<'EOF' || return 1
import json, sys
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

version, report = sys.argv[1], sys.argv[2]
env = {"python_version": ".".join(version.split(".")[:2]), "python_full_version": version}
locked = {}
for line in open("requirements.lock"):
    line = line.split("#")[0].strip()
    if line:
        r = Requirement(line)
        if r.marker is None or r.marker.evaluate(env):
            locked[canonicalize_name(r.name)] = str(r.specifier).removeprefix("==")
bad = []
for item in json.load(open(report))["install"]:
    name, got = canonicalize_name(item["metadata"]["name"]), item["metadata"]["version"]
    if locked.get(name) != got:
        bad.append(f"{name} {got} (lock: {locked.get(name, 'not pinned')})")
if bad:
    print(f"lock-check: Python {version}: not pinned by requirements.lock: " + ", ".join(bad))
    sys.exit(1)
EOF
  say "Python $v ($py): requirements.lock installs, every package pinned"
}

# One pip per interpreter, in parallel (they wait on the network); output in order.
declare -A seen=()
versions=()
for py in "${pythons[@]}"; do
  if [ -z "$py" ] || [ ! -x "$py" ]; then continue; fi
  v=$("$py" -c 'import platform; print(platform.python_version())' 2>/dev/null) || continue  # a pyenv shim of another version
  case "$v" in 3.[0-9].*|2.*) continue ;; esac   # older than 3.10: not supported
  [ -z "${seen[$v]:-}" ] || continue
  seen[$v]=$py
  versions+=("$v")
  check "$py" "$v" >"$tmp/out-$v" 2>&1 &
  echo $! >"$tmp/pid-$v"
done
fail=0
for v in "${versions[@]}"; do
  wait "$(cat "$tmp/pid-$v")" || fail=1
  cat "$tmp/out-$v"
done
if [ $# -eq 0 ]; then
  for need in 3.10 3.11 3.12 3.13; do
    found=0
    for v in "${!seen[@]}"; do case "$v" in "$need".*) found=1 ;; esac; done
    [ "$found" = 1 ] || { say "no Python $need here to check the lock with (install it, or name interpreters)"; fail=1; }
  done
fi
[ "$fail" = 0 ] || die "requirements.lock does not install on every supported Python (see above)"
