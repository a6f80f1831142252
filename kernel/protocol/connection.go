package protocol

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"

	"github.com/dlbd/dlbd/internal/atomicfile"
	"github.com/dlbd/dlbd/kernel/internal/wire"
)

// ConnectionInfo is the content of a connection file, which tells a kernel
// where to listen and how to sign (spec section "Connection files",
// https://jupyter-client.readthedocs.io/en/latest/kernels.html#connection-files).
type ConnectionInfo struct {
	// Transport is "tcp" (or "ipc").
	Transport string `json:"transport"`
	// IP is the address the kernel binds, 127.0.0.1 here.
	IP string `json:"ip"`
	// ShellPort is the port of the shell ROUTER socket.
	ShellPort int `json:"shell_port"`
	// IOPubPort is the port of the IOPub PUB socket.
	IOPubPort int `json:"iopub_port"`
	// StdinPort is the port of the stdin ROUTER socket.
	StdinPort int `json:"stdin_port"`
	// ControlPort is the port of the control ROUTER socket.
	ControlPort int `json:"control_port"`
	// HBPort is the port of the heartbeat REP socket.
	HBPort int `json:"hb_port"`
	// SignatureScheme is "hmac-sha256".
	SignatureScheme string `json:"signature_scheme"`
	// Key is the HMAC key; anyone who can read it can run code in the
	// kernel, hence the file's 0600 permissions.
	Key string `json:"key"`
	// KernelName is the kernelspec's name, informative.
	KernelName string `json:"kernel_name,omitempty"`
}

// NewConnectionInfo returns a tcp connection on 127.0.0.1 with five free
// ports and a random 256-bit hex key. The ports are free when chosen; as in
// jupyter_client, another program could take one before the kernel binds it.
func NewConnectionInfo() (ConnectionInfo, error) {
	var ports [5]int
	var listeners []net.Listener
	// Hold all five listeners open at once so that the kernel gets five
	// distinct ports, then release them for the kernel to bind.
	defer func() {
		for _, l := range listeners {
			l.Close()
		}
	}()
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return ConnectionInfo{}, fmt.Errorf("protocol: find a free port on 127.0.0.1: %w", err)
		}
		listeners = append(listeners, l)
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	var key [32]byte
	if _, err := rand.Read(key[:]); err != nil {
		return ConnectionInfo{}, fmt.Errorf("protocol: make a connection key: %w", err)
	}
	return ConnectionInfo{
		Transport:       "tcp",
		IP:              "127.0.0.1",
		ShellPort:       ports[0],
		IOPubPort:       ports[1],
		StdinPort:       ports[2],
		ControlPort:     ports[3],
		HBPort:          ports[4],
		SignatureScheme: wire.SchemeHMACSHA256,
		Key:             hex.EncodeToString(key[:]),
	}, nil
}

// Endpoint returns the ZeroMQ address of port, like "tcp://127.0.0.1:5555",
// or "ipc://<IP>-<port>" for the ipc transport (IP is then a path prefix),
// as jupyter_client and GoNB write them.
func (ci ConnectionInfo) Endpoint(port int) string {
	if ci.Transport == "ipc" {
		return fmt.Sprintf("ipc://%s-%d", ci.IP, port)
	}
	return fmt.Sprintf("%s://%s:%d", ci.Transport, ci.IP, port)
}

// WriteFile writes ci as JSON to path atomically (a temporary file in the
// same directory, then a rename) with permissions 0600.
func (ci ConnectionInfo) WriteFile(path string) error {
	data, err := json.MarshalIndent(ci, "", "  ")
	if err != nil {
		return fmt.Errorf("protocol: encode connection file: %w", err)
	}
	if err := atomicfile.WriteFile(path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("protocol: write connection file: %w", err)
	}
	return nil
}

// ReadConnectionFile parses a connection file.
func ReadConnectionFile(path string) (ConnectionInfo, error) {
	var ci ConnectionInfo
	data, err := os.ReadFile(path)
	if err != nil {
		return ci, fmt.Errorf("protocol: read connection file: %w", err)
	}
	if err := json.Unmarshal(data, &ci); err != nil {
		return ci, fmt.Errorf("protocol: connection file %s is not valid JSON: %w", path, err)
	}
	return ci, nil
}
