package docker_test

// A Jupyter client over a server's REST API and a kernel's websocket (/api/kernels/ID/channels,
// Jupyter's JSON messages): what a browser does, for the classroom tests, where the server runs
// behind JupyterHub and only HTTP reaches it.

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"golang.org/x/net/websocket"
)

// jupyterServer is a Jupyter server's base URL (http://host:port/user/NAME/ or http://host:port/)
// and the token that opens it.
type jupyterServer struct {
	base  string // ends in /
	token string
}

// do sends a request with the token and returns the status and body.
func (s jupyterServer) do(method, path string, body any) (int, []byte, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.base+strings.TrimPrefix(path, "/"), r)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "token "+s.token)
	resp, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, data, err
}

// kernelSession is one kernel started through the REST API, with its websocket open.
type kernelSession struct {
	srv     jupyterServer
	id      string
	ws      *websocket.Conn
	session string
}

// startKernel starts a kernel of the named kernelspec and opens its channels.
func (s jupyterServer) startKernel(name string) (*kernelSession, error) {
	code, body, err := s.do("POST", "api/kernels", map[string]string{"name": name})
	if err != nil {
		return nil, err
	}
	if code != 201 {
		return nil, fmt.Errorf("POST api/kernels {name: %s}: %d %.300s", name, code, body)
	}
	var k struct{ ID string }
	if err := json.Unmarshal(body, &k); err != nil {
		return nil, fmt.Errorf("POST api/kernels: %v in %.200s", err, body)
	}
	ks := &kernelSession{srv: s, id: k.ID, session: randomHex(8)}
	return ks, ks.connect()
}

func (k *kernelSession) connect() error {
	wsURL := "ws" + strings.TrimPrefix(k.srv.base, "http") + "api/kernels/" + k.id + "/channels?session_id=" + k.session
	origin := k.srv.base
	if i := strings.Index(origin[len("http://"):], "/"); i >= 0 {
		origin = origin[:len("http://")+i]
	}
	cfg, err := websocket.NewConfig(wsURL, origin)
	if err != nil {
		return err
	}
	cfg.Header.Set("Authorization", "token "+k.srv.token)
	ws, err := websocket.DialConfig(cfg)
	if err != nil {
		return fmt.Errorf("opening the kernel's websocket %s: %w", wsURL, err)
	}
	k.ws = ws
	return nil
}

// Close closes the websocket and shuts the kernel down.
func (k *kernelSession) Close() {
	if k.ws != nil {
		k.ws.Close()
	}
	k.srv.do("DELETE", "api/kernels/"+k.id, nil)
}

// cellResult is what one execute_request produced.
type cellResult struct {
	Status string // ok, error, or dead (the kernel died or restarted while running it)
	Text   string // streams, results and displays (text/plain), tracebacks
}

type wsMessage struct {
	Header       map[string]any  `json:"header"`
	ParentHeader map[string]any  `json:"parent_header"`
	Metadata     map[string]any  `json:"metadata"`
	Content      json.RawMessage `json:"content"`
	Channel      string          `json:"channel"`
	Buffers      []any           `json:"buffers"`
}

// execute runs code and waits (at most timeout) for its reply and for the kernel to go idle.
func (k *kernelSession) execute(code string, timeout time.Duration) (cellResult, error) {
	id := randomHex(12)
	msg := wsMessage{
		Header: map[string]any{"msg_id": id, "username": "test", "session": k.session, "msg_type": "execute_request",
			"version": "5.3", "date": time.Now().UTC().Format(time.RFC3339Nano)},
		ParentHeader: map[string]any{}, Metadata: map[string]any{}, Channel: "shell", Buffers: []any{},
	}
	msg.Content, _ = json.Marshal(map[string]any{"code": code, "silent": false, "store_history": true,
		"user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true})
	if err := websocket.JSON.Send(k.ws, msg); err != nil {
		return cellResult{}, fmt.Errorf("sending execute_request: %w", err)
	}
	var res cellResult
	var text strings.Builder
	replied, idle := false, false
	deadline := time.Now().Add(timeout)
	for !(replied && idle) {
		k.ws.SetReadDeadline(deadline)
		var m wsMessage
		if err := websocket.JSON.Receive(k.ws, &m); err != nil {
			if time.Now().After(deadline) {
				return res, fmt.Errorf("no reply within %v (output so far: %.500s)", timeout, text.String())
			}
			// The server closes the channels when the kernel dies.
			res.Status, res.Text = "dead", text.String()
			return res, nil
		}
		var c map[string]any
		json.Unmarshal(m.Content, &c)
		mt, _ := m.Header["msg_type"].(string)
		if mt == "status" {
			if st, _ := c["execution_state"].(string); st == "restarting" || st == "dead" {
				res.Status, res.Text = "dead", text.String()
				return res, nil
			}
		}
		if p, _ := m.ParentHeader["msg_id"].(string); p != id {
			continue
		}
		switch mt {
		case "stream":
			text.WriteString(fmt.Sprint(c["text"]))
		case "execute_result", "display_data":
			if d, ok := c["data"].(map[string]any); ok {
				text.WriteString(fmt.Sprint(d["text/plain"]) + "\n")
			}
		case "error":
			text.WriteString(fmt.Sprintf("%v: %v\n", c["ename"], c["evalue"]))
		case "execute_reply":
			replied = true
			res.Status, _ = c["status"].(string)
		case "status":
			idle = c["execution_state"] == "idle"
		}
	}
	res.Text = text.String()
	return res, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
