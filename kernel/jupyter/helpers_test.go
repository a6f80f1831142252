package jupyter

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// writeSpec writes kernels/<name>/kernel.json under a fresh directory and
// returns that directory (a Jupyter data dir) and the parsed spec.
func writeSpec(t *testing.T, name string, spec map[string]any) (string, *KernelSpec) {
	t.Helper()
	data, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	dataDir := kerneltest.WriteSpec(t, name, string(data))
	ks, err := ReadKernelSpec(filepath.Join(dataDir, "kernels", name))
	if err != nil {
		t.Fatal(err)
	}
	return dataDir, ks
}

// pythonSpec returns a temporary kernelspec for ipykernel from the
// project's .venv (or $DLBD_PYTHON), skipping when it is not installed.
func pythonSpec(t *testing.T) *KernelSpec {
	t.Helper()
	if testing.Short() {
		t.Skip("ipykernel protocol tests start a Python kernel: skipped with -short")
	}
	py := os.Getenv("DLBD_PYTHON")
	if py == "" {
		py = filepath.Join(kerneltest.RepoRoot(t), ".venv", "bin", "python")
	}
	if _, err := os.Stat(py); err != nil {
		kerneltest.Missing(t, "no Python at %s (run `make kernel`, or set DLBD_PYTHON)", py)
	}
	if out, err := exec.Command(py, "-c", "import ipykernel").CombinedOutput(); err != nil {
		kerneltest.Missing(t, "%s cannot import ipykernel: %v: %s", py, err, out)
	}
	_, ks := writeSpec(t, "pytest", map[string]any{
		"argv":         []string{py, "-m", "ipykernel_launcher", "-f", "{connection_file}"},
		"display_name": "Python (test)",
		"language":     "python",
	})
	return ks
}

// startClient starts spec and closes it at the end of the test.
func startClient(t testing.TB, spec *KernelSpec, timeout time.Duration) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c, err := Start(ctx, Options{Spec: spec})
	if err != nil {
		t.Fatalf("Start(%s): %v", spec.Name, err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return c
}

// describe names a message for test failures.
func describe(m *Message) string {
	if m == nil {
		return "no message"
	}
	return m.Channel.String() + " " + m.Header.MsgType + " " + string(m.Content)
}

// wireReply builds the parts of a kernel_info_reply answering m, as a
// kernel would send them.
func wireReply(t *testing.T, m *Message) wire.Parts {
	t.Helper()
	parent, err := json.Marshal(m.Header)
	if err != nil {
		t.Fatal(err)
	}
	return wire.Parts{
		Header:       []byte(`{"msg_id":"r1","session":"k","username":"k","date":"","msg_type":"kernel_info_reply","version":"5.4"}`),
		ParentHeader: parent,
		Metadata:     []byte(`{}`),
		Content:      []byte(`{"status":"ok","protocol_version":"5.4"}`),
	}
}

// checkDisplayUpdate checks that ex published one display_data and one
// update_display_data for the same display_id, in that order.
func checkDisplayUpdate(t *testing.T, ex *Execution) {
	t.Helper()
	var types, ids []string
	for _, m := range ex.Outputs {
		var d protocol.DisplayData
		if err := m.DecodeContent(&d); err != nil {
			t.Fatal(err)
		}
		types = append(types, m.Header.MsgType)
		ids = append(ids, fmt.Sprint(d.Transient["display_id"]))
	}
	if strings.Join(types, ",") != "display_data,update_display_data" {
		t.Fatalf("output types = %v; want [display_data update_display_data]", types)
	}
	if ids[0] != ids[1] || ids[0] == "<nil>" {
		t.Errorf("display_ids = %v; want the update to name the displayed id", ids)
	}
}

// filepathGlob lists dir/pattern.
func filepathGlob(dir, pattern string) ([]string, error) {
	return filepath.Glob(filepath.Join(dir, pattern))
}
