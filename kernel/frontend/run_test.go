package frontend

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/kernel/protocol"
)

// connFile writes a fresh connection file and returns its path and content.
func connFile(t *testing.T) (string, protocol.ConnectionInfo) {
	t.Helper()
	ci, err := protocol.NewConnectionInfo()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kernel-0123.json")
	if err := ci.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return path, ci
}

// sh returns a Command running script with /bin/sh, recording the
// connection file it was given.
func sh(script string, gotFile *string) func(string) ([]string, []string, error) {
	return func(f string) ([]string, []string, error) {
		*gotFile = f
		return []string{"/bin/sh", "-c", script, f}, os.Environ(), nil // $0 is f
	}
}

func TestRunKernelExitsEarly(t *testing.T) {
	path, _ := connFile(t)
	var inner string
	var log bytes.Buffer
	// The script checks what the kernel is given before failing.
	status, err := Run(context.Background(), Options{ConnectionFile: path, Log: &log,
		Command: sh(`test "$(stat -c %a "$(dirname "$0")")" = 700 && test "$(stat -c %a "$0")" = 600 || exit 9; exit 3`, &inner)})
	if err != nil || status != 3 {
		t.Fatalf("Run = %d, %v; want the kernel's status 3 (9: wrong permissions)", status, err)
	}
	if !strings.Contains(log.String(), "exited with status 3 before accepting connections") {
		t.Errorf("log = %q; want it to say the kernel exited early", log.String())
	}
	if filepath.Base(inner) != filepath.Base(path) {
		t.Errorf("kernel's connection file %s; want Jupyter's name %s (GoNB reads its kernel id from it)", inner, filepath.Base(path))
	}
	if _, err := os.Stat(filepath.Dir(inner)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("private directory %s left behind (%v)", filepath.Dir(inner), err)
	}
}

func TestInnerConnection(t *testing.T) {
	ci := protocol.ConnectionInfo{SignatureScheme: "hmac-sha256", Key: "k", KernelName: "dlbd"}
	in, err := innerConnection(ci, "/tmp/dlbd-kernel-1")
	if err != nil || in.Transport != "ipc" || in.Endpoint(in.HBPort) != "ipc:///tmp/dlbd-kernel-1/k-5" || in.Key != "k" {
		t.Errorf("innerConnection = %+v, %v; want ipc endpoints in the directory and the same key", in, err)
	}
	long := "/" + strings.Repeat("d", maxIPCPath)
	in, err = innerConnection(ci, long)
	if err != nil || in.Transport != "tcp" || in.IP != "127.0.0.1" || in.ShellPort == 0 || in.Key != "k" {
		t.Errorf("innerConnection(long dir) = %+v, %v; want loopback TCP ports and the same key", in, err)
	}
}

func TestRunErrors(t *testing.T) {
	path, ci := connFile(t)
	var ignored string
	busy, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", ci.ShellPort))
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	badScheme := filepath.Join(t.TempDir(), "md5.json")
	ci.SignatureScheme = "hmac-md5"
	ci.WriteFile(badScheme)
	tests := []struct {
		name string
		o    Options
		want string
	}{
		{"no-command", Options{ConnectionFile: path}, "Options.Command is nil"},
		{"no-file", Options{ConnectionFile: "/nonexistent/k.json", Command: sh("exit 0", &ignored)}, "/nonexistent/k.json"},
		{"scheme", Options{ConnectionFile: badScheme, Command: sh("exit 0", &ignored)}, `"hmac-md5"`},
		{"command-error", Options{ConnectionFile: path, Command: func(string) ([]string, []string, error) {
			return nil, nil, errors.New("kernel: launch: bin/gonb not found")
		}}, "bin/gonb not found"},
		{"port-busy", Options{ConnectionFile: path, Command: sh("exit 0", &ignored)}, "is another kernel using this port?"},
		{"missing-program", Options{ConnectionFile: path, Command: func(string) ([]string, []string, error) {
			return []string{"/nonexistent/gonb"}, nil, nil
		}}, "/nonexistent/gonb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "missing-program" {
				busy.Close() // the front end must bind before it starts the kernel
			}
			_, err := Run(context.Background(), tt.o)
			// Command's own error comes back as it is.
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "frontend: ") && tt.name != "command-error" {
				t.Errorf("Run = %v; want an error naming %s, prefixed \"frontend: \"", err, tt.want)
			}
		})
	}
}
