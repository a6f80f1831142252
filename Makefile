# dlbd — `make notebook` to work, `make test` to check everything. See README.md.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
REPO := $(CURDIR)
export JUPYTER_PATH := $(REPO)/.jupyter$(if $(JUPYTER_PATH),:$(JUPYTER_PATH))
export GOTOOLCHAIN ?= local
PORT ?= 8888
UI ?= lab
NOTEBOOKS ?= $(sort $(wildcard notebooks/*.ipynb))
# TIMED prefixes make test's steps: each says how long it took (scripts/timed.sh).
TIMED := scripts/timed.sh

.PHONY: help notebook kernel test vet unit race-kernel notebooks browser doctor bench gpu-check clean lock-check docker-test classroom-test \
	bigdata-up bigdata-down spark-start spark-stop kafka-start kafka-stop cell-latency cluster-test

help:
	@echo "make notebook [UI=lab|notebook] [PORT=8888]  set up what is missing, then start Jupyter in notebooks/"
	@echo "make kernel                                  set up .venv, bin/, the dlbd kernelspec and assets"
	@echo "make test                                    vet, unit tests, kernel protocol tests, every notebook"
	@echo "make doctor                                  end-to-end check of the installed kernel"
	@echo "make lock-check                              requirements.lock resolves on every supported Python"
	@echo "make docker-test                             build the instructors' image and check it in a Docker engine"
	@echo "make classroom-test                          the classroom (JupyterHub, one container per student) with that image"
	@echo "make cluster-test                            Spark with 2 workers, Kafka with 3 brokers, MPI across 2 hosts (namespaces)"
	@echo "make bench                                   benchmarks with their anchors -> build/bench.json"
	@echo "make spark-start|spark-stop|kafka-start|kafka-stop  local servers of the Big Data notebooks"
	@echo "make cell-latency [KERNEL=dlbd]              cell latency with the Big Data packages linked"

kernel:
	@scripts/setup.sh

notebook: kernel
	@scripts/serve.sh $(UI) $(PORT)

doctor: kernel
	@bin/dlbd doctor

# test: everything CI checks. DLBD_REQUIRE_KERNEL=1 turns "kernel not installed" skips into failures.
# The Big Data servers (Spark Connect, Kafka) run for the whole suite and stop even when it fails.
test:
	@$(TIMED) scripts/setup.sh --test
	@$(TIMED) $(MAKE) --no-print-directory bigdata-up
	@trap '$(MAKE) --no-print-directory bigdata-down' EXIT; for t in vet unit notebooks browser cluster-test; do \
	  $(TIMED) $(MAKE) --no-print-directory $$t; done
	@for t in lock-check docker-test classroom-test; do $(TIMED) $(MAKE) --no-print-directory $$t; done

vet:
	go vet ./...
	GOARCH=arm64 go vet ./dl/...

# The tests pin their thread counts: dynamic threads (on by default, see dl.SetDynamicThreads) would
# run the 2-thread cases of a busy CI machine on 1 thread; their own tests switch them on.
unit race-kernel notebooks browser: export DLBD_DYNAMIC_THREADS := 0

# UNIT_PACKAGES: every package but kernel/stateful, whose tests (sessions compiling cells, several
# minutes) run once, under -race, below; the shipped kernel's session at full speed is what
# kernel/jupyter's tests drive.
UNIT_PACKAGES = $(shell go list ./... | grep -v -E '/kernel/stateful$$')

# NOASM_PACKAGES: dl's packages tested again on the pure-Go kernels (-tags dlbd_noasm). Left out:
# the ones that only train or launch through them (dl/scaling's scaling-law runs, dl/dist's
# ranks; their collectives' Go kernels are dl/dist/internal/reduce's, tested here and under -race).
NOASM_PACKAGES = $(shell go list ./dl/... | grep -v -E '/dl/(scaling|dist|dist/program|dist/launch)$$')

# DLBD_REQUIRE_MPI=1: the MPI tests (4 mpirun processes; dl/dist, dist/launch, dist/program) fail
# instead of skipping when Open MPI is missing (setup --test installs it).
unit:
	DLBD_REQUIRE_KERNEL=1 DLBD_REQUIRE_MPI=1 $(TIMED) go test $(UNIT_PACKAGES)
	$(TIMED) go test -run '^$$' -fuzz FuzzCheckMessage -fuzztime 10s ./kernel/frontend/
	$(TIMED) go test -run '^$$' -fuzz FuzzLimitedConnScan -fuzztime 10s ./kernel/frontend/
	$(TIMED) go test -race ./dl/dist/... ./dl/parallel/...
	$(TIMED) go test -race ./bigdata/mapreduce/ ./bigdata/shards/ ./bigdata/stream/ ./bigdata/natsbroker/
	$(TIMED) go test -race ./kernel/frontend/ ./kernel/stateful/... ./kernel/internal/... ./kernel/protocol/ ./kernel/cell/
	@$(TIMED) $(MAKE) --no-print-directory race-kernel
	$(TIMED) go test -tags dlbd_noasm $(NOASM_PACKAGES)
	CGO_ENABLED=0 $(TIMED) go test ./dl/internal/cuda/ ./dl/

# race-kernel: the kernel's protocol tests again, on a kernel built with -race (build/race/dlbd):
# the front end, the stateful session and the client meet there in every order; a data race the
# kernel reports fails the test that ran it.
race-kernel:
	go build -race -o build/race/dlbd ./kernel/cmd/dlbd
	DLBD_KERNEL_BINARY=$(REPO)/build/race/dlbd DLBD_REQUIRE_KERNEL=1 go test -race -count=1 ./kernel/jupyter/

# docker-test: build the instructors' image and check it in a Docker engine (scripts/docker/test.sh:
# starts Debian's docker.io as root when none runs; skipped, saying why, when no engine can be had).
docker-test:
	scripts/docker/test.sh

# cluster-test: real clusters on this machine (scripts/cluster/test.sh): a Spark standalone cluster
# (2 workers) equal to local mode and surviving a killed worker; 3 Kafka brokers losing their leader
# mid-stream; MPI collectives, DDP and ZeRO-3 across 2 network-namespace hosts over TCP (root only:
# skipped elsewhere, saying why); notebooks 01a and 01b unchanged on the cluster.
cluster-test:
	scripts/cluster/test.sh

# classroom-test: the classroom hub (docker/classroom) with the image docker-test built: students
# spawned at once, notebooks over the kernel websocket, isolation, limits, persistence, culling
# (scripts/docker/classroom-test.sh; the same engine and skip rules as docker-test).
# DLBD_CLASSROOM_STUDENTS=8 for the longer run.
classroom-test:
	scripts/docker/classroom-test.sh

# lock-check: requirements.lock installs (pip --dry-run) on each Python 3.10+ found here.
lock-check:
	scripts/docker/lock-check.sh

notebooks:
	bin/dlbd notebooks -out build/notebooks -html build/html $(NOTEBOOKS)

# browser: the nbconvert HTML of every executed notebook draws its charts (and shows the untrusted /
# missing-library messages) in headless Chromium; then JupyterLab from .venv runs a notebook live, and
# in another, Tab and Shift+Tab show the kernel's completions and docs. Screenshots of failures go to
# build/screenshots.
browser:
	DLBD_NOTEBOOK_HTML=$(REPO)/build/html DLBD_SCREENSHOTS=$(REPO)/build/screenshots DLBD_REQUIRE_BROWSER=1 \
	  go test -count=1 ./viz/browser -run TestNotebookHTML
	DLBD_LIVE=1 DLBD_SCREENSHOTS=$(REPO)/build/screenshots DLBD_REQUIRE_BROWSER=1 go test -count=1 ./viz/browser -run '^TestLiveJupyterLab(Assist)?$$'

# bench: Go benchmarks against anchors measured in the same run (NumPy/OpenBLAS, PyTorch CPU);
# writes build/bench.json. Options: make bench BENCH_ARGS='-run sgemm -rounds 7'
bench:
	scripts/bench/run.sh $(BENCH_ARGS)

# gpu-check: cross-build the CUDA test binaries into .gpu/ for a GPU machine without Go;
# run there from the repo root: bash scripts/gpu-check/run.sh (see scripts/gpu-check/README.md).
gpu-check:
	bash scripts/gpu-check/build.sh
	@echo "gpu-check: built .gpu/; on the GPU machine run: bash scripts/gpu-check/run.sh"

# Big Data servers (bigdata/): started detached, recorded under build/spark and build/kafka.
bigdata-up: spark-start kafka-start
bigdata-down: spark-stop kafka-stop

spark-start:
	bin/bdctl spark start
spark-stop:
	bin/bdctl spark stop
kafka-start:
	bin/bdctl kafka start
kafka-stop:
	bin/bdctl kafka stop

# cell-latency: a notebook cell's latency with nothing, arrow-go, the Spark client or DuckDB linked,
# each run changed so the cell is relinked. KERNEL names another kernelspec (the stateful mode).
KERNEL ?= dlbd
cell-latency: kernel
	bin/dlbd cell-latency -kernel $(KERNEL) -runs 9

clean:
	rm -rf build bin/.warm
