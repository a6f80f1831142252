"""JupyterHub configuration of the dlbd classroom: one server, one dlbd container per student.

Every setting comes from a DLBD_CLASSROOM_* variable, which docker/classroom/classroom.sh passes
to the hub's container (README.md, "For instructors: a classroom"). The hub runs with the host's
network: it reaches each student's container at its address on the students' network (an
--internal bridge with inter-container communication off, where students cannot reach each
other), and the students' servers reach the hub's API at that network's gateway, the host.
"""
import os
import re
import sys

import docker  # docker-py, which dockerspawner installs

c = get_config()  # noqa: F821 (defined by JupyterHub when it loads this file)


def env(name, default=""):
    value = os.environ.get(name, "").strip()
    return value if value else default


def required(name, why):
    value = env(name)
    if not value:
        sys.exit(f"jupyterhub_config: {name} is not set: {why} (classroom.sh passes DLBD_CLASSROOM_* to the hub)")
    return value


def integer(name, default):
    value = env(name, str(default))
    if not re.fullmatch(r"\d+", value):
        sys.exit(f"jupyterhub_config: {name}={value!r} is not a whole number")
    return int(value)


image = env("DLBD_CLASSROOM_IMAGE", "dlbd")
network = env("DLBD_CLASSROOM_NETWORK", "dlbd-classroom")
prefix = env("DLBD_CLASSROOM_PREFIX", "dlbd-student")
port = integer("DLBD_CLASSROOM_PORT", 8000)
hub_port = integer("DLBD_CLASSROOM_HUB_PORT", 8081)
proxy_api_port = integer("DLBD_CLASSROOM_PROXY_API_PORT", port + 1)

# --- network: the students' bridge and its gateway (the host, where the hub listens) ------------
try:
    net = docker.from_env().networks.get(network)
except docker.errors.NotFound:
    sys.exit(f"jupyterhub_config: no Docker network {network!r}; classroom.sh up creates it "
             "(docker network create --internal -o com.docker.network.bridge.enable_icc=false ...)")
gateways = [cfg.get("Gateway") for cfg in net.attrs["IPAM"]["Config"] if cfg.get("Gateway")]
if not gateways:
    sys.exit(f"jupyterhub_config: the network {network!r} has no gateway address; recreate it (classroom.sh down --all; classroom.sh up)")
gateway = gateways[0]

# Students' browsers: the proxy on every interface of the host, port DLBD_CLASSROOM_PORT.
c.JupyterHub.bind_url = f"http://:{port}"
# The hub's API, for the proxy and the students' servers only: on the students' gateway.
c.JupyterHub.hub_bind_url = f"http://{gateway}:{hub_port}"
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{proxy_api_port}"
# A restart of the hub (classroom.sh up after a change) leaves the students' servers running.
c.JupyterHub.cleanup_servers = False
c.JupyterHub.db_url = "sqlite:////srv/jupyterhub/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "/srv/jupyterhub/jupyterhub_cookie_secret"
# How often the hub reads activity from the proxy (the culler's idea of "idle" depends on it).
c.JupyterHub.last_activity_interval = integer("DLBD_CLASSROOM_ACTIVITY_INTERVAL", 300)

# --- sign-in ---------------------------------------------------------------------------------------
admin = required("DLBD_CLASSROOM_ADMIN", "the instructor's user name, admin of the hub")
# Names become container and volume names (dlbd-work-NAME): lower-case letters, digits, - and _.
c.Authenticator.username_pattern = r"^[a-z][a-z0-9_-]{0,31}$"
c.Authenticator.admin_users = {admin}
auth = env("DLBD_CLASSROOM_AUTH", "native")
if auth == "native":
    # Students sign up at /hub/signup; the instructor approves them at /hub/authorize. The
    # admin signs up first, with the admin name (approved by being admin).
    c.JupyterHub.authenticator_class = "nativeauthenticator.NativeAuthenticator"
    c.NativeAuthenticator.open_signup = False
    c.NativeAuthenticator.minimum_password_length = 8
    # Who may sign in is NativeAuthenticator's approval, not a list here.
    c.Authenticator.allow_all = True
    c.JupyterHub.template_paths = [os.path.join(os.path.dirname(__import__("nativeauthenticator").__file__), "templates")]
elif auth == "shared":
    # A workshop: any name that fits the pattern, one password for everybody (JupyterHub 5's
    # SharedPasswordAuthenticator); the admin signs in with a password of their own.
    c.JupyterHub.authenticator_class = "jupyterhub.authenticators.shared.SharedPasswordAuthenticator"
    c.SharedPasswordAuthenticator.user_password = required(
        "DLBD_CLASSROOM_PASSWORD", "the students' shared password (8 characters or more) with DLBD_CLASSROOM_AUTH=shared")
    c.SharedPasswordAuthenticator.admin_password = required(
        "DLBD_CLASSROOM_ADMIN_PASSWORD", "the admin's own password (32 characters or more) with DLBD_CLASSROOM_AUTH=shared")
    c.Authenticator.allow_all = True
else:
    sys.exit(f"jupyterhub_config: DLBD_CLASSROOM_AUTH={auth!r}: use native (sign-up, approved by the admin) or shared (one password)")

# --- the students' containers ----------------------------------------------------------------------
c.JupyterHub.spawner_class = "dockerspawner.DockerSpawner"
c.DockerSpawner.image = image
c.DockerSpawner.allowed_images = [image]
c.DockerSpawner.pull_policy = "never"  # the image is built on this server; nothing is pulled
c.DockerSpawner.network_name = network
c.DockerSpawner.use_internal_ip = True
c.DockerSpawner.name_template = prefix + "-{username}"
# Names as they are (username_pattern above keeps them valid Docker names): DockerSpawner's own
# escaping would turn ana-g into ana-2dg in the container's and the volume's names.
c.DockerSpawner.escape = lambda name: name
c.DockerSpawner.remove = True  # a stopped server's container goes; its volume stays
c.DockerSpawner.volumes = {"dlbd-work-{username}": "/home/student/work"}
c.DockerSpawner.notebook_dir = "/home/student/work"
# The image's entry point syncs the course into work/curso, then starts jupyterhub-singleuser.
c.DockerSpawner.cmd = ["jupyterhub-singleuser"]
# Docker's units, either case: 2G, 1536m.
c.DockerSpawner.mem_limit = env("DLBD_CLASSROOM_MEM", "2G").upper()
c.DockerSpawner.cpu_limit = float(env("DLBD_CLASSROOM_CPUS", "1"))
c.DockerSpawner.extra_host_config = {
    "pids_limit": integer("DLBD_CLASSROOM_PIDS", 512),
    # Open MPI's ranks share memory through /dev/shm (64 MB by default in Docker).
    "shm_size": env("DLBD_CLASSROOM_SHM", "1g"),
    "security_opt": ["no-new-privileges"],
    # No raw sockets: nothing crafted past the bridge's filters.
    "cap_drop": ["NET_RAW"],
}
c.DockerSpawner.environment = {
    "JUPYTERHUB_ACTIVITY_INTERVAL": str(integer("DLBD_CLASSROOM_ACTIVITY_INTERVAL", 300)),
}
c.Spawner.start_timeout = integer("DLBD_CLASSROOM_START_TIMEOUT", 300)
c.Spawner.http_timeout = integer("DLBD_CLASSROOM_START_TIMEOUT", 300)

# --- services: the idle culler, and an API token for the instructor's scripts ---------------------
services, roles = [], []
cull_timeout = integer("DLBD_CLASSROOM_CULL_TIMEOUT", 3600)
if cull_timeout > 0:
    services.append({
        "name": "idle-culler",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler",
                    f"--timeout={cull_timeout}", f"--cull-every={integer('DLBD_CLASSROOM_CULL_EVERY', 300)}"],
    })
    roles.append({"name": "idle-culler", "services": ["idle-culler"],
                  "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"]})
api_token = env("DLBD_CLASSROOM_API_TOKEN")
if api_token:
    if len(api_token) < 32:
        sys.exit("jupyterhub_config: DLBD_CLASSROOM_API_TOKEN must be 32 characters or more (openssl rand -hex 32)")
    services.append({"name": "classroom-admin", "api_token": api_token})
    roles.append({"name": "classroom-admin", "services": ["classroom-admin"],
                  "scopes": ["admin:users", "admin:servers", "tokens", "list:users", "read:users"]})
c.JupyterHub.services = services
c.JupyterHub.load_roles = roles
