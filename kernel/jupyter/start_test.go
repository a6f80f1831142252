package jupyter

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
)

func TestStartKernelSpecMissing(t *testing.T) {
	_, err := Start(context.Background(), Options{KernelName: "nope", Path: []string{t.TempDir()}})
	if !errors.Is(err, ErrKernelSpecNotFound) {
		t.Errorf("Start(missing kernelspec) = %v; want ErrKernelSpecNotFound", err)
	}
}

func TestStartKernelExitsEarly(t *testing.T) {
	_, ks := writeSpec(t, "broken", map[string]any{
		"argv": []string{"/bin/sh", "-c", "echo broken kernel, connection file {connection_file} >&2; exit 3"},
	})
	_, err := Start(kerneltest.Context(t, 30*time.Second), Options{Spec: ks})
	if err == nil {
		t.Fatal("Start(kernel that exits) = nil; want an error")
	}
	for _, want := range []string{"exited before accepting connections", "exit status 3", "broken kernel, connection file /"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestStartMissingExecutable(t *testing.T) {
	_, ks := writeSpec(t, "ghost", map[string]any{"argv": []string{"/nonexistent/kernel", "{connection_file}"}})
	_, err := Start(kerneltest.Context(t, 10*time.Second), Options{Spec: ks})
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/kernel") {
		t.Errorf("Start(missing executable) = %v; want an error naming it", err)
	}
}
