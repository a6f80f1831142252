// Package natsbroker is the streaming notebook's default broker: a NATS server with
// JetStream (its persistent, replayable log) embedded in the process, on 127.0.0.1 and a
// random port, so every cell can start one in milliseconds with nothing installed. It
// implements stream.Broker: a topic is a JetStream stream whose subject is the topic name,
// read by an ordered consumer from the first message.
//
// The log is stored in a directory: a later cell that starts a broker on the same
// directory finds the events again (the durability a log-based broker gives).
//
// Course: "Procesamiento en streaming". NATS is a CNCF project; JetStream adds persistence
// and replay, the role Kafka's log plays.
package natsbroker
