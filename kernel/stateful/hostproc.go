package stateful

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	gonbprotocol "github.com/janpfeifer/gonb/gonbui/protocol"

	"github.com/dlbd/dlbd/kernel/internal/envlist"
	"github.com/dlbd/dlbd/kernel/internal/proc"
	"github.com/dlbd/dlbd/kernel/stateful/host"
)

// hostPackage is the host program's import path.
const hostPackage = "github.com/dlbd/dlbd/kernel/cmd/dlbd-host"

// BuildTags are the build tags of every package the session builds, the
// host and the cells' plugins alike (a plugin loads only into a host built
// from the same packages with the same tags):
//   - noasm: the pure-Go versions of the compression libraries that
//     arrow-go, the Spark client and franz-go use (pierrec/lz4,
//     klauspost/compress), whose assembly Go cannot build for a plugin
//     (-dynlink clobbers R15). dl's own assembly has its own tag,
//     dlbd_noasm, and stays on.
//   - arrow_json_stdlib: arrow-go's JSON through encoding/json instead of
//     goccy/go-json, which would add a third to every plugin that uses Arrow.
//   - dlbd_stateful: the Big Data engines' implementations (DuckDB, the
//     Parquet codecs, franz-go, the NATS server and client) are linked into
//     the host only (kernel/cmd/dlbd-host), not into each cell that uses
//     their packages: a cell that queries a DuckDB connection made earlier
//     links database/sql, not DuckDB's 80 MB library.
var BuildTags = []string{"noasm", "arrow_json_stdlib", "dlbd_stateful"}

// goEnv returns the environment of the go command for the session's
// builds: the kernel's, with cgo on (plugins need it) and BuildTags added
// to GOFLAGS.
func (s *Session) goEnv() []string {
	env := envlist.Parse(s.o.Env)
	env.Set("CGO_ENABLED", "1")
	env.Unset("GOWORK") // the session's go.work
	flags, _ := env.Get("GOFLAGS")
	env.Set("GOFLAGS", withTags(flags, BuildTags))
	return env.Environ()
}

// withTags returns the GOFLAGS value flags with tags added to its -tags
// flag (or a new one): the go command keeps only the last -tags it is given.
func withTags(flags string, tags []string) string {
	var out, have []string
	for _, f := range strings.Fields(flags) {
		if v, ok := strings.CutPrefix(strings.TrimLeft(f, "-"), "tags="); ok && f[0] == '-' { // -tags= or --tags=
			have = append(have, strings.Split(v, ",")...)
		} else {
			out = append(out, f)
		}
	}
	for _, t := range tags {
		if !slices.Contains(have, t) {
			have = append(have, t)
		}
	}
	return strings.Join(append(out, "-tags="+strings.Join(have, ",")), " ")
}

// buildHost builds the host program and returns its path. It is built
// into the user's cache (hostCacheDir), shared by every session of this
// checkout, and hard-linked into the session's directory: the go command
// leaves an up-to-date program as it is, so the host, which links the Big
// Data engines (DuckDB's library alone is 80 MB; the link takes 5-7 s on
// 2 cores), is linked once after each change of this module, not at every
// kernel start. A lock keeps two kernels from building it at once. The
// running host keeps the program it started from: the go command replaces
// the file, it does not write into it.
func (s *Session) buildHost(ctx context.Context) (string, error) {
	bin := filepath.Join(s.dir, "dlbd-host")
	cache, err := hostCacheDir(s.o.Env, s.o.Repo)
	if err != nil {
		return "", err
	}
	unlock, err := lockFile(ctx, filepath.Join(cache, "lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	shared := filepath.Join(cache, "dlbd-host")
	// -buildvcs=false: the checkout's git state (a commit, a new file) must
	// not make a new program out of the same source, which would start the
	// session over and lose its values.
	if out, err := s.goRun(ctx, s.dir, s.goEnv(), "build", "-buildvcs=false", "-o", shared, hostPackage); err != nil {
		return "", fmt.Errorf("stateful: build the session's host program (go build %s): %v\n%s", hostPackage, err, strings.TrimSpace(string(out)))
	}
	os.Remove(bin)
	if err := os.Link(shared, bin); err != nil {
		if err := copyFile(shared, bin); err != nil {
			return "", fmt.Errorf("stateful: copy the host program into the session: %w", err)
		}
	}
	return bin, nil
}

// hostProc is a running host.
type hostProc struct {
	p       *proc.Proc
	req     *os.File
	replies chan host.Reply
	marker  string
	closers []*os.File

	mu       sync.Mutex
	ended    map[int]int // request id -> markers seen (one per stream)
	endedC   chan struct{}
	stderr   tailBuffer // the last bytes of its stderr: a crash's message
	nextID   int
	readers  sync.WaitGroup // the stream and display readers
	killOnce sync.Once
}

// startHost starts the host program with its pipes and readers.
func (s *Session) startHost() (*hostProc, error) {
	h := &hostProc{replies: make(chan host.Reply, 1), marker: "\x1eDLBD-END-" + randomHex(8) + ":", ended: map[int]int{}, endedC: make(chan struct{}, 8)}
	fail := func(err error) (*hostProc, error) {
		for _, f := range h.closers {
			f.Close()
		}
		return nil, err
	}
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			h.closers = append(h.closers, r, w)
		}
		return r, w, err
	}
	reqR, reqW, err1 := pipe()
	repR, repW, err2 := pipe()
	outR, outW, err3 := pipe()
	errR, errW, err4 := pipe()
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		return fail(fmt.Errorf("stateful: pipes for the host: %w", err))
	}
	id := randomHex(4)
	display, back := filepath.Join(s.dir, "display-"+id), filepath.Join(s.dir, "back-"+id)
	for _, f := range []string{display, back} {
		if err := syscall.Mkfifo(f, 0o600); err != nil {
			return fail(fmt.Errorf("stateful: make the display pipe %s: %w", f, err))
		}
	}
	// Read-write opens never block, and keep each pipe open on our side.
	dispF, err5 := os.OpenFile(display, os.O_RDWR, 0)
	backF, err6 := os.OpenFile(back, os.O_RDWR, 0)
	if err := errors.Join(err5, err6); err != nil {
		return fail(fmt.Errorf("stateful: open the display pipes: %w", err))
	}
	h.closers = append(h.closers, dispF, backF)

	cmd := exec.Command(s.hostBin)
	cmd.Dir = s.o.WorkDir
	env := envlist.Parse(s.o.Env)
	for k, v := range map[string]string{
		gonbprotocol.GONB_PIPE_ENV: display, gonbprotocol.GONB_PIPE_BACK_ENV: back, gonbprotocol.GONB_TMP_DIR_ENV: s.dir, gonbprotocol.GONB_DIR_ENV: s.o.WorkDir,
		"DLBD_HOST_MARKER": h.marker,
	} {
		env.Set(k, v)
	}
	for k, v := range s.env {
		env.Set(k, v)
	}
	cmd.Env = env.Environ()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, outW, errW
	cmd.ExtraFiles = []*os.File{reqR, repW}
	p, err := proc.Start(cmd, proc.Options{Group: true})
	if err != nil {
		return fail(fmt.Errorf("stateful: start the host %s: %w", s.hostBin, err))
	}
	h.p = p
	s.o.Guard.Group(p.Pid())
	reqR.Close()
	repW.Close()
	outW.Close()
	errW.Close()
	h.req = reqW
	h.readers.Add(4)
	for _, st := range []struct {
		name string
		r    *os.File
	}{{"stdout", outR}, {"stderr", errR}} {
		go func() {
			defer h.readers.Done()
			sr := &streamReader{r: st.r, marker: []byte(h.marker), ended: h.markerSeen,
				write: func(text string) {
					if st.name == "stderr" {
						h.stderr.write(text)
					}
					s.sink.stream(st.name, text)
				}}
			sr.run()
		}()
	}
	go func() {
		defer h.readers.Done()
		(&displayReader{in: dispF, back: backF, show: s.sink.display, seen: map[string]bool{}}).run()
	}()
	go func() {
		defer h.readers.Done()
		defer close(h.replies)
		sc := bufio.NewScanner(repR)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			var rep host.Reply
			if json.Unmarshal(sc.Bytes(), &rep) == nil {
				h.replies <- rep
			}
		}
	}()
	go func() { // the host's end closes what the readers read
		<-p.Done()
		repR.Close()
		time.Sleep(50 * time.Millisecond) // let the streams drain what the host wrote last
		dispF.Close()
		backF.Close()
	}()
	return h, nil
}

// markerSeen records an end marker of request id on one stream.
func (h *hostProc) markerSeen(id int) {
	h.mu.Lock()
	h.ended[id]++
	h.mu.Unlock()
	select {
	case h.endedC <- struct{}{}:
	default:
	}
}

// waitMarkers waits until both streams carried request id's end marker,
// so that all the cell printed has been published, or until d passes.
func (h *hostProc) waitMarkers(id int, d time.Duration) {
	deadline := time.After(d)
	for {
		h.mu.Lock()
		n := h.ended[id]
		h.mu.Unlock()
		if n >= 2 {
			return
		}
		select {
		case <-h.endedC:
		case <-deadline:
			return
		case <-h.p.Done():
			return
		}
	}
}

// errHostGone says the host ended while the session waited for it.
var errHostGone = errors.New("stateful: the host process ended")

// run sends req and waits for its reply and its output.
func (h *hostProc) run(req host.Request) (host.Reply, error) {
	h.mu.Lock()
	h.nextID++
	req.ID = h.nextID
	h.mu.Unlock()
	line, _ := json.Marshal(req)
	if _, err := h.req.Write(append(line, '\n')); err != nil {
		return host.Reply{}, errHostGone
	}
	rep, ok := <-h.replies
	if !ok {
		<-h.p.Done()
		h.readers.Wait()
		return host.Reply{}, errHostGone
	}
	h.waitMarkers(req.ID, 5*time.Second)
	return rep, nil
}

// op sends an OpEnv or OpCd request and waits for its reply.
func (h *hostProc) op(op host.Op, name, value string) error {
	h.mu.Lock()
	h.nextID++
	req := host.Request{ID: h.nextID, Op: op, Name: name, Value: value}
	h.mu.Unlock()
	line, _ := json.Marshal(req)
	if _, err := h.req.Write(append(line, '\n')); err != nil {
		return errHostGone
	}
	rep, ok := <-h.replies
	if !ok {
		return errHostGone
	}
	if rep.Status != host.StatusOK {
		return fmt.Errorf("%%%s: %s", op, rep.EValue)
	}
	return nil
}

// closeGrace is how long stop waits for the host to close what its cells
// left open and exit: Jupyter kills a kernel that has not ended 5 s after
// a shutdown request.
const closeGrace = 4 * time.Second

// stop ends an idle host: it closes the request pipe, at which the host
// closes the resources its cells' values hold (Spark sessions, DuckDB
// databases, brokers, files: internal/resources) and exits; a host that
// has not exited within grace is killed, with everything it started.
func (h *hostProc) stop(grace time.Duration) {
	h.req.Close()
	select {
	case <-h.p.Done():
	case <-time.After(grace):
	}
	h.kill()
}

// kill ends the host and everything it started. Calls after the first
// wait for it and do nothing more.
func (h *hostProc) kill() {
	h.killOnce.Do(func() {
		h.req.Close()
		h.p.Kill()
		h.readers.Wait()
		for _, f := range h.closers {
			f.Close()
		}
	})
}

// tailBuffer keeps the last bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

const tailMax = 64 << 10

func (t *tailBuffer) write(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, s...)
	if len(t.buf) > tailMax {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-tailMax:]...)
	}
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
