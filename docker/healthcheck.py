"""Docker HEALTHCHECK: the Jupyter server answers its unauthenticated /api endpoint."""
import os
import sys
import urllib.request

port = os.environ.get("DLBD_PORT", "8888")
try:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api", timeout=4) as r:
        sys.exit(0 if r.status == 200 else 1)
except Exception as e:  # any failure means unhealthy
    print(f"healthcheck: {e}", file=sys.stderr)
    sys.exit(1)
