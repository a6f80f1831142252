package gemm

import (
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Dynamic threads (DLBD_DYNAMIC_THREADS=1), like OpenMP's OMP_DYNAMIC:
// parallel calls get only the cores that other processes leave free, at
// least one.  On a busy machine two goroutines that split every product
// wait for the one whose thread lost its core, and were measured slower
// than one: batch-1 inference of dl/nn's Transformer (d=512, T=128) beside
// a busy loop on the 2-core machine took 38-41 ms on 2 threads and 27 ms on
// 1; with dynamic threads 28 ms.  A background goroutine estimates every
// 50 ms the cores other processes used: the machine's busy time
// (/proc/stat) less this process's (getrusage), over the wall time,
// smoothed; a core counts as taken from 0.8 of one.  Off by default: on a
// quiet machine it cost 2-4 % (the estimate now and then counts a
// short-lived process), and results never depend on the number of threads,
// only the speed does.
var dynamicThreads = os.Getenv("DLBD_DYNAMIC_THREADS") == "1"

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
// sixteenths: a core counts as taken from 0.8 of one (13/16).
func freeOf(cores int, othersX16 int32) int {
	return max(1, cores-int((othersX16+3)/16))
}

// sample estimates every 50 ms the CPU time other processes used: the
// machine's busy time (/proc/stat, all CPUs) less this process's
// (getrusage), over the wall time, smoothed.
func sample() {
	const tick = 50 * time.Millisecond
	hz := 100.0 // USER_HZ, the unit of /proc/stat: 100 on every Linux architecture Go supports
	lastBusy, ok := machineBusy()
	if !ok { // no /proc/stat: every core stays available
		return
	}
	lastOwn := ownCPU()
	last := time.Now()
	avg := 0.0
	for {
		time.Sleep(tick)
		busy, okB := machineBusy()
		own := ownCPU()
		now := time.Now()
		if ok && okB {
			wall := now.Sub(last).Seconds()
			otherSec := float64(busy-lastBusy)/hz - (own - lastOwn)
			v := max(otherSec/wall, 0)
			avg = 0.7*avg + 0.3*v
			others.Store(int32(avg * 16))
		}
		lastBusy, lastOwn, last, ok = busy, own, now, okB
	}
}
