package protocol

import "fmt"

// Channel names one of the five sockets of a kernel connection (spec
// section "Introduction",
// https://jupyter-client.readthedocs.io/en/latest/messaging.html#introduction).
// The first four carry messages; the heartbeat only echoes raw bytes.
type Channel int

// The channels, in this order: arrays indexed by Channel have NumChannels
// elements, and the message channels are those below Heartbeat.
const (
	// Shell carries requests for code execution, completion and kernel info.
	Shell Channel = iota
	// Control carries interrupt and shutdown requests, which must not wait
	// behind a long execution on Shell.
	Control
	// Stdin carries input requests from the kernel to the client.
	Stdin
	// IOPub broadcasts side effects: status, output streams, display data.
	IOPub
	// Heartbeat echoes what a client sends, to tell that the kernel is alive.
	Heartbeat
)

// NumChannels is the number of channels.
const NumChannels = 5

// channelNames are the spec's names of the channels.
var channelNames = [NumChannels]string{"shell", "control", "stdin", "iopub", "heartbeat"}

// String returns the channel's name as the spec writes it ("shell", ...).
func (ch Channel) String() string {
	if ch < 0 || ch >= NumChannels {
		return fmt.Sprintf("channel(%d)", int(ch))
	}
	return channelNames[ch]
}

// Port returns the port of channel ch in ci, or 0 for an unknown channel.
func (ci ConnectionInfo) Port(ch Channel) int {
	if ch < 0 || ch >= NumChannels {
		return 0
	}
	return [NumChannels]int{ci.ShellPort, ci.ControlPort, ci.StdinPort, ci.IOPubPort, ci.HBPort}[ch]
}
