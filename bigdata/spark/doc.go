// Package spark runs the course's Spark: it starts and stops a local Spark Connect server
// from the project's own install (pyspark's jars in .venv, Java from Debian), or connects to
// an existing cluster at sc://host:port, and gives a [Session] — the Spark Connect Go
// client (github.com/apache/spark-connect-go), the engine's own client — that also
// implements [bigdata.Engine].
//
// # Overview
//
// [Start] launches `spark-submit --class …SparkConnectServer` in local mode, detached so that
// it outlives the notebook cell that started it, and records it in a state file under
// Config.Dir; [Running] finds it again from any process and [Stop] stops it. [Ensure] is
// what a notebook cell calls: it connects to $SPARK_REMOTE when set (a cluster), else to the
// running local server, else starts one (tied to the kernel's life, so closing the notebook
// stops the JVM). A notebook opens one [Session] in a cell and uses it in the cells below
// (the kernel's stateful mode keeps it); [Session.Close] ends it on the server too (the Go
// client's Stop does not), and the kernel closes a session no cell closed when it shuts
// down or restarts, or on %reset.
//
// Sizing for a 2-core / 8 GB laptop: local[2] (two task slots), a 1 GB driver heap (the
// measured server used ~300 MB idle and ~600 MB after a workload), 4 shuffle partitions
// instead of Spark's 200 (with 200, tiny jobs spend their time scheduling empty tasks), the
// web UI off, everything bound to 127.0.0.1. Config changes each.
//
// Fault tolerance is visible: the local master is local[cores,maxFailures] with two
// attempts per task, and [InjectTaskFailure] makes the first attempt of a partition fail
// once, so a notebook can show Spark re-running the lost task ([TaskFailures] reads the
// re-runs from the server log).
//
// Limits of the Go client (its README calls it experimental): no UDFs, no streaming API,
// results collected whole into memory. Local paths in queries are paths on the server's
// machine: with a remote cluster, use storage the cluster reads.
//
// # Errors
//
// Missing Java, missing pyspark, a busy port, a server that exits or does not answer, an
// unreachable sc:// URL: each is an error naming the problem and the fix, returned within
// the configured timeouts ([ErrUnreachable], service errors for Java and ports).
//
// # Concepts
//
// Course: "Procesamiento batch" (Apache Spark, la era Spark 2012–2018).
// Paper: Zaharia et al. 2012, Resilient Distributed Datasets (NSDI'12); Armbrust et al.
// 2015, Spark SQL (SIGMOD'15).
package spark
