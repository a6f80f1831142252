#!/usr/bin/env bash
# scripts/serve.sh UI PORT — start JupyterLab (UI=lab) or Notebook 7 (UI=notebook) from .venv
# on 127.0.0.1:PORT with a token, in notebooks/, with the dlbd kernelspec on JUPYTER_PATH.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ui=${1:-lab} port=${2:-8888}
case "$ui" in
  lab|notebook) ;;
  *) echo "serve: UI must be lab or notebook, not '$ui' (make notebook UI=notebook)" >&2; exit 2 ;;
esac
case "$port" in
  ''|*[!0-9]*) echo "serve: PORT must be a number, not '$port'" >&2; exit 2 ;;
esac
jupyter="$repo/.venv/bin/jupyter"
[ -x "$jupyter" ] || { echo "serve: no Jupyter in $repo/.venv; run make kernel" >&2; exit 1; }
if ! "$repo/.venv/bin/python" - "$port" <<'PY'
import socket, sys
s = socket.socket()
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)
PY
then
  echo "serve: port $port on 127.0.0.1 is busy (another Jupyter running?); use another one: make notebook PORT=$((port + 1))" >&2
  exit 1
fi
export JUPYTER_PATH="$repo/.jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
echo "serve: starting Jupyter ${ui} on http://127.0.0.1:$port (the URL with its token follows); stop with Ctrl+C"
exec "$jupyter" "$ui" --no-browser --ip=127.0.0.1 --port="$port" --ServerApp.port_retries=0 \
  --ServerApp.root_dir="$repo/notebooks" --MappingKernelManager.default_kernel_name=dlbd
