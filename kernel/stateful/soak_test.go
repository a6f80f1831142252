package stateful

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// hostRSS returns the resident memory of the session's host in KiB.
func hostRSS(t *testing.T, s *Session) int {
	t.Helper()
	s.mu.Lock()
	h := s.h
	s.mu.Unlock()
	if h == nil {
		t.Fatal("no host running")
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", h.p.Pid()))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kib, _ := strconv.Atoi(strings.Fields(rest)[0])
			return kib
		}
	}
	t.Fatal("no VmRSS in /proc status")
	return 0
}

// TestSessionSoak runs 200 cells in one session, each building on the
// last, checks that every value is right at the end, and reports how much
// the host's memory grew per cell (plugins never unload).
func TestSessionSoak(t *testing.T) {
	ts := newTestSession(t)
	const cells = 200
	t0 := time.Now()
	ts.ok("%%\nv0 := 0\nhistoria := []int{0}")
	var rss10 int
	for i := 1; i < cells; i++ {
		if time.Since(t0) > 8*time.Minute {
			t.Fatalf("the soak took over 8 minutes at cell %d", i)
		}
		code := fmt.Sprintf("func paso%d(x int) int { return x + 1 }\n%%%%\nv%d := paso%d(v%d)\nhistoria = append(historia, v%d)", i, i, i, i-1, i)
		ts.ok(code)
		if i == 10 {
			rss10 = hostRSS(t, ts.s)
		}
	}
	got := ts.ok(fmt.Sprintf("%%%%\nfmt.Println(v%d, len(historia), historia[57], paso3(v10))", cells-1))
	if want := fmt.Sprintf("%d %d 57 11\n", cells-1, cells); got != want {
		t.Errorf("after %d cells: %q; want %q", cells, got, want)
	}
	rss := hostRSS(t, ts.s)
	perCell := float64(rss-rss10) / float64(cells-10)
	var disk int64
	filepath.Walk(ts.s.Dir(), func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			disk += fi.Size()
		}
		return nil
	})
	t.Logf("%d cells in %v (%.0f ms per cell); host RSS %d MiB after cell 10, %d MiB after cell %d: %.0f KiB per cell; session directory %d MiB",
		cells, time.Since(t0).Round(time.Second), float64(time.Since(t0).Milliseconds())/cells, rss10>>10, rss>>10, cells, perCell, disk>>20)
}
