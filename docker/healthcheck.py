"""Docker HEALTHCHECK: the Jupyter server answers its unauthenticated /api endpoint.

Standalone: http://127.0.0.1:$DLBD_PORT/api. Behind JupyterHub, the single-user server listens
where JUPYTERHUB_SERVICE_URL says (e.g. http://0.0.0.0:8888/user/ana/) and serves /api under
that prefix: /user/ana/api.
"""
import os
import sys
import urllib.parse
import urllib.request

service = os.environ.get("JUPYTERHUB_SERVICE_URL", "")
if service:
    u = urllib.parse.urlsplit(service)
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX") or u.path or "/"
    port = u.port or 8888
else:
    prefix, port = "/", int(os.environ.get("DLBD_PORT", "8888"))
if not prefix.endswith("/"):
    prefix += "/"
url = f"http://127.0.0.1:{port}{prefix}api"
try:
    with urllib.request.urlopen(url, timeout=4) as r:
        sys.exit(0 if r.status == 200 else 1)
except Exception as e:  # any failure means unhealthy
    print(f"healthcheck: {url}: {e}", file=sys.stderr)
    sys.exit(1)
