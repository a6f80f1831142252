#!/usr/bin/env bash
# scripts/setup.sh — install what the dlbd kernel needs, skipping what is already done.
#
# One source of truth: `make kernel`, `make notebook`, `make test` and docker/Dockerfile all run
# this script. Everything goes inside the checkout (no root needed, nothing in GOPATH/bin):
#   .venv/                 Jupyter (JupyterLab 4, Notebook 7, nbconvert 7) from requirements.txt
#   bin/                   gonb, goimports (pinned as tools in go.mod) and the dlbd command
#   .assets/               ECharts from the npm registry, integrity-checked (viz)
#   .jupyter/kernels/dlbd  the kernelspec, found through JUPYTER_PATH=<repo>/.jupyter
# and warms the Go build cache so the first notebook cell does not take a minute.
#
# Usage: scripts/setup.sh [--test] [--no-warm]
#   --test     also install what the test suite needs (Debian's chromium for browser tests)
#   --no-warm  skip the build-cache warm-up
# DLBD_STRICT=1 (docker/Dockerfile): fail instead of falling back — to the unpinned
# requirements.txt, to no Spark or Kafka, or to the process-per-cell mode for lack of cgo.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
want_test=0 warm=1 strict=${DLBD_STRICT:-0}
for a in "$@"; do
  case "$a" in
    --test) want_test=1 ;;
    --no-warm) warm=0 ;;
    *) echo "setup: unknown option $a (use --test, --no-warm)" >&2; exit 2 ;;
  esac
done

# Every line says how long setup has run, so a slow step shows in CI's log.
setup_start=$(date +%s)
say() { printf 'setup: [%d s] %s\n' "$(( $(date +%s) - setup_start ))" "$*"; }
die() { printf 'setup: %s\n' "$*" >&2; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo "$@"; else return 1; fi; }

# --- Go ------------------------------------------------------------------------------------
command -v go >/dev/null || die "Go is not installed (or not on PATH). Install Go 1.26 or newer: https://go.dev/doc/install"
gov=$(go env GOVERSION 2>/dev/null || true)
case "$gov" in
  go1.2[6-9]*|go1.[3-9][0-9]*|go[2-9]*) ;;
  *) die "Go ${gov:-unknown} is too old: dlbd needs Go 1.26 or newer (go.mod). Install it from https://go.dev/doc/install" ;;
esac
export GOTOOLCHAIN=local GOFLAGS="${GOFLAGS:-}"

# --- Python and Jupyter in .venv -----------------------------------------------------------
py=${PYTHON:-python3}
command -v "$py" >/dev/null || die "python3 is not installed. Install Python 3.10+ (Debian/Ubuntu: apt-get install python3 python3-venv)"
"$py" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' ||
  die "$("$py" --version 2>&1) is too old: Jupyter here needs Python 3.10 or newer"
req_hash=$(cat requirements.txt requirements.lock | sha256sum | cut -c1-16)
stamp=.venv/.dlbd-requirements
if [ ! -x .venv/bin/jupyter ] || [ "$(cat "$stamp" 2>/dev/null)" != "$req_hash" ]; then
  if [ ! -x .venv/bin/python ]; then
    say "creating .venv (Python $("$py" -c 'import platform; print(platform.python_version())'))"
    if ! "$py" -m venv .venv 2>/tmp/dlbd-venv.err; then
      rm -rf .venv
      if as_root apt-get install -y -qq python3-venv >/dev/null 2>&1 && "$py" -m venv .venv; then :; else
        die "cannot create a virtual environment ($(tail -1 /tmp/dlbd-venv.err)). On Debian/Ubuntu: sudo apt-get install python3-venv"
      fi
    fi
  fi
  say "installing Jupyter into .venv (requirements.txt)"
  .venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip >/dev/null
  if ! .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt -c requirements.lock; then
    pyv=$(.venv/bin/python -c 'import platform; print(platform.python_version())')
    [ "$strict" != 1 ] || die "pip could not install the pinned set requirements.lock on Python $pyv (see pip's message above)"
    say "pip could not install the pinned set requirements.lock on Python $pyv (a pin there that does not support it, or no network: see above); retrying with requirements.txt alone (newest versions, not pinned)"
    .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt ||
      die "pip could not install Jupyter (no network to PyPI?). See README, Troubleshooting"
  fi
  echo "$req_hash" >"$stamp"
else
  say "Jupyter already in .venv"
fi

# --- Kernel tools --------------------------------------------------------------------------
# go build is incremental: a second run only checks that bin/ is up to date (~1 s).
say "building bin/gonb, bin/goimports, bin/dlbd"
mkdir -p bin
go build -o bin/ github.com/janpfeifer/gonb golang.org/x/tools/cmd/goimports ./kernel/cmd/dlbd
# Completion and inspection are the kernel's own (kernel/frontend answers Tab and Shift+Tab from
# go/types): an earlier checkout's optional bin/gopls would only make GoNB start it for nothing.
rm -f bin/gopls

# --- Assets (ECharts for viz) --------------------------------------------------------------
assets_env=()
if [ -x scripts/echarts/install.sh ]; then
  command -v npm >/dev/null || die "npm is not installed; viz needs it once to fetch ECharts (Debian/Ubuntu: apt-get install npm)"
  scripts/echarts/install.sh "$repo/.assets"
  assets_env=(-env "DLBD_ASSETS=$repo/.assets")
fi

# --- Kernelspec ----------------------------------------------------------------------------
bin/dlbd install -repo "$repo" "${assets_env[@]}"

# Background work still running when setup stops early (a failure, Ctrl-C) is killed, with the
# commands it started.
warm_pid='' kafka_pid=''
stop_background() {
  local p
  for p in ${warm_pid:-} ${kafka_pid:-}; do
    pkill -P "$p" 2>/dev/null || true
    kill "$p" 2>/dev/null || true
  done
}
trap stop_background EXIT

# --- Warm the build cache ------------------------------------------------------------------
# Cells are built with this module in a workspace; compiling every package once puts them in
# the build cache, so the first cell links instead of compiling the world. The build always
# runs (under a second when the cache is warm), so a cleared cache (`go clean -cache`) is warmed
# again; the stamp only decides whether to announce the long first time. It is CPU work, and
# the installs below mostly download: it runs in the background beside them, and is waited for
# (its failure reported) before setup says it is ready. (Go's build cache is safe for
# concurrent go commands.)
if [ "$warm" = 1 ]; then
  if [ "$strict" = 1 ] && [ "$(go env CGO_ENABLED)" != 1 ]; then
    die "DLBD_STRICT=1: cgo is off (CGO_ENABLED=0, or no C compiler such as gcc): stateful cells need it"
  fi
  stampw=bin/.warm
  src_hash=$( (go version; go env GOCACHE; git ls-files -s -- '*.go' go.mod go.sum 2>/dev/null || find . -name '*.go' -newer go.mod) | sha256sum | cut -c1-16)
  if [ "$(cat "$stampw" 2>/dev/null)" != "$src_hash" ]; then
    say "warming the Go build cache in the background (first time takes a few minutes)"
  fi
  (
    go build ./... github.com/janpfeifer/gonb/gonbui
    # Stateful cells are Go plugins: their dependencies are compiled once more
    # (-dynlink), and the kernel reads export data of the standard library and
    # this module. One cell built the kernel's way warms both (~30 s cold, ~4 s warm).
    bin/dlbd warm -repo "$repo"
    echo "$src_hash" >"$stampw"
  ) </dev/null &
  warm_pid=$!
fi

# --- Test extras ---------------------------------------------------------------------------
if [ "$want_test" = 1 ]; then
  test_hash=$(sha256sum requirements-test.txt | cut -c1-16)
  if [ "$(cat .venv/.dlbd-test-requirements 2>/dev/null)" != "$test_hash" ]; then
    say "installing test tools into .venv (requirements-test.txt)"
    .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-test.txt
    echo "$test_hash" >.venv/.dlbd-test-requirements
  fi
  missing=()
  command -v chromium >/dev/null || missing+=(chromium)
  command -v shellcheck >/dev/null || missing+=(shellcheck)
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing Debian packages for the tests: ${missing[*]}"
    if ! { as_root apt-get update -qq >/dev/null 2>&1 &&
           as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }; then
      die "could not install ${missing[*]} (needs root and Debian's packages): sudo apt-get install ${missing[*]}"
    fi
  fi
fi

# --- Big Data (bigdata/, notebooks 01a-01d): Java, Spark, Kafka ----------------------------
# Java from Debian (Spark 4 and Kafka 4 need 17+), pyspark into .venv (requirements-bigdata.txt,
# ~470 MB: Spark's jars), the Kafka broker's jars from Maven Central into .kafka/libs (mvn, ~43 MB),
# and bin/bdctl (start/stop the servers). DLBD_BIGDATA=0 skips it; with --test a failure is fatal.
if [ "${DLBD_BIGDATA:-1}" = 1 ]; then
  bd_fail() { if [ "$want_test" = 1 ] || [ "$strict" = 1 ]; then die "$*"; else say "warning: $* (the Big Data notebooks need it)"; fi; }
  java_major() { java -version 2>&1 | sed -nE 's/.*version "(1\.)?([0-9]+).*/\2/p' | head -1; }
  if ! command -v java >/dev/null || [ "$(java_major)" -lt 17 ] 2>/dev/null; then
    say "installing Java for Spark and Kafka (Debian's default-jre-headless)"
    as_root apt-get update -qq >/dev/null 2>&1 || true
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends default-jre-headless >/dev/null 2>&1 ||
      bd_fail "could not install Java 17+: sudo apt-get install default-jre-headless"
  fi
  bd_hash=$(sha256sum requirements-bigdata.txt | cut -c1-16)
  if [ "$(cat .venv/.dlbd-bigdata-requirements 2>/dev/null)" != "$bd_hash" ]; then
    say "installing Spark into .venv (requirements-bigdata.txt: pyspark, ~470 MB)"
    if .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-bigdata.txt; then
      echo "$bd_hash" >.venv/.dlbd-bigdata-requirements
    else
      bd_fail "pip could not install pyspark (no network to PyPI?)"
    fi
  fi
  kafka_hash=$(sha256sum scripts/kafka/pom.xml | cut -c1-16)
  if [ "$(cat .kafka/libs/.dlbd-pom 2>/dev/null)" != "$kafka_hash" ]; then
    if ! command -v mvn >/dev/null && [ "$want_test" = 1 ]; then
      say "installing Maven (Debian) to fetch the Kafka broker's jars"
      as_root apt-get update -qq >/dev/null 2>&1 || true
      as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends maven >/dev/null 2>&1 || true
    fi
    if command -v mvn >/dev/null; then
      # Mostly downloads: it runs in the background while the Go build cache is warmed below,
      # and is waited for (and its failure reported) before setup says it is ready.
      say "fetching the Kafka broker's jars into .kafka/libs in the background (scripts/kafka/pom.xml)"
      rm -rf .kafka/libs
      mvn -q -B -f scripts/kafka/pom.xml dependency:copy-dependencies -DincludeScope=runtime \
        -DoutputDirectory="$repo/.kafka/libs" >/tmp/dlbd-kafka-mvn.log 2>&1 </dev/null &
      kafka_pid=$!
    else
      [ "$strict" != 1 ] || die "DLBD_STRICT=1: Maven (mvn) is not installed, and Kafka's jars need it"
      say "Maven (mvn) is not installed: the streaming notebook will use NATS only (sudo apt-get install maven, then scripts/setup.sh)"
    fi
  fi
  go build -o bin/ ./bigdata/cmd/bdctl
fi

# --- Classic ML (notebook 02): scikit-learn ------------------------------------------------
# scikit-learn, numpy and scipy into .venv (requirements-ml.txt, ~270 MB): the classic-ML
# curves of notebook 02 on MNIST (scripts/ml/mnist_sklearn.py). DLBD_ML=0 skips it; with --test
# a failure is fatal.
if [ "${DLBD_ML:-1}" = 1 ]; then
  ml_hash=$(sha256sum requirements-ml.txt | cut -c1-16)
  if [ "$(cat .venv/.dlbd-ml-requirements 2>/dev/null)" != "$ml_hash" ]; then
    say "installing scikit-learn into .venv (requirements-ml.txt, ~270 MB)"
    if .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-ml.txt; then
      echo "$ml_hash" >.venv/.dlbd-ml-requirements
    elif [ "$want_test" = 1 ] || [ "$strict" = 1 ]; then
      die "pip could not install scikit-learn (no network to PyPI?)"
    else
      say "warning: pip could not install scikit-learn (no network to PyPI?) (notebook 02's classic-ML curves need it)"
    fi
  fi
fi

# --- Open MPI (dl/dist's mpi backend, `dlbd run --backend mpi`) ----------------------------
# dist loads libmpi.so.40 at run time without cgo; mpirun starts the ranks; mpicc (from
# libopenmpi-dev) builds the C anchor of the all-reduce benchmark. Installed for the tests;
# otherwise optional: without it the mpi backend says how to install it.
# Debian's openmpi-bin ships mpicc itself (a wrapper around gcc); without libopenmpi-dev it has no
# mpi.h, so the check compiles an include.
mpi_pkgs=(openmpi-bin libopenmpi3 libopenmpi-dev)
have_mpi() {
  command -v mpirun >/dev/null && command -v mpicc >/dev/null &&
    printf '#include <mpi.h>\nint main(void) { return 0; }\n' | mpicc -x c -fsyntax-only - >/dev/null 2>&1
}
if ! have_mpi; then
  if [ "$want_test" = 1 ]; then
    say "installing Debian packages for the MPI tests: ${mpi_pkgs[*]}"
    if ! { as_root apt-get update -qq >/dev/null 2>&1 &&
           as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${mpi_pkgs[@]}" >/dev/null; }; then
      die "could not install ${mpi_pkgs[*]} (needs root and Debian's packages): sudo apt-get install ${mpi_pkgs[*]}"
    fi
  else
    say "optional: Open MPI is not installed (multi-process training, notebook 11): sudo apt-get install ${mpi_pkgs[*]}"
  fi
fi

if [ -n "$warm_pid" ]; then
  wait "$warm_pid" || die "warming the Go build cache failed (see the go build or dlbd warm errors above)"
  warm_pid=
  say "Go build cache warm"
fi
if [ -n "${kafka_pid:-}" ]; then
  if wait "$kafka_pid"; then
    kafka_pid=
    echo "$kafka_hash" >.kafka/libs/.dlbd-pom
  else
    kafka_pid=
    bd_fail "mvn could not fetch Kafka's jars (see /tmp/dlbd-kafka-mvn.log)"
  fi
fi
say "ready: kernelspec dlbd in $repo/.jupyter (JUPYTER_PATH=$repo/.jupyter)"
