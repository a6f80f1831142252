package parallel

import (
	"sync"
	"time"

	"github.com/dlbd/dlbd/dl/dist"
)

// PipelineEvent is one block of a pipeline schedule as it ran: stage
// Stage computed the forward ("F") or backward ("B") pass of micro-batch
// MicroBatch from Start to End.
//
// Start and End are on the stage's device clock. On a cluster every stage
// has its own GPU; here all stage goroutines share the CPU's cores, so
// wall-clock time would show them slowing each other down rather than the
// schedule. The device clock gives each stage a processor of its own:
// an op lasts the CPU time its goroutine really spent computing it
// (measured per thread on Linux, wall time elsewhere), and starts when
// its stage is free and its input has arrived — the sender's clock time
// travels with every activation and gradient. Communication is taken as
// instantaneous. WallStart and WallEnd are the wall-clock times, from the
// start of the step, for comparison.
//
// Course: "Pipeline Parallelism (PP)".
// Paper: Huang et al. 2019, GPipe (arXiv:1811.06965), Figure 2 (the bubble).
type PipelineEvent struct {
	Stage, MicroBatch  int
	Op                 string
	Start, End         time.Duration
	WallStart, WallEnd time.Duration
}

// BubbleFraction is the share of a pipeline's time that a stage is idle
// with p stages and m micro-batches of equal cost, (p−1)/(m+p−1): the
// bubble of GPipe and of 1F1B alike (1F1B changes the memory, not the
// bubble).
func BubbleFraction(p, m int) float64 {
	return float64(p-1) / float64(m+p-1)
}

// IdleShare is the measured bubble of a timeline: 1 − (busy time of all
// stages) / (stages × makespan), the makespan running from the first start
// to the last end on the device clock.
func IdleShare(events []PipelineEvent) float64 {
	if len(events) == 0 {
		return 0
	}
	first, last := events[0].Start, events[0].End
	stages := map[int]bool{}
	var busy time.Duration
	for _, e := range events {
		first, last = min(first, e.Start), max(last, e.End)
		busy += e.End - e.Start
		stages[e.Stage] = true
	}
	return 1 - float64(busy)/(float64(len(stages))*float64(last-first))
}

// stageClock is one stage's device clock.
type stageClock struct {
	now    time.Duration // when the stage is free
	origin time.Time     // wall-clock origin of the step
	turn   *sync.Mutex   // with SerialCompute: held while an op computes
}

// groupMutexes holds one mutex per pipeline group (SerialCompute).
var groupMutexes sync.Map // *dist.Group → *sync.Mutex

// groupMutex returns the mutex the stages of group g take turns with.
func groupMutex(g *dist.Group) *sync.Mutex {
	mu, _ := groupMutexes.LoadOrStore(g, &sync.Mutex{})
	return mu.(*sync.Mutex)
}

// run executes f as an op whose input was ready at ready and returns its
// event times (device clock, then wall clock).
func (c *stageClock) run(ready time.Duration, f func()) (start, end, wallStart, wallEnd time.Duration) {
	if c.turn != nil {
		c.turn.Lock()
		defer c.turn.Unlock()
	}
	start = max(c.now, ready)
	wallStart = time.Since(c.origin)
	t0, ok := threadCPUTime()
	f()
	t1, _ := threadCPUTime()
	wallEnd = time.Since(c.origin)
	dur := t1 - t0
	if !ok {
		dur = wallEnd - wallStart
	}
	end = start + dur
	c.now = end
	return start, end, wallStart, wallEnd
}
