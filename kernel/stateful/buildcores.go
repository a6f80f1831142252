package stateful

import (
	"runtime"
	"time"

	"github.com/dlbd/dlbd/internal/cpuload"
	"github.com/dlbd/dlbd/kernel/internal/envlist"
)

// buildCores decides how many cores a cell's build (the go command that
// compiles and links its plugin) may use: every core on a quiet machine,
// those other programs leave free (cpuload.Free) when they hold some, as
// dl's dynamic threads do for the cells' work. Beside a busy loop on the
// 2-core machine a plugin's build took 0.44-0.48 s with GOMAXPROCS=2 and
// 0.41-0.47 s with 1 (quiet: 0.36-0.39 s against 0.38-0.41 s): the
// compiler's and linker's threads, like dl's, wait for the one that lost
// its core. The load is measured between one build and the next (the
// cell's run and the student's pause between them): the machine's busy
// time less ours, the kernel's with its ended builds and the host's with
// its ended children. DLBD_DYNAMIC_THREADS=0 or a GOMAXPROCS of the
// kernel's environment turn it off.
type buildCores struct {
	m      *cpuload.Machine
	cores  int
	last   loadReading // the baseline
	others float64     // the last estimate, in cores
}

// loadReading is one reading of the machine's and our CPU time.
type loadReading struct {
	busy, ours time.Duration
	at         time.Time
	host       int  // the host's pid whose CPU time ours holds (0: none)
	ok         bool // the readings worked
}

// minLoadWindow is the shortest interval that gives an estimate: a
// shorter one keeps the last estimate and its baseline.
const minLoadWindow = 100 * time.Millisecond

// newBuildCores returns nil (no limit, ever) when env turns it off.
func newBuildCores(env []string) *buildCores {
	l := envlist.Parse(env)
	if v, _ := l.Get(cpuload.DynamicEnv); v == "0" {
		return nil
	}
	if _, set := l.Get("GOMAXPROCS"); set {
		return nil
	}
	b := &buildCores{m: cpuload.NewMachine()}
	b.cores = b.m.Cores()
	if b.cores == 0 {
		b.cores = runtime.NumCPU()
	}
	b.last = b.read(0)
	return b
}

// read reads the machine's busy time and ours, with host's (0: none).
func (b *buildCores) read(host int) loadReading {
	r := loadReading{host: host, at: time.Now()}
	r.busy, r.ok = b.m.Busy()
	r.ours = cpuload.Self(true)
	if host > 0 {
		t, ok := cpuload.Process(host)
		r.ours += t
		r.ok = r.ok && ok
	}
	return r
}

// procs returns the GOMAXPROCS of the next build with host running
// (its pid; 0: none), or 0 for no limit.
func (b *buildCores) procs(host int) int {
	if b == nil {
		return 0
	}
	return b.next(b.read(host))
}

// next takes reading r and returns procs's answer.
func (b *buildCores) next(r loadReading) int {
	switch {
	case !r.ok:
		b.others = 0
	case !b.last.ok || r.host != b.last.host:
		// A new host's CPU time starts from 0 (the old one's has moved to
		// the kernel's ended children): start again from r.
	case r.at.Sub(b.last.at) < minLoadWindow:
		return b.limit()
	default:
		b.others = cpuload.Others(b.last.busy, r.busy, b.last.ours, r.ours, r.at.Sub(b.last.at))
	}
	b.last = r
	return b.limit()
}

func (b *buildCores) limit() int {
	if n := cpuload.Free(b.cores, b.others); n < b.cores {
		return n
	}
	return 0
}
