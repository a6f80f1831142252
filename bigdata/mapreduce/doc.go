// Package mapreduce is the naive version first: a tiny distributed file system in the style
// of GFS/HDFS (files cut into fixed-size blocks, each block stored as replicas on several
// "nodes", a name node that knows where every block lives) and a MapReduce runtime over
// goroutine workers (map tasks, one per block, run where a replica lives; a shuffle that
// partitions the intermediate pairs by key; reduce tasks), with failed tasks re-run and
// dead nodes survived through replicas.
//
// # Overview
//
// A [DFS] keeps its nodes as directories (node-0/, node-1/, …) and its metadata in
// namenode.json, so a later notebook cell [Open]s the same file system. [DFS.Put] splits a
// file at byte offsets, as HDFS does, not at line ends: the split reader
// ([DFS.ReadSplit]) gives a map task the lines that start in its block, reading across
// the block boundary to finish the last one (Hadoop's LineRecordReader rule). [DFS.Kill]
// fails a node (its disk is lost); [DFS.Rereplicate] copies under-replicated blocks back to
// the replication factor, as the name node does.
//
// [Run] executes a [Job] and returns a [Report] of what happened: every task attempt, on
// which worker and node, whether it read its block locally, the bytes each reducer fetched
// in the shuffle. [WordCount] is the paper's example; [Words] is its tokenizer, the same
// rule bigdata/spark's word count writes in Spark SQL, so both give the same answer.
//
// Simplifications, each marked in the code: one process (workers are goroutines, the
// network is a function call); intermediate data stays in memory instead of the mappers'
// disks; replicas are placed round-robin instead of HDFS's rack-aware policy.
//
// # Errors
//
// File-system and job failures return errors: a block with no live replica names the block
// and the fix (a higher replication factor, Rereplicate before more nodes fail); a task
// that fails MaxAttempts times fails the job with its last error.
//
// # Concepts
//
// Course: "Almacenamiento distribuido" (GFS, HDFS) and "Procesamiento batch" (MapReduce,
// Apache Hadoop).
// Paper: Ghemawat, Gobioff & Leung 2003, The Google File System (SOSP'03); Dean & Ghemawat
// 2004, MapReduce: Simplified Data Processing on Large Clusters (OSDI'04).
package mapreduce
