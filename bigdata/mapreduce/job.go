package mapreduce

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"sync"
	"time"
)

// Job is a MapReduce program over the lines of a file, with string keys and integer values
// (enough for the paper's word count, grep and inverted-index examples).
type Job struct {
	Map      func(line string, emit func(key string, value int64))
	Combine  func(key string, values []int64) int64 // optional: reduce on the map side before the shuffle
	Reduce   func(key string, values []int64) int64
	Reducers int // R, the reduce tasks (and partitions of the shuffle); default 4
}

// RunConfig configures Run; the zero value runs one worker per live node and allows 4
// attempts per task (Hadoop's mapreduce.map.maxattempts).
type RunConfig struct {
	Workers     int              // worker goroutines; worker w lives on node w mod Nodes; default Nodes
	MaxAttempts int              // attempts per task before the job fails; default 4
	Fail        func(Task) error // injected failure: called as each attempt starts; non-nil fails it
}

// Task names one attempt of a task.
type Task struct {
	Kind    string // "map" or "reduce"
	Index   int    // block index (map) or partition (reduce)
	Attempt int    // 0 for the first
	Worker  int
	Node    int // the worker's node
}

// Attempt records what one task attempt did.
type Attempt struct {
	Task
	Local    bool          // map: the block was read from the worker's own node
	Err      string        // why it failed ("" when it succeeded)
	Duration time.Duration // measured
}

// Report is what Run measured and counted.
type Report struct {
	Output         map[string]int64 // the reduce output, key → value
	MapTasks       int              // one per block
	ReduceTasks    int
	Attempts       []Attempt // every attempt, in the order they finished
	MapOutput      int64     // pairs the map tasks emitted (before Combine)
	ShuffleRecords []int64   // pairs each reducer fetched
	ShuffleBytes   []int64   // bytes each reducer fetched (key bytes + 8 per value)
	MapTime        time.Duration
	ReduceTime     time.Duration
}

// Failed returns the attempts that failed.
func (r *Report) Failed() []Attempt {
	var out []Attempt
	for _, a := range r.Attempts {
		if a.Err != "" {
			out = append(out, a)
		}
	}
	return out
}

// pair is one intermediate key/value.
type pair struct {
	key   string
	value int64
}

// Partition returns the reduce partition of key among r: FNV-1a hash mod r (Hadoop's
// HashPartitioner uses the key's hashCode the same way).
func Partition(key string, r int) int {
	h := fnv.New32a()
	h.Write([]byte(key))
	return int(h.Sum32() % uint32(r))
}

// Run executes job over file name of d: one map task per block, scheduled on a worker whose
// node holds a replica when one is free (data locality), a barrier, then Reducers reduce
// tasks that fetch their partition from every map output. A failed attempt is re-run,
// on another worker when one is idle. Workers on dead nodes do not run.
func Run(ctx context.Context, d *DFS, name string, job Job, cfg RunConfig) (*Report, error) {
	f, err := d.File(name)
	if err != nil {
		return nil, err
	}
	if job.Map == nil || job.Reduce == nil {
		return nil, errors.New("mapreduce: Job needs Map and Reduce")
	}
	if job.Reducers == 0 {
		job.Reducers = 4
	}
	if cfg.MaxAttempts == 0 {
		cfg.MaxAttempts = 4
	}
	nodes := d.Config().Nodes
	if cfg.Workers == 0 {
		cfg.Workers = nodes
	}
	var workers []int
	for w := range cfg.Workers {
		if d.Alive(w % nodes) {
			workers = append(workers, w)
		}
	}
	if len(workers) == 0 {
		return nil, errors.New("mapreduce: every worker's node is dead: nothing can run the job")
	}
	rep := &Report{MapTasks: len(f.Blocks), ReduceTasks: job.Reducers,
		ShuffleRecords: make([]int64, job.Reducers), ShuffleBytes: make([]int64, job.Reducers)}
	mapOut := make([][][]pair, len(f.Blocks)) // [map task][partition]
	var mu sync.Mutex                         // guards rep and mapOut

	start := time.Now()
	err = schedule(ctx, "map", len(f.Blocks), workers, nodes, cfg,
		func(task, node int) bool { return slices.Contains(d.LiveReplicas(f.Blocks[task]), node) },
		func(t Task) (bool, error) {
			sp, err := d.ReadSplit(f, t.Index, t.Node)
			if err != nil {
				return false, err
			}
			parts := make([][]pair, job.Reducers)
			var emitted int64
			for _, line := range sp.Lines {
				job.Map(line, func(k string, v int64) {
					p := Partition(k, job.Reducers)
					parts[p] = append(parts[p], pair{k, v})
					emitted++
				})
			}
			if job.Combine != nil {
				for p := range parts {
					parts[p] = reduceSorted(parts[p], job.Combine)
				}
			}
			mu.Lock()
			mapOut[t.Index] = parts
			rep.MapOutput += emitted
			mu.Unlock()
			return sp.Local, nil
		}, rep, &mu)
	rep.MapTime = time.Since(start)
	if err != nil {
		return rep, err
	}

	start = time.Now()
	rep.Output = map[string]int64{}
	err = schedule(ctx, "reduce", job.Reducers, workers, nodes, cfg, nil,
		func(t Task) (bool, error) {
			// The shuffle: fetch partition t.Index of every map output.
			var in []pair
			var bytes int64
			for _, parts := range mapOut {
				for _, p := range parts[t.Index] {
					bytes += int64(len(p.key)) + 8
				}
				in = append(in, parts[t.Index]...)
			}
			out := reduceSorted(in, job.Reduce)
			mu.Lock()
			rep.ShuffleRecords[t.Index], rep.ShuffleBytes[t.Index] = int64(len(in)), bytes
			for _, p := range out {
				rep.Output[p.key] = p.value
			}
			mu.Unlock()
			return true, nil
		}, rep, &mu)
	rep.ReduceTime = time.Since(start)
	return rep, err
}

// reduceSorted sorts pairs by key and applies reduce to each key's values.
func reduceSorted(in []pair, reduce func(string, []int64) int64) []pair {
	slices.SortStableFunc(in, func(a, b pair) int { return strings.Compare(a.key, b.key) })
	var out []pair
	var vals []int64
	for i, p := range in {
		vals = append(vals, p.value)
		if i == len(in)-1 || in[i+1].key != p.key {
			out = append(out, pair{p.key, reduce(p.key, vals)})
			vals = vals[:0]
		}
	}
	return out
}

// schedule runs tasks 0..n-1 of one phase on the workers (goroutines that all exit before
// it returns). A worker takes a task for which local(task, node) holds when there is one,
// else the first pending task; a failed attempt goes back to the queue until MaxAttempts.
func schedule(ctx context.Context, kind string, n int, workers []int, nodes int, cfg RunConfig,
	local func(task, node int) bool, run func(Task) (bool, error), rep *Report, mu *sync.Mutex) error {
	type pending struct{ index, attempt, lastWorker int }
	var qmu sync.Mutex
	queue := make([]pending, n)
	for i := range queue {
		queue[i] = pending{i, 0, -1}
	}
	remaining := n
	var jobErr error
	wake := sync.NewCond(&qmu)
	take := func(w, node int) (pending, bool) {
		qmu.Lock()
		defer qmu.Unlock()
		for {
			if jobErr != nil || remaining == 0 || ctx.Err() != nil {
				return pending{}, false
			}
			if len(queue) > 0 {
				pick := -1
				for i, p := range queue {
					if local != nil && local(p.index, node) && p.lastWorker != w {
						pick = i
						break
					}
				}
				if pick < 0 {
					for i, p := range queue {
						// A re-run goes to another worker (Hadoop avoids the node where an
						// attempt failed); with a single worker it is the same one.
						if p.lastWorker != w || len(workers) == 1 {
							pick = i
							break
						}
					}
				}
				if pick >= 0 {
					p := queue[pick]
					queue = slices.Delete(queue, pick, pick+1)
					return p, true
				}
			}
			wake.Wait() // tasks are running elsewhere and may come back, or wait for another worker
		}
	}
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			node := w % nodes
			for {
				p, ok := take(w, node)
				if !ok {
					return
				}
				t := Task{Kind: kind, Index: p.index, Attempt: p.attempt, Worker: w, Node: node}
				begin := time.Now()
				var isLocal bool
				err := func() error {
					if cfg.Fail != nil {
						if err := cfg.Fail(t); err != nil {
							return err
						}
					}
					var err error
					isLocal, err = run(t)
					return err
				}()
				a := Attempt{Task: t, Local: isLocal, Duration: time.Since(begin)}
				if err != nil {
					a.Err = err.Error()
				}
				mu.Lock()
				rep.Attempts = append(rep.Attempts, a)
				mu.Unlock()
				qmu.Lock()
				switch {
				case err == nil:
					remaining--
				case p.attempt+1 < cfg.MaxAttempts:
					queue = append(queue, pending{p.index, p.attempt + 1, w})
				default:
					jobErr = fmt.Errorf("mapreduce: %s task %d failed %d times, last on worker %d: %w", kind, p.index, cfg.MaxAttempts, w, err)
				}
				wake.Broadcast()
				qmu.Unlock()
			}
		}()
	}
	stop := context.AfterFunc(ctx, func() { qmu.Lock(); wake.Broadcast(); qmu.Unlock() })
	wg.Wait()
	stop()
	if jobErr != nil {
		return jobErr
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("mapreduce: %s phase: %w", kind, err)
	}
	return nil
}
