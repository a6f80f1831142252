package frontend

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
	"github.com/dlbd/dlbd/kernel/internal/wire"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// fakeKernel imitates GoNB v0.11.4 on the wire, deviations included, so
// that the front end can be tested without compiling Go cells:
//   - it exits on a message with a bad signature or too few frames;
//   - it sends replies to control requests on its shell socket, addressed
//     to the identities of the request;
//   - it uses the request's identities as IOPub topic;
//   - it publishes execute_input with its own execution count;
//   - a cell "panic" prints a panic on stderr and replies "exit status 2";
//     so does splitPanicCell, whose main.go it writes where GoNB would, its
//     innermost frame split over two stream messages and left unmarked;
//   - a cell with "//fake:build L:C message" lines fails to compile as
//     GoNB reports go build's errors (with --raw_error), one per such line,
//     at line L, column C of the cell; one with "//fake:parse message"
//     fails as GoNB reports a syntax error it found at a line of its own
//     program (the closing brace of main), which it maps to no cell;
//   - it answers is_complete_request with the status "forwarded", which
//     no correct front end lets happen.
//
// A cell "process" runs its program (sleep) as a child process, as GoNB
// does, "process ignoring SIGINT" one that ignores SIGINT, and the fake
// kernel drops interrupt_request, as GoNB does when the request
// arrives before it has subscribed its handler (runProcess).
//
// Other cells: "input" asks for a line on stdin and prints it, "stop
// heartbeat" stops echoing pings, anything else is printed on stdout.
// SIGTERM makes it exit with status 7; SIGINT creates the file
// $FRONTEND_TEST_READY.sigint.
type fakeKernel struct {
	signer *wire.Signer
	socks  [protocol.NumChannels]zmq4.Socket
	mu     [protocol.NumChannels]sync.Mutex
	count  atomic.Int64
	hbStop atomic.Bool
	inputs chan wire.Parts
	done   chan int // the exit status, once shutdown was requested
}

// runFakeKernel serves the connection file until shutdown and returns the
// exit status.
func runFakeKernel(connFile string) int {
	ci, err := protocol.ReadConnectionFile(connFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake kernel:", err)
		return 2
	}
	signer, _ := wire.NewSigner(ci.SignatureScheme, []byte(ci.Key))
	f := &fakeKernel{signer: signer, inputs: make(chan wire.Parts, 1), done: make(chan int, 1)}
	ctx := context.Background()
	f.socks = [protocol.NumChannels]zmq4.Socket{zmq4.NewRouter(ctx), zmq4.NewRouter(ctx), zmq4.NewRouter(ctx), zmq4.NewPub(ctx), zmq4.NewRep(ctx)}
	for ch, ep := range endpoints(ci) {
		if err := f.socks[ch].Listen(ep); err != nil {
			fmt.Fprintln(os.Stderr, "fake kernel:", err)
			return 2
		}
	}
	ready := os.Getenv("FRONTEND_TEST_READY")
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		for sig := range sigs {
			if sig == syscall.SIGINT && ready != "" { // an interrupt: say so, go on
				os.WriteFile(ready+".sigint", nil, 0o644)
				continue
			}
			fmt.Println("fake kernel: SIGTERM")
			os.Exit(7)
		}
	}()
	if ready != "" {
		os.WriteFile(ready, []byte(fmt.Sprint(os.Getpid())), 0o644)
	}
	go f.heartbeat()
	go f.serve(protocol.Stdin)
	go f.serve(protocol.Control)
	go f.serve(protocol.Shell)
	code := <-f.done
	time.Sleep(50 * time.Millisecond) // let the last reply leave
	return code
}

// heartbeat echoes pings until a cell stops it.
func (f *fakeKernel) heartbeat() {
	for {
		m, err := f.socks[protocol.Heartbeat].Recv()
		if err != nil || f.hbStop.Load() {
			continue
		}
		f.socks[protocol.Heartbeat].Send(m)
	}
}

// serve handles the requests of one channel.
func (f *fakeKernel) serve(ch protocol.Channel) {
	for {
		m, err := f.socks[ch].Recv()
		if err != nil {
			continue
		}
		p, err := wire.Decode(f.signer, m.Frames)
		if err != nil {
			fmt.Fprintf(os.Stderr, "fake kernel: stopping on a bad %s message: %v\n", ch, err)
			os.Exit(3)
		}
		if ch == protocol.Stdin {
			f.inputs <- p
			continue
		}
		go f.handle(p) // control requests must not wait behind a cell
	}
}

// handle answers one request.
func (f *fakeKernel) handle(req wire.Parts) {
	h := parseHeader(req.Header)
	var content struct {
		Code string `json:"code"`
	}
	json.Unmarshal(req.Content, &content)
	switch h.MsgType {
	case "kernel_info_request":
		f.busy(req, func() {
			f.send(protocol.Shell, req, "kernel_info_reply", map[string]any{"status": "ok", "protocol_version": "5.4",
				"implementation": "fake", "language_info": map[string]string{"name": "go"}})
		})
	case "execute_request":
		f.busy(req, func() { f.execute(req, content.Code) })
	case "is_complete_request":
		f.send(protocol.Shell, req, "is_complete_reply", map[string]string{"status": "forwarded"})
	case "interrupt_request":
		f.send(protocol.Shell, req, "interrupt_reply", map[string]string{"status": "ok"})
	case "shutdown_request":
		f.send(protocol.Shell, req, "shutdown_reply", map[string]any{"status": "ok", "restart": false})
		f.done <- 0
	}
}

// busy publishes status busy, runs fn, and publishes status idle.
func (f *fakeKernel) busy(req wire.Parts, fn func()) {
	f.send(protocol.IOPub, req, "status", map[string]string{"execution_state": "busy"})
	fn()
	f.send(protocol.IOPub, req, "status", map[string]string{"execution_state": "idle"})
}

// execute runs a fake cell.
func (f *fakeKernel) execute(req wire.Parts, code string) {
	n := f.count.Add(1)
	stream := func(name, text string) {
		f.send(protocol.IOPub, req, "stream", map[string]string{"name": name, "text": text})
	}
	reply := map[string]any{"status": "ok", "execution_count": n, "user_expressions": map[string]any{}}
	f.send(protocol.IOPub, req, "execute_input", map[string]any{"code": code, "execution_count": n})
	if e := fakeCompileError(code, n); e != nil {
		f.send(protocol.IOPub, req, "error", e)
		for k, v := range e {
			reply[k] = v
		}
		reply["status"] = "error"
		f.send(protocol.Shell, req, "execute_reply", reply)
		return
	}
	switch code {
	case "panic":
		stream("stderr", "panic: ")
		stream("stderr", "boom <nil>")
		stream("stderr", "\n")
		stream("stderr", fmt.Sprintf("\ngoroutine 1 [running]:\nmain.main()\n\t \x1b[7m[[ Cell [%d] Line 3 ]]\x1b[0m /tmp/gonb_x/main.go:12 +0xa5\n", n))
		stream("stderr", "exit status 2\n")
		e := map[string]any{"ename": "ERROR", "evalue": "exit status 2", "traceback": []string{"exit status 2"}}
		f.send(protocol.IOPub, req, "error", e)
		for k, v := range e {
			reply[k] = v
		}
		reply["status"] = "error"
	case splitPanicCell:
		f.splitPanic(n, stream)
		e := map[string]any{"ename": "ERROR", "evalue": "exit status 2", "traceback": []string{"exit status 2"}}
		f.send(protocol.IOPub, req, "error", e)
		for k, v := range e {
			reply[k] = v
		}
		reply["status"] = "error"
	case "input":
		f.send(protocol.Stdin, req, "input_request", map[string]any{"prompt": "? ", "password": false})
		select {
		case in := <-f.inputs:
			var r struct {
				Value string `json:"value"`
			}
			json.Unmarshal(in.Content, &r)
			stream("stdout", fmt.Sprintf("input: %q\n", r.Value))
		case <-time.After(10 * time.Second):
			stream("stderr", "no input_reply\n")
		}
	case "stop heartbeat":
		f.hbStop.Store(true)
	case "process":
		runProcess(stream, "sleep", "60")
	case "process ignoring SIGINT":
		runProcess(stream, "sh", "-c", "trap '' INT; while :; do sleep 0.2; done")
	default:
		stream("stdout", strings.TrimSpace(code)+"\n")
	}
	f.send(protocol.Shell, req, "execute_reply", reply)
}

// runProcess runs a cell's program as GoNB does, a child named gonb_cell
// (program with args), beside one of GoNB's tools (sleep named gopls): it
// prints "corriendo", waits for the program, kills the tool, and prints
// how each ended. Nothing in the fake kernel signals the program: only
// the front end can stop it.
func runProcess(stream func(name, text string), program string, args ...string) {
	fail := func(err error) { stream("stderr", err.Error()+"\n") }
	dir, err := os.MkdirTemp("", "fake-bin")
	if err != nil {
		fail(err)
		return
	}
	defer os.RemoveAll(dir)
	// The kernel names a process after the link it was started from.
	start := func(name, program string, args ...string) *exec.Cmd {
		target, err := exec.LookPath(program)
		if err != nil {
			fail(err)
			return nil
		}
		link := filepath.Join(dir, name)
		if err := os.Symlink(target, link); err != nil {
			fail(err)
			return nil
		}
		cmd := exec.Command(link, args...)
		if err := cmd.Start(); err != nil {
			fail(err)
			return nil
		}
		return cmd
	}
	tool := start("gopls", "sleep", "60")
	if tool == nil {
		return
	}
	prog := start("gonb_cell", program, args...)
	if prog == nil {
		tool.Process.Kill()
		tool.Wait()
		return
	}
	stream("stdout", "corriendo\n")
	progErr := prog.Wait()
	tool.Process.Kill() // what ends it, unless something else did
	stream("stdout", fmt.Sprintf("program: %v; tool: %v\n", progErr, tool.Wait()))
}

// splitPanic fails splitPanicCell, cell n, as GoNB v0.11.4 would when
// the pipe's reads cut the stack trace between the innermost frame's
// path and its ":8": it writes the program in GoNB's directory under
// TMPDIR (which the front end sets) and streams the reads, each marked
// by GoNB's rule (gonbMarked).
func (f *fakeKernel) splitPanic(n int64, stream func(name, text string)) {
	path := filepath.Join(os.TempDir(), "gonb_fa4e0001", "main.go")
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte("package main\n\nimport (\n\t\"flag\"\n\t\"fmt\"\n)\n\nfunc f(s []int) int { return s[3] }\n\n\n"+
		"func main() {\n\tflag.Parse()\nfmt.Println(\"antes\")\nfmt.Println(f(nil))\n\n}\n"), 0o600)
	c := int(n)
	mapping := map[int]cellpos.Pos{8: {Cell: c, Line: 1}, 11: {Cell: c, Line: 2}, 12: {Cell: c, Line: 2}, 13: {Cell: c, Line: 3}, 14: {Cell: c, Line: 4}}
	stream("stdout", "antes\n")
	for _, read := range []string{
		"panic: runtime error: index out of range [3] with length 0\n\ngoroutine 1 [running]:\nmain.f(...)\n\t" + path,
		":8\nmain.main()\n\t" + path + ":14 +0x95\n",
		"exit status 2\n",
	} {
		stream("stderr", gonbMarked(read, path, mapping))
	}
}

// send writes a message of type msgType answering req on channel ch, to
// the identities of req (GoNB's way on every channel).
func (f *fakeKernel) send(ch protocol.Channel, req wire.Parts, msgType string, content any) {
	header, _ := json.Marshal(protocol.NewHeader(msgType, "fake", "kernel"))
	body, _ := json.Marshal(content)
	frames := wire.Encode(f.signer, wire.Parts{Identities: req.Identities, Header: header,
		ParentHeader: req.Header, Metadata: []byte("{}"), Content: body})
	f.mu[ch].Lock()
	defer f.mu[ch].Unlock()
	f.socks[ch].SendMulti(zmq4.NewMsgFrom(frames...))
}

// fakeCompileError returns the error GoNB v0.11.4 (with --raw_error)
// reports for cell n, code, when code asks for one with //fake: lines, or
// nil. The shapes are GoNB's (internal/goexec/gonberror.go): evalue is
// go build's output, or the parser's error, and traceback has one entry
// per line of it, a mapped one being "Cell[n]: Line L", the lines of
// main.go around it with a caret, and the message in red.
func fakeCompileError(code string, n int64) map[string]any {
	const pkg = "# gonb_fa4e0001"
	lines := strings.Split(code, "\n")
	values, tb := []string{pkg}, []string{pkg}
	for _, l := range lines {
		if msg, ok := strings.CutPrefix(l, "//fake:parse "); ok {
			return map[string]any{"ename": "ERROR", "evalue": "/tmp/dlbd-kernel-1/tmp/gonb_fa4e0001/main.go:30:1: " + msg,
				"traceback": []string{"\tflag.Parse()\nx := \n\n}\n^\n\n\n" + msg}}
		}
		spec, ok := strings.CutPrefix(l, "//fake:build ")
		if !ok {
			continue
		}
		var line, col int
		var msg string
		if k, _ := fmt.Sscanf(spec, "%d:%d", &line, &col); k != 2 || line < 1 || line > len(lines) || col < 1 {
			continue
		}
		msg = spec[strings.Index(spec, " ")+1:]
		values = append(values, fmt.Sprintf("./main.go:%d:%d: %s", line+20, col, msg))
		tb = append(tb, fmt.Sprintf("Cell[%d]: Line %d\n\nfunc main() {\n\tflag.Parse()\n%s\n%s^\n\n}\n\n\x1b[31m%s\x1b[0m",
			n, line, lines[line-1], strings.Repeat(" ", col-1), msg))
	}
	if len(values) == 1 {
		return nil
	}
	return map[string]any{"ename": "ERROR", "evalue": strings.Join(values, "\n") + "\n", "traceback": append(tb, "")}
}
