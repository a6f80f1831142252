package spark

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/bigdata/mapreduce"
)

// corpusFile writes the mapreduce corpus to a file and returns its path.
func corpusFile(t *testing.T, words int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "corpus.txt")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := mapreduce.Corpus(f, words, 3); err != nil {
		t.Fatal(err)
	}
	return p
}

func naiveCount(t *testing.T, path string) map[string]int64 {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := mapreduce.New(mapreduce.Config{Dir: t.TempDir(), BlockSize: 8 << 10})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Put("corpus.txt", strings.NewReader(string(text))); err != nil {
		t.Fatal(err)
	}
	rep, err := mapreduce.Run(context.Background(), d, "corpus.txt", mapreduce.WordCount(4), mapreduce.RunConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Output
}

func TestWordCountMatchesMapReduce(t *testing.T) {
	s := session(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	path := corpusFile(t, 30000)
	df, err := s.WordCount(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Counts(ctx, df)
	if err != nil {
		t.Fatal(err)
	}
	want := naiveCount(t, path)
	if !maps.Equal(got, want) {
		for w, n := range want {
			if got[w] != n {
				t.Errorf("Spark counts %q %d times; the naive MapReduce %d", w, got[w], n)
			}
		}
		t.Fatalf("Spark found %d words, the naive MapReduce %d", len(got), len(want))
	}
	plan, err := Plan(ctx, df)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan, "Exchange hashpartitioning(word") || !strings.Contains(plan, "HashAggregate") {
		t.Errorf("the physical plan should show the shuffle (Exchange hashpartitioning) between two HashAggregates:\n%s", plan)
	}
}

func TestInjectedTaskFailureIsRerun(t *testing.T) {
	s := session(t)
	srv, local := Running(Config{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	path := corpusFile(t, 5000)
	lines, err := s.Read().Format("text").Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var mark int64
	if local {
		mark = srv.LogMark()
	}
	trapped, err := InjectTaskFailure(ctx, lines, NewTrapKey())
	if err != nil {
		t.Fatal(err)
	}
	df, err := WordCountOf(ctx, trapped)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Counts(ctx, df)
	if err != nil {
		t.Fatalf("the job should survive one failed task (spark.task.maxFailures=2): %v", err)
	}
	if want := naiveCount(t, path); !maps.Equal(got, want) {
		t.Errorf("after the re-run Spark counts %d words; want %d", len(got), len(want))
	}
	if !local {
		t.Skip("the server log is on the remote cluster")
	}
	lost, err := srv.TaskFailures(mark)
	if err != nil {
		t.Fatal(err)
	}
	if len(lost) != 1 || !strings.Contains(lost[0], "Lost task 0.0") || !strings.Contains(lost[0], "fallo inyectado") {
		t.Errorf("server log after the job: %q; want one lost task 0.0 with the injected failure", lost)
	}
}
