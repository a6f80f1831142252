package frontend

import (
	"encoding/json"
	"regexp"
	"sync"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/cellpos"
	"github.com/dlbd/dlbd/kernel/protocol"
)

// maxCells bounds how many running execute requests the front end watches (a
// reply that never comes must not keep its entry for ever), and maxStderr
// how much of each one's stderr it keeps: the end, where a panic is.
const (
	maxCells  = 64
	maxStderr = 64 << 10
)

// replyWait is how long an execute_reply waits for the IOPub error of its
// request: GoNB publishes that first, but on another socket, which the
// front end reads in another goroutine.
const replyWait = time.Second

// exitStatus matches the whole error value GoNB gives a cell whose program
// exited with a non-zero status.
var exitStatus = regexp.MustCompile(`^exit status \d+$`)

// watchedCell is what the front end watches of one execute request.
type watchedCell struct {
	stderr    []byte                 // the last maxStderr bytes of its stderr stream
	published chan struct{}          // closed when its IOPub error has been forwarded
	rewritten *protocol.ErrorContent // what that error was rewritten to, if it was
}

// cells tracks the running execute requests by msg_id. The zero value is
// ready; it is safe for concurrent use.
type cells struct {
	// compile, when set (before the messages flow), rewrites GoNB's
	// compile error for request id ([execute.compileError]); nil leaves it.
	compile func(id string, old protocol.ErrorContent) *protocol.ErrorContent
	// place, when set (before the messages flow), places a frame of
	// request id's panic in GoNB's program that GoNB did not mark with
	// its cell line ([execute.programLine]); nil leaves such frames out.
	place func(id, program string, n int) (cellpos.Pos, bool)

	mu    sync.Mutex
	byID  map[string]*watchedCell
	order []string // oldest first
}

// start begins watching the request id.
func (cs *cells) start(id string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.byID == nil {
		cs.byID = map[string]*watchedCell{}
	}
	if len(cs.order) == maxCells {
		delete(cs.byID, cs.order[0])
		cs.order = cs.order[1:]
	}
	cs.byID[id] = &watchedCell{published: make(chan struct{})}
	cs.order = append(cs.order, id)
}

// get returns the watched request id, or nil.
func (cs *cells) get(id string) *watchedCell {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.byID[id]
}

// watching reports whether the request id is watched.
func (cs *cells) watching(id string) bool { return cs.get(id) != nil }

// stream records the content of a stream message for request id.
func (cs *cells) stream(id string, content []byte) {
	var st protocol.Stream
	if json.Unmarshal(content, &st) != nil || st.Name != "stderr" {
		return
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if c := cs.byID[id]; c != nil {
		c.stderr = append(c.stderr, st.Text...)
		if over := len(c.stderr) - maxStderr; over > 0 {
			c.stderr = append(c.stderr[:0], c.stderr[over:]...)
		}
	}
}

// published handles the IOPub error of request id: it returns the
// rewritten content (a panic's, or a compile error's), or nil to forward
// the message as it is.
func (cs *cells) published(id string, content []byte) []byte {
	c := cs.get(id)
	if c == nil {
		return nil
	}
	cs.mu.Lock()
	stderr := string(c.stderr)
	cs.mu.Unlock()
	out, fields := rewrite(content, stderr, cs.placer(id))
	if fields == nil {
		out, fields = cs.rewriteCompile(id, content)
	}
	cs.mu.Lock()
	if c.rewritten == nil && fields != nil {
		c.rewritten = fields
	}
	cs.mu.Unlock()
	select {
	case <-c.published:
	default:
		close(c.published)
	}
	return out
}

// reply handles the execute_reply of request id and stops watching it: it
// returns the rewritten content, or nil to forward the reply as it is. A
// reply with an error of GoNB's gets what its IOPub error was rewritten
// to, which GoNB published first.
func (cs *cells) reply(id string, content []byte) []byte {
	c := cs.get(id)
	if c == nil {
		return nil
	}
	defer cs.forget(id)
	var r protocol.ErrorContent
	if json.Unmarshal(content, &r) != nil || !exitStatus.MatchString(r.EValue) && r.EName != gonbError {
		return nil
	}
	t := time.NewTimer(replyWait)
	defer t.Stop()
	select {
	case <-c.published:
	case <-t.C: // no IOPub error came: use the stderr seen so far
	}
	cs.mu.Lock()
	fields, stderr := c.rewritten, string(c.stderr)
	cs.mu.Unlock()
	if fields != nil {
		return replaceFields(content, *fields)
	}
	if out, f := rewrite(content, stderr, cs.placer(id)); f != nil {
		return out
	}
	out, _ := cs.rewriteCompile(id, content)
	return out
}

// rewriteCompile returns content with its error fields rewritten by
// compile, and the new fields; nil, nil when compile leaves it.
func (cs *cells) rewriteCompile(id string, content []byte) ([]byte, *protocol.ErrorContent) {
	var old protocol.ErrorContent
	if cs.compile == nil || json.Unmarshal(content, &old) != nil {
		return nil, nil
	}
	f := cs.compile(id, old)
	if f == nil {
		return nil, nil
	}
	return replaceFields(content, *f), f
}

// forget stops watching request id.
func (cs *cells) forget(id string) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	delete(cs.byID, id)
	for i, o := range cs.order {
		if o == id {
			cs.order = append(cs.order[:i], cs.order[i+1:]...)
			break
		}
	}
}

// placer returns the function that places the unmarked frames of request
// id's panic, or nil.
func (cs *cells) placer(id string) placeFunc {
	if cs.place == nil {
		return nil
	}
	return func(program string, n int) (cellpos.Pos, bool) { return cs.place(id, program, n) }
}

// rewrite returns content with its error fields describing the panic in
// stderr, when content's evalue is only "exit status N" and stderr holds a
// panic; otherwise nil. It also returns the new fields. The frames are
// those GoNB marked with a cell line and those place (when not nil)
// places. stderr is the whole stream, its messages joined: a frame's path
// and line may have come in two of them.
func rewrite(content []byte, stderr string, place placeFunc) ([]byte, *protocol.ErrorContent) {
	var old protocol.ErrorContent
	if json.Unmarshal(content, &old) != nil || !exitStatus.MatchString(old.EValue) {
		return nil, nil
	}
	p, ok := parsePanic(stderr, place)
	if !ok {
		return nil, nil
	}
	f := protocol.NewError(p.Kind, p.Summary(), append(p.Traceback(), old.EValue))
	return replaceFields(content, f), &f
}

// replaceFields returns content with ename, evalue and traceback set to f
// and every other field kept as it was, or nil if content is not a JSON
// object.
func replaceFields(content []byte, f protocol.ErrorContent) []byte {
	var fields map[string]json.RawMessage
	if json.Unmarshal(content, &fields) != nil {
		return nil
	}
	fields["ename"], fields["evalue"], fields["traceback"] = encode(f.EName), encode(f.EValue), encode(f.Traceback)
	return encode(fields)
}

// encode is [protocol.Marshal] for values that always encode (strings,
// string slices, raw JSON and the protocol's content structs).
func encode(v any) json.RawMessage {
	b, _ := protocol.Marshal(v)
	return b
}
