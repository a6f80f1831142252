#!/usr/bin/env bash
# Container entry point: put the course notebooks into the student's volume, then start
# Jupyter on 0.0.0.0:8888 protected by a token (printed) or a password — or, given a command
# (docker run ... dlbd jupyter nbconvert ...), run that command instead of Jupyter.
#
# Behind JupyterHub (docker/classroom: DockerSpawner; Zero to JupyterHub: KubeSpawner): when the
# hub's JUPYTERHUB_API_TOKEN is set and there is no command, or the command is
# jupyterhub-singleuser (Z2JH's default cmd), or only options (--arg=...: a spawner's get_args),
# it starts jupyterhub-singleuser instead: the hub's OAuth instead of a token, the address and
# prefix the spawner gives (JUPYTERHUB_SERVICE_URL, JUPYTERHUB_SERVICE_PREFIX), the same course
# sync, root dir and default kernel. The spawner's options come last and win.
#
# Environment:
#   JUPYTER_TOKEN          token to use (default: a random one, printed at start)
#   JUPYTER_PASSWORD       plain password (hashed at start; then no token is needed)
#   JUPYTER_PASSWORD_HASH  a hash from jupyter_server.auth.passwd (preferred over a plain one)
#   DLBD_UI                lab (default) or notebook
#   DLBD_PORT              port inside the container (default 8888)
#   DLBD_CA_CERTS          extra CA certificates (PEM) to trust, e.g. a proxy's; default
#                          /run/secrets/ca_certs if mounted there (docker/with-ca.sh)
#   DLBD_DRY_RUN=1         print the Jupyter command and the JUPYTER_ variables left instead
#                          of running it (tests)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=${DLBD_REPO:-/opt/dlbd}
work=${DLBD_WORK:-$HOME/work}
ui=${DLBD_UI:-lab}
port=${DLBD_PORT:-8888}
course="$work/curso"
hub=0
if [ -n "${JUPYTERHUB_API_TOKEN:-}" ] && { [ $# -eq 0 ] || [[ "$1" == --* ]]; }; then
  hub=1
elif [ "${1:-}" = jupyterhub-singleuser ]; then
  shift
  hub=1
  if [ -z "${JUPYTERHUB_API_TOKEN:-}" ]; then
    echo "entrypoint: jupyterhub-singleuser needs the hub's environment (JUPYTERHUB_API_TOKEN, JUPYTERHUB_SERVICE_URL...);" >&2
    echo "  a spawner sets it. To run the image on its own, start it without a command (docker run ... dlbd)." >&2
    exit 2
  fi
fi
case "$ui" in lab|notebook) ;; *) echo "entrypoint: DLBD_UI must be lab or notebook, not '$ui'" >&2; exit 2 ;; esac

if ! mkdir -p "$course" 2>/dev/null || [ ! -w "$course" ]; then
  echo "entrypoint: cannot write to $work as $(id -un) (uid $(id -u)); it belongs to uid $(stat -c %u "$work" 2>/dev/null || echo '?')." >&2
  echo "  A named volume (-v dlbd-work:$work) gets the right owner by itself; a host directory" >&2
  echo "  needs it: sudo chown -R $(id -u):$(id -g) /path/on/the/host" >&2
  exit 1
fi

# Notebooks. .dlbd-shipped records the checksum of each notebook as the image last shipped it.
#   - new in the image: copied;
#   - unchanged by the student: updated in place when the image's copy changed;
#   - changed by the student: never overwritten. Only when the image's copy of it changed since
#     the last start is the new version put beside it, as NAME.nuevo.ipynb (once per change).
shipped="$course/.dlbd-shipped"
touch "$shipped"
# put SRC DST: copy atomically (a copy cut short by a stop would later pass for a student's edit).
put() { cp "$1" "$2.tmp-$$" && mv "$2.tmp-$$" "$2"; }
for src in "$repo"/notebooks/*.ipynb; do
  name=$(basename "$src")
  dst="$course/$name"
  new=$(sha256sum "$src" | cut -d' ' -f1)
  last=$(awk -v n="$name" '$2 == n {print $1}' "$shipped")
  if [ ! -e "$dst" ]; then
    put "$src" "$dst"
  else
    cur=$(sha256sum "$dst" | cut -d' ' -f1)
    if [ "$cur" = "$new" ] || [ "$new" = "$last" ]; then
      :  # up to date, or the student's edit of a notebook the image did not change
    elif [ "$cur" = "$last" ]; then
      put "$src" "$dst"
    else
      put "$src" "$course/${name%.ipynb}.nuevo.ipynb"
      echo "entrypoint: $name has your changes; the course's new version is ${name%.ipynb}.nuevo.ipynb"
    fi
  fi
  awk -v n="$name" '$2 != n' "$shipped" >"$shipped.tmp" && echo "$new $name" >>"$shipped.tmp" && mv "$shipped.tmp" "$shipped"
done

default_url=/lab
[ "$ui" = lab ] || default_url=/tree

# JupyterHub's single-user server: the hub authenticates (OAuth with JUPYTERHUB_API_TOKEN) and
# says where to listen (JUPYTERHUB_SERVICE_URL, e.g. http://0.0.0.0:8888/user/ana/); without
# that URL (an older spawner), 0.0.0.0 and DLBD_PORT.
if [ "$hub" = 1 ]; then
  args=(--ServerApp.root_dir="$work" --MappingKernelManager.default_kernel_name=dlbd
        --SingleUserNotebookApp.default_url="$default_url")
  [ -n "${JUPYTERHUB_SERVICE_URL:-}" ] || args+=(--ip=0.0.0.0 --port="$port")
  unset JUPYTER_TOKEN JUPYTER_PASSWORD JUPYTER_PASSWORD_HASH
  echo "entrypoint: jupyterhub-singleuser ($ui) for ${JUPYTERHUB_USER:-?} at ${JUPYTERHUB_SERVICE_URL:-0.0.0.0:$port}${JUPYTERHUB_SERVICE_PREFIX:+ (prefix $JUPYTERHUB_SERVICE_PREFIX)}"
  if [ "${DLBD_DRY_RUN:-}" = 1 ]; then
    printf '%q ' "$repo/.venv/bin/jupyterhub-singleuser" "${args[@]}" "$@"; echo
    env | grep '^JUPYTER_' || true
    exit 0
  fi
  DLBD_CA_KEEP=1 exec "$here/with-ca.sh" "$repo/.venv/bin/jupyterhub-singleuser" "${args[@]}" "$@"
fi

# A command instead of Jupyter: run it (with the extra CA certificates, if any).
if [ $# -gt 0 ]; then
  DLBD_CA_KEEP=1 exec "$here/with-ca.sh" "$@"
fi

args=(--no-browser --ip=0.0.0.0 --port="$port" --ServerApp.port_retries=0
      --ServerApp.root_dir="$work" --MappingKernelManager.default_kernel_name=dlbd)
# The token or the password's hash reaches Jupyter in a config file only the student can read,
# not on its command line (any user can read /proc/PID/cmdline), and the variables that held
# them are unset, so that kernels and the cells they run do not inherit them.
umask_was=$(umask)
umask 077
conf="$(mktemp -d "${TMPDIR:-/tmp}/dlbd-jupyter.XXXXXX")/jupyter_dlbd_config.json"
if [ -n "${JUPYTER_PASSWORD_HASH:-}" ] || [ -n "${JUPYTER_PASSWORD:-}" ]; then
  DLBD_CONF="$conf" "$repo/.venv/bin/python" -c '
import json, os
h = os.environ.get("JUPYTER_PASSWORD_HASH", "")
if not h:
    from jupyter_server.auth import passwd
    h = passwd(os.environ["JUPYTER_PASSWORD"])
json.dump({"PasswordIdentityProvider": {"hashed_password": h}, "IdentityProvider": {"token": ""}},
          open(os.environ["DLBD_CONF"], "w"))'
  echo "entrypoint: Jupyter ($ui) on port $port, protected by the configured password"
else
  token=${JUPYTER_TOKEN:-$("$repo/.venv/bin/python" -c 'import secrets; print(secrets.token_hex(24))')}
  DLBD_CONF="$conf" DLBD_TOKEN="$token" "$repo/.venv/bin/python" -c '
import json, os
json.dump({"IdentityProvider": {"token": os.environ["DLBD_TOKEN"]}}, open(os.environ["DLBD_CONF"], "w"))'
  echo "entrypoint: Jupyter ($ui) on port $port; open http://127.0.0.1:$port/$ui?token=$token (use the host port you mapped)"
  unset token
fi
umask "$umask_was"
unset JUPYTER_TOKEN JUPYTER_PASSWORD JUPYTER_PASSWORD_HASH
args+=(--config="$conf")
if [ "${DLBD_DRY_RUN:-}" = 1 ]; then
  printf '%q ' "$repo/.venv/bin/jupyter" "$ui" "${args[@]}"; echo
  env | grep '^JUPYTER_' || true
  exit 0
fi
DLBD_CA_KEEP=1 exec "$here/with-ca.sh" "$repo/.venv/bin/jupyter" "$ui" "${args[@]}"
