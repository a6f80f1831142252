// Package kafka runs the industry's broker where it can: a single Kafka 4 broker in KRaft
// mode (no ZooKeeper; the broker is its own controller) as a local JVM process, from the
// jars scripts/setup.sh copies from Maven Central into .kafka/libs, and a franz-go client
// (github.com/twmb/franz-go) that implements stream.Broker, so the streaming notebook runs
// the same pipeline on Kafka as on the embedded NATS broker.
//
// [Start] formats a fresh log directory and starts the broker on 127.0.0.1 (measured: up in
// ~5 s), detached and recorded like bigdata/spark's server; [Running] and [Stop] find and
// stop it from any process; [Connect] opens a client. Topics have one partition, so one
// consumer sees the events in publish order.
//
// Errors name the fix: missing Java (scripts/setup.sh installs it), missing jars (run
// scripts/setup.sh), a busy port, a broker that does not start (the end of its log).
//
// Course: "Procesamiento en streaming" (Apache Kafka: registro distribuido de eventos).
// Paper: Kreps, Narkhede & Rao 2011, Kafka: a Distributed Messaging System for Log
// Processing (NetDB'11).
package kafka
