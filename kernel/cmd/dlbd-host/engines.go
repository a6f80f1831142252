package main

// The Big Data engines' implementations. The session builds this program and
// every cell's plugin with the tag dlbd_stateful (stateful.BuildTags), with
// which the API packages (bigdata/duck, columnar, kafka, natsbroker) leave
// their implementations to this program: linked here once, they cost a cell
// that uses the API nothing (a plugin links every package it imports).
import (
	_ "github.com/duckdb/duckdb-go/v2"

	_ "github.com/dlbd/dlbd/bigdata/columnar/parquetio"
	_ "github.com/dlbd/dlbd/bigdata/kafka/franz"
	_ "github.com/dlbd/dlbd/bigdata/natsbroker/embedded"
)
