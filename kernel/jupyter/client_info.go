package jupyter

import (
	"github.com/dlbd/dlbd/kernel/internal/proc"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// What a Client tells about the kernel it started.

// Spec returns the kernelspec the client started.
func (c *Client) Spec() *KernelSpec { return c.spec }

// ConnectionFile returns the path of the connection file (removed by Close).
func (c *Client) ConnectionFile() string { return c.connFile }

// Connection returns the connection file's content, key included.
func (c *Client) Connection() protocol.ConnectionInfo { return c.conn }

// PID returns the kernel's process id, which is also its process group id.
func (c *Client) PID() int { return c.proc.pid() }

// Exited returns a channel closed when the kernel process has exited.
func (c *Client) Exited() <-chan struct{} { return c.proc.done }

// ExitCode returns the kernel process's exit status once it has exited
// (128+n when signal n killed it), and -1 while it runs.
func (c *Client) ExitCode() int {
	if !c.proc.exited() {
		return -1
	}
	return c.proc.exitCode()
}

// Announced returns the execution state of the last status message the
// kernel published with no parent request ("starting" when it starts,
// "idle" once it is ready), or "" when none arrived: what a front end
// shows before the first request.
func (c *Client) Announced() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.announced
}

// Output returns the last 64 KiB the kernel wrote to stdout and stderr.
func (c *Client) Output() string { return c.proc.out.String() }

// Processes returns the kernel process (while it runs), its descendants and
// the members of its process group, read from /proc (Linux only).
func (c *Client) Processes() ([]Process, error) { return proc.Family(c.proc.pid(), c.proc.pgid) }
