// Package store is the rendezvous of a launched job: a small key-value
// store served over TCP by the launcher of node 0 (MASTER_ADDR:MASTER_PORT)
// and used by every rank, as torchrun's c10d TCPStore. The nccl backend
// passes its ncclUniqueId and its call checks through it, and a rank that
// fails sets the "abort" key, which every node's launcher watches.
//
// # Overview
//
// Serve answers connections until its listener closes; Dial connects a
// client; Set stores a value, Get returns it at once if present, Wait
// waits for it (or a timeout). Values are bytes.
//
// # Errors
//
// Every call returns an error for a broken connection; Get and Wait report
// an absent key with ok false.
//
// # Concepts
//
// The wire format is one request per frame: an op byte ('S', 'G'), then
// key and value as 4-byte big-endian length + bytes; the answer is a
// status byte (1 found, 0 not) and the value. Waiting is the client's
// polling, so the server keeps no per-client state.
package store
