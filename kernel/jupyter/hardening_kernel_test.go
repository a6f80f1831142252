package jupyter

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// These tests send the installed kernel what an attacker or a broken
// client would (issue 18's probe), over its real sockets.

// rawSend sends frames (after the routing identity zmq4 adds) on ch.
func rawSend(t *testing.T, c *Client, ch protocol.Channel, frames [][]byte) {
	t.Helper()
	c.sendMu[ch].Lock()
	defer c.sendMu[ch].Unlock()
	if err := c.sockets[ch].SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		t.Fatalf("send on %s: %v", ch, err)
	}
}

// signed returns the frames of a message with the given raw parts, signed
// with the connection's key.
func signed(c *Client, header, parent, metadata, content string) [][]byte {
	return wire.Encode(c.signer, wire.Parts{Header: []byte(header), ParentHeader: []byte(parent), Metadata: []byte(metadata), Content: []byte(content)})
}

// alive checks that the kernel still runs cells.
func stillAlive(t *testing.T, c *Client, after string) {
	t.Helper()
	select {
	case <-c.Exited():
		t.Fatalf("the kernel exited after %s; output:\n%s", after, c.Output())
	default:
	}
	ex, err := c.Execute(kerneltest.Context(t, 2*time.Minute), "%%\nfmt.Println(\"vivo\")")
	if err != nil || ex.Stdout() != "vivo\n" {
		t.Fatalf("after %s: %q, %v; want the kernel alive", after, stderrOf(ex), err)
	}
}

func TestDLBDReplayRefused(t *testing.T) {
	c := startDLBD(t)
	marker := filepath.Join(t.TempDir(), "runs")
	code := fmt.Sprintf("import \"os\"\n%%%%\nf, _ := os.OpenFile(%q, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)\nf.WriteString(\"x\")\nf.Close()", marker)
	m, err := c.NewMessage("execute_request", protocol.ExecuteRequest{Code: code, UserExpressions: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	parts, err := m.toParts()
	if err != nil {
		t.Fatal(err)
	}
	frames := wire.Encode(c.signer, parts)
	s := c.Subscribe(m)
	rawSend(t, c, protocol.Shell, frames)
	for ctx := kerneltest.Context(t, 2*time.Minute); ; {
		r, err := s.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if r.Header.MsgType == "execute_reply" {
			t.Logf("first run: %s", r.Content)
			break
		}
	}
	s.Close()
	rawSend(t, c, protocol.Shell, frames) // the same peer again
	other := zmq4.NewDealer(context.Background(), zmq4.WithID(zmq4.SocketIdentity("otro")))
	defer other.Close()
	if err := other.Dial(c.conn.Endpoint(c.conn.ShellPort)); err != nil {
		t.Fatal(err)
	}
	if err := other.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil { // and another peer
		t.Fatal(err)
	}
	time.Sleep(5 * time.Second)
	if data, _ := os.ReadFile(marker); string(data) != "x" {
		t.Errorf("the cell ran %d times; want once (replays refused)", len(data))
	}
	if out := c.Output(); !strings.Contains(out, "replayed") {
		t.Errorf("the kernel's log does not mention the replay:\n%s", out)
	}
	stillAlive(t, c, "replayed messages")
}

// rss returns the resident memory of pid in MiB.
func rss(t testing.TB, pid int) int {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kib, _ := strconv.Atoi(strings.Fields(rest)[0])
			return kib >> 10
		}
	}
	return 0
}

func TestDLBDOversizedMessagesRefused(t *testing.T) {
	c := startDLBD(t)
	stillAlive(t, c, "start")
	before := rss(t, c.PID())
	for _, tc := range []struct {
		name   string
		frames [][]byte
	}{
		{"one-frame-256MiB", [][]byte{[]byte("<IDS|MSG>"), make([]byte, 256<<20)}},
		{"frames-summing-96MiB", func() [][]byte {
			f := [][]byte{[]byte("<IDS|MSG>")}
			for range 96 {
				f = append(f, make([]byte, 1<<20))
			}
			return f
		}()},
	} {
		peer := zmq4.NewDealer(context.Background(), zmq4.WithTimeout(5*time.Second))
		if err := peer.Dial(c.conn.Endpoint(c.conn.ShellPort)); err != nil {
			t.Fatal(err)
		}
		peer.SendMulti(zmq4.NewMsgFrom(tc.frames...)) // the kernel closes the connection midway
		peer.Close()
		time.Sleep(time.Second)
		// A message may be read up to the limit (64 MiB) before it is refused.
		// A -race build (DLBD_KERNEL_BINARY in make test) keeps shadow memory
		// for what it reads: its growth says nothing of the limit.
		if grew := rss(t, c.PID()) - before; grew > 80 && os.Getenv("DLBD_KERNEL_BINARY") == "" {
			t.Errorf("%s: the kernel's memory grew by %d MiB; want at most the 64 MiB limit (bounded while reading)", tc.name, grew)
		} else {
			t.Logf("%s: the kernel's memory grew by %d MiB", tc.name, grew)
		}
	}
	if out := c.Output(); !strings.Contains(out, "over the limit") && !strings.Contains(out, "exceeds the limit") {
		t.Logf("kernel output:\n%s", out)
	}
	stillAlive(t, c, "oversized messages")
}

func TestDLBDMalformedSignedMessages(t *testing.T) {
	c := startDLBD(t)
	header := func(msgType string) string {
		return fmt.Sprintf(`{"msg_id":"%s","session":"s","username":"u","date":"2026-01-01T00:00:00Z","msg_type":"%s","version":"5.3"}`, protocol.NewID(), msgType)
	}
	cases := []struct {
		name                              string
		ch                                protocol.Channel
		header, parent, metadata, content string
		replied                           bool // a request with a readable type gets an error reply
	}{
		{"bad-json-header", protocol.Shell, `{"msg_id":`, "{}", "{}", `{"code":"%%"}`, false},
		{"bad-json-parent", protocol.Shell, header("execute_request"), `{`, "{}", `{"code":"%%"}`, true},
		{"bad-json-metadata", protocol.Shell, header("execute_request"), "{}", `{x`, `{"code":"%%"}`, true},
		{"bad-json-content", protocol.Shell, header("execute_request"), "{}", "{}", `{"code":`, true},
		{"header-array", protocol.Shell, `["execute_request"]`, "{}", "{}", `{"code":"%%"}`, false},
		{"content-empty", protocol.Shell, header("execute_request"), "{}", "{}", `{}`, true},
		{"content-null", protocol.Shell, header("execute_request"), "{}", "{}", `null`, true},
		{"code-number", protocol.Shell, header("execute_request"), "{}", "{}", `{"code":5}`, true},
		{"content-binary", protocol.Shell, header("kernel_info_request"), "{}", "{}", "\x00\xff\xfe", true},
		{"bad-header-on-control", protocol.Control, `{"msg_type":7}`, "{}", "{}", "{}", false},
		{"inspect-empty", protocol.Shell, header("inspect_request"), "{}", "{}", `{}`, true},
	}
	for _, tc := range cases {
		id := ""
		if i := strings.Index(tc.header, `"msg_id":"`); i >= 0 {
			id = tc.header[i+len(`"msg_id":"`):]
			id = id[:strings.Index(id, `"`)]
		}
		t.Run(tc.name, func(t *testing.T) {
			s := c.Subscribe(&Message{Header: protocol.Header{MsgID: id}})
			defer s.Close()
			frames := signed(c, tc.header, tc.parent, tc.metadata, tc.content)
			rawSend(t, c, tc.ch, frames)
			if tc.replied {
				ctx := kerneltest.Context(t, 10*time.Second)
				for {
					r, err := s.Next(ctx)
					if err != nil {
						t.Fatalf("no reply to the malformed request: %v", err)
					}
					var rep protocol.ExecuteReply
					if strings.HasSuffix(r.Header.MsgType, "_reply") && r.DecodeContent(&rep) == nil {
						if rep.Status != "error" || rep.EName != "bad_request" || rep.EValue == "" {
							t.Errorf("reply %s; want an error reply naming the problem", r.Content)
						}
						break
					}
				}
			}
			time.Sleep(200 * time.Millisecond)
			select {
			case <-c.Exited():
				t.Fatalf("the kernel died on %s; output:\n%s", tc.name, c.Output())
			default:
			}
		})
	}
	if out := c.Output(); strings.Count(out, "refused a malformed message") < len(cases) {
		t.Errorf("the kernel's log names %d refused messages; want %d:\n%s", strings.Count(out, "refused a malformed message"), len(cases), out)
	}
	stillAlive(t, c, "malformed signed messages")
}
