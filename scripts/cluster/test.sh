#!/usr/bin/env bash
# scripts/cluster/test.sh — `make cluster-test`: real clusters on this machine (README, "Clusters").
#
#   1. Spark: a standalone cluster (a master, 2 workers of 1 core, Spark Connect on it): a word
#      count and a groupBy equal to local mode with tasks on both workers, then a worker killed
#      mid-job (bigdata/spark TestCluster); Kafka: 3 brokers, the partition leader killed while
#      100,000 records are produced with acks=all (bigdata/kafka TestClusterFailover).
#   2. Hosts: network namespaces as 2 hosts (internal/netns): the MPI collectives, DDP and ZeRO-3
#      with Open MPI's TCP transport between them, a rank killed on the second host; and the
#      torchrun-style path, `dlbd run --backend tcp --nnodes 2 --node-rank R --master-addr A` with
#      one launcher in each host (DDP equal to one device, a killed rank named). Needs root and
#      `ip`; elsewhere this part is skipped, saying why (DLBD_REQUIRE_NETNS=1: a failure).
#   3. The notebooks 01a and 01b, unchanged, on a cluster started as the README says
#      (bdctl spark cluster start --workers 2, SPARK_REMOTE=sc://127.0.0.1:15003).
#
# Every server and namespace it starts is stopped, also on failure: the tests stop their own
# (and their servers die with the test process), and the trap below stops the notebooks' cluster.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
start=$(date +%s)
say() { echo "cluster-test: $*"; }

go build -o bin/ ./bigdata/cmd/bdctl ./kernel/cmd/dlbd
trap 'bin/bdctl spark cluster stop || say "warning: could not stop the notebooks cluster"' EXIT

t=$(date +%s)
mkdir -p build
rc=0
DLBD_CLUSTER_TEST=1 go test -count=1 -v -run '^TestCluster' ./bigdata/spark/ ./bigdata/kafka/ >build/cluster-test.log 2>&1 || rc=$?
# The tests' own lines (what ran where, the failover's figures) and the verdicts; all of it on failure.
if [ "$rc" = 0 ]; then grep -E '^(\s*---|ok|FAIL)|cluster_test.go' build/cluster-test.log; else cat build/cluster-test.log; say "FAILED: Spark/Kafka clusters"; exit 1; fi
say "Spark and Kafka clusters: $(( $(date +%s) - t )) s"

t=$(date +%s)
netns=${DLBD_REQUIRE_NETNS:-}
if [ -z "$netns" ] && [ "$(id -u)" = 0 ] && command -v ip >/dev/null; then netns=1; fi
[ "$netns" = 1 ] || say "not root or no \`ip\`: the cross-host tests will skip, saying why"
DLBD_REQUIRE_NETNS=${netns:-0} DLBD_REQUIRE_MPI=1 go test -count=1 -run AcrossHosts ./internal/netns/ ./dl/dist/ ./dl/dist/program/ ./dl/dist/launch/
say "hosts (network namespaces): $(( $(date +%s) - t )) s"

t=$(date +%s)
bin/bdctl spark cluster start --workers 2
SPARK_REMOTE=sc://127.0.0.1:15003 bin/dlbd notebooks -out build/notebooks-cluster \
  notebooks/01a-mapreduce-y-spark.ipynb notebooks/01b-formatos-columnares-y-sql.ipynb
bin/bdctl spark cluster stop
say "notebooks 01a, 01b on the cluster: $(( $(date +%s) - t )) s"
say "passed in $(( $(date +%s) - start )) s"
