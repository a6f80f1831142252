// Package service starts and stops the local server processes of the Big Data packages
// (the Spark Connect server, a Kafka broker): detached from the cell that starts them so that
// later cells can use them, recorded in a state file so that any process can find and stop
// them, and optionally tied to the life of a watched process (the notebook's kernel).
package service
