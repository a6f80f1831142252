package jupyter

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/kernel/protocol"
)

func TestFindKernelSpecOrderAndCase(t *testing.T) {
	first, _ := writeSpec(t, "k", map[string]any{"argv": []string{"first"}})
	second, _ := writeSpec(t, "k", map[string]any{"argv": []string{"second"}})
	for _, name := range []string{"k", "K"} {
		ks, err := FindKernelSpec(name, []string{t.TempDir(), first, second})
		if err != nil {
			t.Fatalf("FindKernelSpec(%q): %v", name, err)
		}
		if ks.Argv[0] != "first" || ks.Name != "k" || ks.Dir != filepath.Join(first, "kernels", "k") {
			t.Errorf("FindKernelSpec(%q) = argv %v, name %q, dir %q; want the first directory's k", name, ks.Argv, ks.Name, ks.Dir)
		}
	}
}

func TestFindKernelSpecNotFound(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("JUPYTER_PATH", dir)
	_, err := FindKernelSpec("dlbd", []string{dir})
	if !errors.Is(err, ErrKernelSpecNotFound) {
		t.Fatalf("FindKernelSpec = %v; want ErrKernelSpecNotFound", err)
	}
	for _, want := range []string{"kernels/dlbd/kernel.json", "JUPYTER_PATH=\"" + dir + "\"", "searched " + dir} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestReadKernelSpecInvalid(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{name: "bad-json", content: "{", want: "not valid JSON"},
		{name: "empty-argv", content: `{"argv": []}`, want: "empty argv"},
		{name: "bad-interrupt", content: `{"argv": ["x"], "interrupt_mode": "kill"}`, want: `interrupt_mode "kill"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "kernel.json")
			if err := os.WriteFile(file, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadKernelSpec(dir)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), file) {
				t.Errorf("ReadKernelSpec = %v; want an error naming %s and %q", err, file, tt.want)
			}
		})
	}
}

func TestKernelSpecCommand(t *testing.T) {
	ks := &KernelSpec{Dir: "/spec", Spec: protocol.Spec{
		Argv: []string{"/bin/k", "-f", "{connection_file}", "--res={resource_dir}/x"},
		Env: map[string]string{
			"PATH":  "/opt/bin:${PATH}",
			"HOME2": "$HOME/data",
			"KEEP":  "${NOPE}-$NOPE-$$-$",
			"NEW":   "v",
		},
	}}
	argv, env := ks.Command("/run/kernel-1.json", []string{"HOME=/home/u", "PATH=/usr/bin", "PATH=/bin", "X=1"})
	if got, want := strings.Join(argv, " "), "/bin/k -f /run/kernel-1.json --res=/spec/x"; got != want {
		t.Errorf("argv = %q; want %q", got, want)
	}
	got := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if _, dup := got[k]; dup {
			t.Errorf("env has %s twice", k)
		}
		got[k] = v
	}
	want := map[string]string{
		"HOME": "/home/u", "PATH": "/opt/bin:/bin", "X": "1",
		"HOME2": "/home/u/data", "KEEP": "${NOPE}-$NOPE-$-$", "NEW": "v",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("env %s = %q; want %q", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("env = %v; want exactly %v", got, want)
	}
}

func TestDataPath(t *testing.T) {
	t.Setenv("JUPYTER_PATH", "/a"+string(os.PathListSeparator)+"/b")
	t.Setenv("JUPYTER_DATA_DIR", "/user")
	t.Setenv("VIRTUAL_ENV", "/venv")
	got := strings.Join(DataPath(), " ")
	want := "/a /b /user /venv/share/jupyter /usr/local/share/jupyter /usr/share/jupyter"
	if got != want {
		t.Errorf("DataPath() = %q; want %q", got, want)
	}
}

func TestConnectionFile(t *testing.T) {
	ci, err := protocol.NewConnectionInfo()
	if err != nil {
		t.Fatal(err)
	}
	ports := map[int]bool{ci.ShellPort: true, ci.IOPubPort: true, ci.StdinPort: true, ci.ControlPort: true, ci.HBPort: true}
	if len(ports) != 5 || ports[0] {
		t.Errorf("ports %+v; want five distinct non-zero ports", ci)
	}
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(ci.Key) || ci.SignatureScheme != "hmac-sha256" || ci.IP != "127.0.0.1" {
		t.Errorf("key %q, scheme %q, ip %q; want 64 hex digits, hmac-sha256, 127.0.0.1", ci.Key, ci.SignatureScheme, ci.IP)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "kernel-x.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ci.WriteFile(path); err != nil {
		t.Fatalf("WriteFile: %v", err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("connection file mode = %v (%v); want 0600", st.Mode().Perm(), err)
	}
	back, err := protocol.ReadConnectionFile(path)
	if err != nil || back != ci {
		t.Errorf("ReadConnectionFile = %+v, %v; want %+v", back, err, ci)
	}
	var raw map[string]any
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &raw); err != nil || raw["hb_port"] == nil || raw["signature_scheme"] != "hmac-sha256" {
		t.Errorf("connection file JSON %s lacks the spec's field names", data)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %d entries after WriteFile; want only the connection file", len(entries))
	}
}

func TestMessageParts(t *testing.T) {
	m, err := newMessage("sess", "user", "kernel_info_request", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(m.Header.MsgID) {
		t.Errorf("msg_id %q is not a version 4 UUID", m.Header.MsgID)
	}
	p, err := m.toParts()
	if err != nil {
		t.Fatal(err)
	}
	if string(p.ParentHeader) != "{}" || string(p.Metadata) != "{}" || string(p.Content) != "{}" {
		t.Errorf("request parts parent %s, metadata %s, content %s; want {} each", p.ParentHeader, p.Metadata, p.Content)
	}
	reply := wireReply(t, m)
	back, err := fromParts(protocol.Shell, reply)
	if err != nil {
		t.Fatal(err)
	}
	var info protocol.KernelInfoReply
	if back.ParentHeader != m.Header || back.DecodeContent(&info) != nil || info.ProtocolVersion != "5.4" {
		t.Errorf("fromParts = parent %+v, info %+v; want parent %+v, protocol 5.4", back.ParentHeader, info, m.Header)
	}
}
