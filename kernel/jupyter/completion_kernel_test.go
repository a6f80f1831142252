package jupyter

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/kernel/internal/kerneltest"
	"github.com/dlbd/dlbd/kernel/jupyter/internal/corpus"
)

//go:generate go run ./internal/corpus/gencorpus -notebooks ../../notebooks -o testdata/completion_corpus.json

// corpusCells is how many cells the session has run when the corpus's
// completions are measured: its setups, one %mode cell, and fillers.
const corpusCells = 30

// assistStats collects the replies of completion or inspection requests.
type assistStats struct {
	latencies []time.Duration
	found     map[string][2]int // kind -> found, asked
	misses    []string
}

func newAssistStats() *assistStats { return &assistStats{found: map[string][2]int{}} }

// record adds one request of kind that took d; miss describes it, when
// not found, in the list of misses ("": left out of it).
func (s *assistStats) record(kind string, d time.Duration, ok bool, miss string) {
	s.latencies = append(s.latencies, d)
	n := s.found[kind]
	n[1]++
	if ok {
		n[0]++
	} else if miss != "" {
		s.misses = append(s.misses, miss)
	}
	s.found[kind] = n
}

// share returns the found share in percent, over every kind.
func (s *assistStats) share() float64 {
	var found, asked int
	for _, n := range s.found {
		found, asked = found+n[0], asked+n[1]
	}
	return 100 * float64(found) / float64(max(asked, 1))
}

// percentile returns the p-th percentile (0-100) of the latencies,
// nearest rank, in milliseconds.
func (s *assistStats) percentile(p float64) float64 {
	d := slices.Clone(s.latencies)
	slices.Sort(d)
	if len(d) == 0 {
		return 0
	}
	i := max(0, int(float64(len(d))*p/100+0.5)-1)
	return float64(d[min(i, len(d)-1)].Microseconds()) / 1e3
}

// summary returns "found 97.4% (package-member 80/80, ...)".
func (s *assistStats) summary() string {
	var kinds []string
	for k, n := range s.found {
		kinds = append(kinds, fmt.Sprintf("%s %d/%d", k, n[0], n[1]))
	}
	sort.Strings(kinds)
	return fmt.Sprintf("found %.1f%% (%s); p50 %.1f ms, p95 %.1f ms, max %.1f ms over %d requests",
		s.share(), strings.Join(kinds, ", "), s.percentile(50), s.percentile(95), s.percentile(100), len(s.latencies))
}

// readCorpus reads testdata/completion_corpus.json.
func readCorpus(tb testing.TB) *corpus.Corpus {
	tb.Helper()
	c, err := corpus.Read(filepath.Join("testdata", "completion_corpus.json"))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// runCorpus completes every entry of corp on c, passes times each, in
// the notebooks' order: in the stateful mode a notebook's setup cell runs
// before its entries, then one %mode process cell switches to the process
// mode for the entries of process cells. Before that, filler cells bring
// the session to cells cells (0: none). pause and resume, when not nil,
// stop and restart a benchmark's timer around the cells.
func runCorpus(tb testing.TB, c *Client, corp *corpus.Corpus, cells, passes int, pause, resume func()) *assistStats {
	tb.Helper()
	ctx := kerneltest.Context(tb, 20*time.Minute)
	exec := func(code string) {
		if pause != nil {
			pause()
			defer resume()
		}
		if ex, err := c.Execute(ctx, code); err != nil {
			tb.Fatalf("Execute(%.80q): %v\n%s", code, err, stderrOf(ex))
		}
	}
	setups := map[string]string{}
	for _, s := range corp.Setups {
		setups[s.Notebook] = s.Code
	}
	for i := range cells - len(corp.Setups) - 1 {
		exec(fmt.Sprintf("func relleno%d() int { return %d }\n%%%%\nvalor%d := relleno%d()", i, i, i, i))
	}
	st := newAssistStats()
	done := map[string]bool{}
	for _, mode := range []string{"stateful", "process"} {
		if mode == "process" {
			exec("%mode process")
		}
		for _, e := range corp.Entries {
			if e.Mode != mode {
				continue
			}
			if code := setups[e.Notebook]; mode == "stateful" && !done[e.Notebook] && code != "" {
				exec(code)
			}
			done[e.Notebook] = true
			for pass := range passes {
				t0 := time.Now()
				r, err := c.Complete(ctx, e.Code, e.Cursor)
				d := time.Since(t0)
				if err != nil {
					tb.Fatalf("%s cell %d: Complete: %v", e.Notebook, e.Cell, err)
				}
				ok := true
				for _, want := range e.Expect {
					ok = ok && slices.Contains(r.Matches, want)
				}
				miss := ""
				if !ok && pass == 0 {
					miss = fmt.Sprintf("%s cell %d (%s, %s): %q: want %q, got %d matches %q",
						e.Notebook, e.Cell, e.Mode, e.Kind, lastRunes(e.Code, 40), e.Expect, len(r.Matches), r.Matches[:min(len(r.Matches), 8)])
				}
				st.record(e.Mode+"/"+e.Kind, d, ok, miss)
			}
		}
	}
	return st
}

// lastRunes returns the last n code points of s.
func lastRunes(s string, n int) string {
	r := []rune(s)
	return string(r[max(0, len(r)-n):])
}

// BenchmarkCompletionCorpus completes the corpus's positions in the
// course's notebooks (testdata/completion_corpus.json) on the installed
// kernel, in a session of 30 cells, and reports the share of positions
// whose expected name is in the reply (found-%, goal 95) and the reply
// latency's median and 95th percentile (goals 50 and 150 ms on the 2-core
// machine), and the kernel process's RSS at the end (kernel-MiB). One op
// is one pass over the corpus.
func BenchmarkCompletionCorpus(b *testing.B) {
	corp := readCorpus(b)
	c := startClient(b, dlbdSpec(b, "stateful"), 2*time.Minute)
	b.ResetTimer()
	st := runCorpus(b, c, corp, corpusCells, b.N, b.StopTimer, b.StartTimer)
	b.Log(st.summary())
	for _, m := range st.misses[:min(len(st.misses), 40)] {
		b.Log("miss: " + m)
	}
	b.ReportMetric(st.share(), "found-%")
	b.ReportMetric(st.percentile(50), "p50-ms")
	b.ReportMetric(st.percentile(95), "p95-ms")
	b.ReportMetric(float64(rss(b, c.PID())), "kernel-MiB") // front end, session, completion's packages
}

// TestCompletionCorpus completes every position of the corpus once, in a
// session that has run only the corpus's setups, and fails when fewer than
// 95% of them offer the name the notebook writes there.
func TestCompletionCorpus(t *testing.T) {
	corp := readCorpus(t)
	c := startDLBDMode(t, "stateful")
	st := runCorpus(t, c, corp, 0, 1, nil, nil)
	t.Logf("%s\nmisses:\n%s", st.summary(), strings.Join(st.misses, "\n"))
	if share := st.share(); share < 95 {
		t.Errorf("completion found the notebook's name at %.1f%% of %d positions; want at least 95%%", share, len(st.latencies))
	}
}
