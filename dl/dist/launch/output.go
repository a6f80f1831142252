package launch

import (
	"bufio"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// lockedWriter serialises whole lines from several ranks onto one writer.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) line(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	io.WriteString(l.w, s+"\n")
}

// lastLines keeps a rank's last error-looking line, for RankFailure.Cause.
type lastLines struct {
	mu   sync.Mutex
	last map[int]string
}

func (l *lastLines) note(rank int, s string) {
	if !strings.Contains(s, "dist:") && !strings.Contains(s, "panic:") && !strings.Contains(s, "error") {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.last == nil {
		l.last = map[int]string{}
	}
	if _, ok := l.last[rank]; !ok || !strings.Contains(l.last[rank], "dist:") {
		l.last[rank] = s
	}
}

func (l *lastLines) get(rank int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last[rank]
}

// prefixLines copies r to out line by line, each prefixed "[rank r] ".
func prefixLines(r io.Reader, rank int, out *lockedWriter, notes *lastLines) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		notes.note(rank, sc.Text())
		out.line(prefix(rank) + sc.Text())
	}
}

func prefix(rank int) string { return "[rank " + strconv.Itoa(rank) + "] " }

// mpiTag matches the tag mpirun --tag-output puts before every line:
// "[1,2]<stdout>:" (job, rank, stream).
var mpiTag = regexp.MustCompile(`^\[\d+,(\d+)\]<(stdout|stderr)>:`)
