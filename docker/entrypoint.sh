#!/usr/bin/env bash
# Container entry point: put the course notebooks into the student's volume, then start
# Jupyter on 0.0.0.0:8888 protected by a token (printed) or a password.
#
# Environment:
#   JUPYTER_TOKEN          token to use (default: a random one, printed at start)
#   JUPYTER_PASSWORD       plain password (hashed at start; then no token is needed)
#   JUPYTER_PASSWORD_HASH  a hash from jupyter_server.auth.passwd (preferred over a plain one)
#   DLBD_UI                lab (default) or notebook
#   DLBD_PORT              port inside the container (default 8888)
#   DLBD_DRY_RUN=1         print the Jupyter command instead of running it (tests)
set -euo pipefail

repo=${DLBD_REPO:-/opt/dlbd}
work=${DLBD_WORK:-$HOME/work}
ui=${DLBD_UI:-lab}
port=${DLBD_PORT:-8888}
course="$work/curso"
case "$ui" in lab|notebook) ;; *) echo "entrypoint: DLBD_UI must be lab or notebook, not '$ui'" >&2; exit 2 ;; esac

# Notebooks: copy new ones; update the ones the student has not changed (their checksum is the
# one we shipped last time); never overwrite the student's edits — the new version is put
# next to it as NAME.nuevo.ipynb.
mkdir -p "$course"
shipped="$course/.dlbd-shipped"
touch "$shipped"
for src in "$repo"/notebooks/*.ipynb; do
  name=$(basename "$src")
  dst="$course/$name"
  new=$(sha256sum "$src" | cut -d' ' -f1)
  if [ ! -e "$dst" ]; then
    cp "$src" "$dst"
  else
    cur=$(sha256sum "$dst" | cut -d' ' -f1)
    last=$(awk -v n="$name" '$2 == n {print $1}' "$shipped")
    if [ "$cur" != "$new" ]; then
      if [ "$cur" = "$last" ]; then
        cp "$src" "$dst"
      else
        cp "$src" "$course/${name%.ipynb}.nuevo.ipynb"
        echo "entrypoint: $name has your changes; the course's new version is ${name%.ipynb}.nuevo.ipynb"
      fi
    fi
  fi
  awk -v n="$name" '$2 != n' "$shipped" >"$shipped.tmp" && echo "$new $name" >>"$shipped.tmp" && mv "$shipped.tmp" "$shipped"
done

args=(--no-browser --ip=0.0.0.0 --port="$port" --ServerApp.port_retries=0
      --ServerApp.root_dir="$work" --MappingKernelManager.default_kernel_name=dlbd)
if [ -n "${JUPYTER_PASSWORD_HASH:-}" ] || [ -n "${JUPYTER_PASSWORD:-}" ]; then
  hash=${JUPYTER_PASSWORD_HASH:-}
  if [ -z "$hash" ]; then
    hash=$(JUPYTER_PASSWORD="$JUPYTER_PASSWORD" "$repo/.venv/bin/python" -c \
      'import os; from jupyter_server.auth import passwd; print(passwd(os.environ["JUPYTER_PASSWORD"]))')
  fi
  args+=(--PasswordIdentityProvider.hashed_password="$hash" --IdentityProvider.token=)
  echo "entrypoint: Jupyter ($ui) on port $port, protected by the configured password"
else
  token=${JUPYTER_TOKEN:-$("$repo/.venv/bin/python" -c 'import secrets; print(secrets.token_hex(24))')}
  args+=(--IdentityProvider.token="$token")
  echo "entrypoint: Jupyter ($ui) on port $port; open http://127.0.0.1:$port/$ui?token=$token (use the host port you mapped)"
fi
if [ "${DLBD_DRY_RUN:-}" = 1 ]; then
  printf '%q ' "$repo/.venv/bin/jupyter" "$ui" "${args[@]}"; echo
  exit 0
fi
exec "$repo/.venv/bin/jupyter" "$ui" "${args[@]}"
