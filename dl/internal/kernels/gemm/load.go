package gemm

import (
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dlbd/dlbd/internal/cpuload"
)

// Dynamic threads, like OpenMP's OMP_DYNAMIC: parallel calls get only the
// cores that other processes leave free, at least one.  On a busy machine
// two goroutines that split every product wait for the one whose thread
// lost its core, and were measured slower than one: batch-1 inference of
// dl/nn's Transformer (d=512, T=128) beside a busy loop on the 2-core
// machine took 36-39 ms on 2 threads and 27 ms on 1; with dynamic threads
// 29 ms.  A background goroutine estimates the cores other processes use:
// the busy time of the CPUs this process may run on less this process's
// (internal/cpuload), over the wall time, smoothed (see loadEstimate); a
// core counts as taken from 0.8 of one (cpuload.Free).  On by default;
// DLBD_DYNAMIC_THREADS=0 (cpuload.DynamicEnv) turns it off (the tests do,
// so that a busy CI machine still runs their 2-thread cases on 2
// threads).  Results never depend on the number of threads, only the
// speed does.
var dynamicThreads atomic.Bool

func init() { dynamicThreads.Store(os.Getenv(cpuload.DynamicEnv) != "0") }

// SetDynamic turns dynamic threads on or off for every kernel set and
// returns the previous setting, for a caller to restore.
func SetDynamic(on bool) bool { return dynamicThreads.Swap(on) }

var (
	others     atomic.Int32 // cores used by other processes, smoothed, x16
	samplerRun sync.Once
)

// freeCores returns the cores not taken by other processes (at least 1),
// starting the sampler on first use.
func freeCores(cores int) int {
	samplerRun.Do(func() { go sample() })
	return freeOf(cores, others.Load())
}

// freeOf is freeCores for an estimate of other processes' cores in
// sixteenths.
func freeOf(cores int, othersX16 int32) int {
	return cpuload.Free(cores, float64(othersX16)/16)
}

// sample keeps others up to date: every tick of the estimate, the CPU
// time other processes used over the wall time.
func sample() {
	m := cpuload.NewMachine()
	lastBusy, ok := m.Busy()
	if !ok { // nothing to read: every core stays available
		return
	}
	lastOwn := cpuload.Self(false)
	last := time.Now()
	var e loadEstimate
	tick := quickTick
	for {
		time.Sleep(tick)
		busy, okB := m.Busy()
		own := cpuload.Self(false)
		now := time.Now()
		if ok && okB {
			var avg float64
			avg, tick = e.update(cpuload.Others(lastBusy, busy, lastOwn, own, now.Sub(last)))
			others.Store(int32(avg * 16))
		}
		lastBusy, lastOwn, last, ok = busy, own, now, okB
	}
}

// The estimate's ticks: quick while other processes use some CPU (or at
// the start), slow on a quiet machine, where waking up the sampler 20
// times a second cost up to ~2 % of a 2-thread inference that it never
// changed.
const (
	quickTick = 50 * time.Millisecond
	quietTick = 200 * time.Millisecond
)

// loadEstimate smooths the cores other processes used in each tick: the
// first tick's figure is taken as it is (a benchmark or a cell that lives
// a few hundred milliseconds decides after 50 ms), a rise moves the
// average halfway, a fall 30 % of the way (a process that comes and goes
// keeps the cores counted a little longer).
type loadEstimate struct {
	avg     float64
	started bool
}

// update adds one tick's figure v (cores) and returns the estimate and
// the next tick.
func (e *loadEstimate) update(v float64) (float64, time.Duration) {
	switch {
	case !e.started:
		e.avg, e.started = v, true
	case v > e.avg:
		e.avg += 0.5 * (v - e.avg)
	default:
		e.avg += 0.3 * (v - e.avg)
	}
	if e.avg < 0.25 && v < 0.25 {
		return e.avg, quietTick
	}
	return e.avg, quickTick
}
