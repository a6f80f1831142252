package mapreduce

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// newDFS creates a DFS in a test directory and puts text as "in.txt".
func newDFS(t *testing.T, cfg Config, text string) *DFS {
	t.Helper()
	cfg.Dir = t.TempDir()
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Put("in.txt", strings.NewReader(text)); err != nil {
		t.Fatal(err)
	}
	return d
}

func randomLines(n int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 1))
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("%d-%s", i, strings.Repeat("x", r.IntN(40)))
	}
	return lines
}

func TestReadSplitReadsEveryLineOnce(t *testing.T) {
	lines := randomLines(60, 1)
	for _, text := range []string{strings.Join(lines, "\n") + "\n", strings.Join(lines, "\n")} {
		for _, bs := range []int64{1, 7, 45, 64, 1000, 1 << 20} {
			t.Run(fmt.Sprintf("block=%d/final-newline=%v", bs, strings.HasSuffix(text, "\n")), func(t *testing.T) {
				d := newDFS(t, Config{Nodes: 3, BlockSize: bs, Replication: 2}, text)
				f, _ := d.File("in.txt")
				var got []string
				for i := range f.Blocks {
					sp, err := d.ReadSplit(f, i, 0)
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, sp.Lines...)
				}
				if strings.Join(got, "\n") != strings.Join(lines, "\n") {
					t.Errorf("splits give %d lines; want the %d lines once each, in order", len(got), len(lines))
				}
			})
		}
	}
}

func corpus(t *testing.T, words int) string {
	t.Helper()
	var b bytes.Buffer
	if err := Corpus(&b, words, 7); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// sequentialCount is the word count of text in one loop: the reference.
func sequentialCount(text string) map[string]int64 {
	want := map[string]int64{}
	for _, line := range strings.Split(text, "\n") {
		for _, w := range Words(line) {
			want[w]++
		}
	}
	return want
}

func TestWordCountMatchesSequential(t *testing.T) {
	text := corpus(t, 20000)
	d := newDFS(t, Config{Nodes: 4, BlockSize: 4096}, text)
	rep, err := Run(context.Background(), d, "in.txt", WordCount(3), RunConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if want := sequentialCount(text); !maps.Equal(rep.Output, want) {
		t.Errorf("WordCount gives %d words; want %d (sequential count)", len(rep.Output), len(want))
	}
	f, _ := d.File("in.txt")
	if rep.MapTasks != len(f.Blocks) || len(rep.Attempts) != len(f.Blocks)+3 {
		t.Errorf("MapTasks = %d, attempts = %d; want %d blocks and %d attempts", rep.MapTasks, len(rep.Attempts), len(f.Blocks), len(f.Blocks)+3)
	}
	var total int64
	for _, n := range rep.ShuffleRecords {
		total += n
	}
	if total >= rep.MapOutput {
		t.Errorf("the combiner should shrink the shuffle: %d records fetched, %d emitted", total, rep.MapOutput)
	}
	local := 0
	for _, a := range rep.Attempts {
		if a.Kind == "map" && a.Local {
			local++
		}
	}
	// A worker takes a remote block only when no block of its node is left.
	if local < rep.MapTasks*3/4 {
		t.Errorf("%d of %d map tasks read a local replica; with 3 replicas on 4 nodes the scheduler should place most of them locally", local, rep.MapTasks)
	}
}

func TestRunRerunsFailedTask(t *testing.T) {
	text := corpus(t, 5000)
	d := newDFS(t, Config{Nodes: 3, BlockSize: 2048}, text)
	fail := func(tk Task) error {
		if tk.Kind == "map" && tk.Index == 2 && tk.Attempt == 0 {
			return errors.New("disco del worker lleno (fallo inyectado)")
		}
		return nil
	}
	rep, err := Run(context.Background(), d, "in.txt", WordCount(2), RunConfig{Fail: fail})
	if err != nil {
		t.Fatal(err)
	}
	failed := rep.Failed()
	if len(failed) != 1 || failed[0].Index != 2 {
		t.Fatalf("failed attempts = %+v; want map task 2 once", failed)
	}
	reran := false
	for _, a := range rep.Attempts {
		if a.Kind == "map" && a.Index == 2 && a.Attempt == 1 && a.Err == "" {
			reran = a.Worker != failed[0].Worker
		}
	}
	if !reran {
		t.Errorf("map task 2 was not re-run on another worker: %+v", rep.Attempts)
	}
	if !maps.Equal(rep.Output, sequentialCount(text)) {
		t.Error("the output after a re-run differs from the sequential count")
	}

	always := func(tk Task) error { return errors.New("roto") }
	_, err = Run(context.Background(), d, "in.txt", WordCount(2), RunConfig{Fail: always, MaxAttempts: 2})
	if err == nil || !strings.Contains(err.Error(), "failed 2 times") {
		t.Errorf("Run with every attempt failing: err = %v; want a task that failed 2 times", err)
	}
}

func TestRunSurvivesDeadNode(t *testing.T) {
	text := corpus(t, 5000)
	d := newDFS(t, Config{Nodes: 4, BlockSize: 2048, Replication: 2}, text)
	if err := d.Kill(1); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), d, "in.txt", WordCount(2), RunConfig{})
	if err != nil {
		t.Fatalf("with 2 replicas, one dead node must not lose data: %v", err)
	}
	if !maps.Equal(rep.Output, sequentialCount(text)) {
		t.Error("output with a dead node differs")
	}
	for _, a := range rep.Attempts {
		if a.Node == 1 {
			t.Errorf("a task ran on the dead node 1: %+v", a)
		}
	}
	if err := d.Kill(2); err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), d, "in.txt", WordCount(2), RunConfig{MaxAttempts: 1})
	if !errors.Is(err, ErrNoReplica) || !strings.Contains(err.Error(), "Replication") {
		t.Errorf("blocks on nodes 1 and 2 only: err = %v; want ErrNoReplica naming the fix", err)
	}
}

func TestRereplicate(t *testing.T) {
	text := corpus(t, 3000)
	d := newDFS(t, Config{Nodes: 4, BlockSize: 1024, Replication: 2}, text)
	d.Kill(0)
	copies, err := d.Rereplicate()
	if err != nil || copies == 0 {
		t.Fatalf("Rereplicate = %d, %v; want copies of the blocks node 0 held", copies, err)
	}
	d.Kill(1)
	d2, err := Open(d.Config().Dir) // a later cell
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), d2, "in.txt", WordCount(2), RunConfig{})
	if err != nil {
		t.Fatalf("after Rereplicate a second dead node must not lose data: %v", err)
	}
	if !maps.Equal(rep.Output, sequentialCount(text)) {
		t.Error("output differs after re-replication")
	}
}

func TestRunCancel(t *testing.T) {
	d := newDFS(t, Config{Nodes: 2, BlockSize: 512}, corpus(t, 3000))
	ctx, cancel := context.WithCancel(context.Background())
	slow := func(Task) error { cancel(); time.Sleep(10 * time.Millisecond); return nil }
	done := make(chan error)
	go func() { _, err := Run(ctx, d, "in.txt", WordCount(2), RunConfig{Fail: slow}); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled Run: err = %v; want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after its context was cancelled")
	}
}

func TestConfigErrors(t *testing.T) {
	if _, err := New(Config{}); err == nil {
		t.Error("New without Dir: want an error")
	}
	if _, err := New(Config{Dir: t.TempDir(), Nodes: 2, Replication: 3}); err == nil || !strings.Contains(err.Error(), "Replication ≤ Nodes") {
		t.Errorf("Replication > Nodes: err = %v", err)
	}
	if _, err := Open(t.TempDir()); err == nil || !strings.Contains(err.Error(), "mapreduce.New") {
		t.Errorf("Open of an empty dir: err = %v", err)
	}
}
