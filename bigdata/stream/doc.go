// Package stream is stream processing over a real broker: producers publish timestamped
// events to a topic, a consumer aggregates them in event-time windows closed by a
// watermark, and the same pipeline runs event-at-a-time or in micro-batches so their
// latency can be measured.
//
// # Overview
//
// A [Broker] is a topic-based log with consumers that read from the beginning:
// bigdata/natsbroker (NATS JetStream embedded in the process, nothing to start) and
// bigdata/kafka (a Kafka broker in KRaft mode, a JVM process) implement it.
//
// A [Windower] computes tumbling windows per key in event time — the time written in the
// event when the sensor measured it, not the time it arrives. Events arrive out of order;
// the watermark (the largest event time seen minus the allowed lateness, Spark's
// withWatermark) says up to when the input is complete: a window is emitted once the
// watermark passes its end, and an event for a window already emitted is late and dropped
// (counted in Late).
//
// [Run] drives a pipeline: a producer publishes [Events] at a fixed rate (their event
// times disordered by up to Disorder), and the consumer either handles every event as it
// arrives (Trigger 0: event-at-a-time, as Flink or Kafka Streams) or wakes every Trigger
// and handles everything that arrived since (micro-batches, Spark Structured Streaming's
// default). The [Report] has each event's latency from publish to processed, and the
// windows.
//
// # Errors
//
// Broker failures return errors; Run stops at its context's deadline.
//
// # Concepts
//
// Course: "Procesamiento en streaming" (Apache Kafka, Apache Flink, Spark Structured
// Streaming).
// Paper: Akidau et al. 2015, The Dataflow Model (VLDB'15) — event time, windows,
// watermarks; Armbrust et al. 2018, Structured Streaming (SIGMOD'18) — micro-batches.
package stream
