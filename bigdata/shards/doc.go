// Package shards is the DL pipeline's loader: it streams a dataset of Parquet shards (as
// Spark writes them) as Arrow record batches into dl tensors, shuffling across shards,
// preparing batches in the background, and giving each DDP rank its own shards.
//
// # Overview
//
// A [Loader] has the methods of data.DataLoader — Len() and Epoch(e) — so a training loop
// written for an in-memory loader takes it unchanged. Epoch e:
//
//  1. orders the shards with data.DistributedSampler over shard indices (seed + epoch, rank
//     r of R takes positions r, r+R, …): ranks read disjoint shards, and every epoch
//     another order;
//  2. opens Interleave shards at once and takes one Arrow record batch from each in turn,
//     so rows of several shards mix (a shard is often one source, one day, one class);
//  3. passes rows through a shuffle buffer (tf.data's shuffle(buffer_size), WebDataset's
//     shuffle): a random row of the buffer leaves as each new row enters;
//  4. cuts batches of x = Features as float32 [B, F] and y = Label as float32 [B] (class
//     indices, as dl.CrossEntropy takes them), prepared Prefetch batches ahead by a
//     goroutine that ends with the epoch or when the loop stops early.
//
// Every rank yields the same number of batches, Len(), computed from the shards' row counts
// (their footers, read once): DDP ranks must take the same number of steps or a collective
// waits forever. The rows past Len() batches are left out of that epoch (like drop_last).
//
// [Stats] counts what the training loop waited for: the idle share of a step is
// Stats.Wait over the epoch's time. [LoadAll] reads every shard into a data.TensorDataset,
// the in-memory loader to compare with, and [ReadBandwidth] measures how fast the files'
// bytes come off the disk (or the page cache).
//
// # Errors
//
// New validates every shard's footer: a file that is not Parquet, a shard without a
// column, a column of another type than in the first shard, are errors naming the shard,
// the column and the fix. An error while streaming ends the epoch early; Err returns it.
//
// # Concepts
//
// Course: "Almacenamiento para pipelines de DL" («datos de entrenamiento (TB–PB de
// datasets)»), "Data Parallelism (DP)".
// Paper: Mohan et al. 2021, Analyzing and Mitigating Data Stalls in DNN Training
// (VLDB'21): data stalls are the time a GPU waits for input.
package shards
