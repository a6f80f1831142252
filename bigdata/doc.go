// Package bigdata is the common query API of the course's two data engines, and the home of
// the Big Data packages: each sub-package does one job of the course's first half on a real
// engine, small enough to run on a 2-core laptop.
//
// # Overview
//
//   - [Engine] runs SQL and returns a [Result]; [github.com/dlbd/dlbd/bigdata/duck] (DuckDB,
//     embedded in the cell's process, nothing to start) and
//     [github.com/dlbd/dlbd/bigdata/spark] (a Spark Connect server, local or a cluster at
//     sc://host:port) implement it, so the same notebook query runs on both.
//   - mapreduce: the naive version first — a GFS/HDFS-style file of replicated blocks and a
//     MapReduce (map, shuffle by key, reduce) over goroutine workers that survives failed
//     tasks and dead nodes.
//   - columnar: Parquet and Arrow (arrow-go) against CSV and JSON.
//   - stream, natsbroker, kafka: event-time windows with a watermark over a real broker
//     (embedded NATS JetStream by default, Kafka in KRaft mode where Java is installed).
//   - shards: the DL pipeline's loader — Parquet shards streamed as Arrow record batches
//     into dl tensors, shuffled across shards, prefetched and split between DDP ranks.
//
// The dl packages never import these: data flows from bigdata into dl through dl/data's
// interfaces, so the tensor library stays free of Arrow and Parquet.
//
// # Errors
//
// Everything here touches files, processes or the network, so it returns errors; each one
// names the problem and the fix (the command to run, the option to change). Nothing waits
// without a deadline.
//
// # Concepts
//
// Course: "¿Qué es Big Data?", "Tecnologías clave del ecosistema Big Data" (almacenamiento
// distribuido, procesamiento batch, procesamiento en streaming, bases de datos para Big
// Data) and "Almacenamiento para pipelines de DL".
// Paper: Ghemawat et al. 2003 (GFS); Dean & Ghemawat 2004 (MapReduce); Zaharia et al. 2012
// (RDDs, NSDI'12); Armbrust et al. 2018 (Structured Streaming, SIGMOD'18).
package bigdata
