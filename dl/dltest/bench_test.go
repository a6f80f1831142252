package dltest

import (
	"runtime"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

func TestUseThreadsRestores(t *testing.T) {
	defer dl.SetDynamicThreads(dl.SetDynamicThreads(false)) // counts as set, whatever the load
	procs, threads := runtime.GOMAXPROCS(0), dl.NumThreads()
	t.Run("inside", func(t *testing.T) {
		UseThreads(t, 1)
		if runtime.GOMAXPROCS(0) != 1 || dl.NumThreads() != 1 {
			t.Errorf("UseThreads(1): GOMAXPROCS %d, dl.NumThreads %d; want 1 and 1", runtime.GOMAXPROCS(0), dl.NumThreads())
		}
	})
	if runtime.GOMAXPROCS(0) != procs || dl.NumThreads() != threads {
		t.Errorf("after the test: GOMAXPROCS %d, dl.NumThreads %d; want %d and %d restored",
			runtime.GOMAXPROCS(0), dl.NumThreads(), procs, threads)
	}
}
