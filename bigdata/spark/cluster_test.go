package spark

import (
	"context"
	"fmt"
	"maps"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// clusterTestEnv names the variable that runs the standalone-cluster tests (make
// cluster-test sets it): they start 5 JVMs and take about a minute.
const clusterTestEnv = "DLBD_CLUSTER_TEST"

// testCluster starts a 2-worker cluster on ports of its own (a cluster started by bdctl
// may run beside it) and stops it when the test ends.
func testCluster(t *testing.T) (*Cluster, *Session) {
	t.Helper()
	if os.Getenv(clusterTestEnv) == "" {
		t.Skipf("starts a Spark standalone cluster (5 JVMs): run by `make cluster-test` (%s=1)", clusterTestEnv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	c, err := StartCluster(ctx, ClusterConfig{
		MasterPort: 17177, MasterUIPort: 18180, DriverUIPort: 14140,
		Connect: Config{Port: 15103}, Dir: t.TempDir(), Watch: os.Getpid(),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Error(err)
		}
	})
	s, err := Connect(ctx, c.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	// The executors register with the driver a moment after it starts.
	waitFor(t, ctx, "2 active executors", func() (bool, error) {
		ex, err := c.Executors(ctx)
		return len(active(ex)) == 2, err
	})
	return c, s
}

func active(ex []Executor) []Executor {
	var out []Executor
	for _, e := range ex {
		if e.IsActive {
			out = append(out, e)
		}
	}
	return out
}

func waitFor(t *testing.T, ctx context.Context, what string, cond func() (bool, error)) {
	t.Helper()
	var err error
	for ctx.Err() == nil {
		var ok bool
		if ok, err = cond(); ok {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("waiting for %s: %v (last error: %v)", what, ctx.Err(), err)
}

func tasksByExecutor(t *testing.T, ctx context.Context, c *Cluster) map[string]int {
	t.Helper()
	ex, err := c.Executors(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]int{}
	for _, e := range ex {
		m[e.ID] = e.TotalTasks
	}
	return m
}

func collectRows(t *testing.T, ctx context.Context, s *Session, query string) [][]any {
	t.Helper()
	res, err := s.Query(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	return res.Rows
}

// TestCluster runs on one standalone cluster of 2 workers: the same answers as local mode
// with the work on both workers, then a lost worker.
func TestCluster(t *testing.T) {
	c, s := testCluster(t)
	t.Run("MatchesLocal", func(t *testing.T) { clusterMatchesLocal(t, c, s) })
	t.Run("SurvivesLostWorker", func(t *testing.T) { clusterSurvivesLostWorker(t, c, s) })
}

// clusterMatchesLocal runs a word count and a groupBy on the cluster, where the shuffle
// crosses executors of two workers, and on the local server: the same rows.
func clusterMatchesLocal(t *testing.T, c *Cluster, cs *Session) {
	local := session(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	before := tasksByExecutor(t, ctx, c)
	path := corpusFile(t, 30000)
	counts := func(s *Session) map[string]int64 {
		lines, err := s.Read().Format("text").Option("wholetext", "false").Load(path)
		if err != nil {
			t.Fatal(err)
		}
		// 4 input partitions, so both executors read the file.
		lines, err = lines.Repartition(ctx, 4, nil)
		if err != nil {
			t.Fatal(err)
		}
		df, err := WordCountOf(ctx, lines)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Counts(ctx, df)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	got, want := counts(cs), counts(local)
	if !maps.Equal(got, want) {
		t.Errorf("word count: the cluster finds %d words, local mode %d (or different counts)", len(got), len(want))
	}
	if want2 := naiveCount(t, path); !maps.Equal(want, want2) {
		t.Errorf("local Spark and the naive MapReduce disagree")
	}

	const q = `SELECT id % 13 AS k, count(*) AS n, sum(id * id) AS s, max(id) AS m
		FROM range(0, 200000, 1, 8) GROUP BY id % 13 ORDER BY k`
	rows, lrows := collectRows(t, ctx, cs, q), collectRows(t, ctx, local, q)
	if len(rows) != 13 || !reflect.DeepEqual(rows, lrows) {
		t.Errorf("groupBy: the cluster returns %v\nlocal mode %v", rows, lrows)
	}
	// Known values for k = 0: ids 0, 13, …, 199992.
	if len(rows) > 0 && fmt.Sprint(rows[0]) != fmt.Sprint([]any{int64(0), int64(15385), rows[0][2], int64(199992)}) {
		t.Errorf("groupBy row k=0: %v; want count 15385, max 199992", rows[0])
	}

	after := tasksByExecutor(t, ctx, c)
	ran := 0
	for id, n := range after {
		t.Logf("executor %s ran %d tasks", id, n-before[id])
		if n > before[id] {
			ran++
		}
	}
	if ran != 2 {
		t.Errorf("tasks ran on %d executors; want both workers' (before %v, after %v)", ran, before, after)
	}
}

// clusterSurvivesLostWorker kills a worker (and its executor) with SIGKILL while a job
// runs: the driver runs the lost tasks again on the other worker, the answer is unchanged,
// and the re-run shows in the REST API (a lost executor, failed tasks).
func clusterSurvivesLostWorker(t *testing.T, c *Cluster, s *Session) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	// 96 rows in 12 partitions, each row sleeping 100 ms in the executor: ~5 s on 2 executors.
	const q = `SELECT id % 7 AS k, count(*) AS n, sum(id) AS s FROM (
		SELECT id, reflect('java.lang.Thread', 'sleep', CAST(100 AS BIGINT)) AS z FROM range(0, 96, 1, 12))
		WHERE coalesce(z, 'null') IS NOT NULL GROUP BY id % 7 ORDER BY k`
	var want [][]any
	for k := int64(0); k < 7; k++ {
		n, sum := int64(0), int64(0)
		for id := k; id < 96; id += 7 {
			n, sum = n+1, sum+id
		}
		want = append(want, []any{k, n, sum})
	}

	type result struct {
		rows [][]any
		err  error
	}
	done := make(chan result, 1)
	go func() {
		res, err := s.Query(ctx, q)
		if err != nil {
			done <- result{nil, err}
			return
		}
		done <- result{res.Rows, nil}
	}()
	// Kill worker 1 once both executors are running tasks of the job.
	waitFor(t, ctx, "tasks running on both executors", func() (bool, error) {
		ex, err := c.Executors(ctx)
		busy := 0
		for _, e := range active(ex) {
			if e.ActiveTasks > 0 {
				busy++
			}
		}
		return busy == 2, err
	})
	mark := (&Server{Log: c.Log}).LogMark()
	killed := time.Now()
	if err := c.KillWorker(1); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil {
		t.Fatalf("the job should survive a lost worker: %v\nserver log: %s", r.err, c.Log)
	}
	t.Logf("job finished %.1f s after worker 1 was killed", time.Since(killed).Seconds())
	if fmt.Sprint(r.rows) != fmt.Sprint(want) {
		t.Errorf("after the lost worker the job returns %v; want %v", r.rows, want)
	}

	ex, err := c.Executors(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lost, failed := 0, 0
	for _, e := range ex {
		if !e.IsActive {
			lost++
		}
		failed += e.FailedTasks
	}
	if lost != 1 || len(active(ex)) != 1 {
		t.Errorf("executors after the kill: %+v; want 1 lost and 1 active", ex)
	}
	st, err := c.Stages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, sg := range st {
		failed += sg.NumFailedTasks
	}
	data, _ := os.ReadFile(c.Log)
	logged := string(data[min(int(mark), len(data)):])
	if failed == 0 && !strings.Contains(logged, "Resubmitted") {
		t.Errorf("no failed task nor resubmitted stage is visible after the kill (%d stages)", len(st))
	}
	if !strings.Contains(logged, "Lost executor") && !strings.Contains(logged, "lost executor") {
		t.Errorf("the server log %s does not show the lost executor", c.Log)
	}
	st2, err := c.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var stages []string
	for _, sg := range st {
		if sg.NumFailedTasks == 0 && sg.AttemptID == 0 {
			continue
		}
		stages = append(stages, fmt.Sprintf("%d.%d %s %d/%d failed %d", sg.StageID, sg.AttemptID, sg.Status, sg.NumCompleteTasks, sg.NumTasks, sg.NumFailedTasks))
	}
	t.Logf("master: %d alive workers after the kill; failed tasks %d; stages with failed tasks or re-run: %s", st2.AliveWorkers, failed, strings.Join(stages, "; "))
}
