package gemm

import (
	"os"
	"testing"
)

// TestFreeOf checks how the estimate of other processes' cores becomes the
// cores a call gets: a core is taken from 0.8 of one, at least one stays.
func TestFreeOf(t *testing.T) {
	for _, c := range []struct {
		cores int
		x16   int32
		want  int
	}{
		{2, 0, 2}, {2, 12, 2}, {2, 13, 1}, {2, 16, 1}, {2, 40, 1}, {8, 29, 6}, {1, 0, 1},
	} {
		if got := freeOf(c.cores, c.x16); got != c.want {
			t.Errorf("freeOf(%d, %d/16) = %d, want %d", c.cores, c.x16, got, c.want)
		}
	}
}

// TestMachineBusy reads /proc/stat twice around some work: the machine's
// busy time moves forward and this process's CPU time too.
func TestMachineBusy(t *testing.T) {
	if _, err := os.Stat("/proc/stat"); err != nil {
		t.Skip("no /proc/stat")
	}
	b0, ok := machineBusy()
	c0 := ownCPU()
	if !ok {
		t.Fatal("machineBusy could not parse /proc/stat")
	}
	x := 0.0
	for i := range 30_000_000 {
		x += float64(i & 7)
	}
	b1, ok := machineBusy()
	if !ok || b1 < b0 || ownCPU() <= c0 || x == 0 {
		t.Fatalf("busy %d -> %d (ok %v), own CPU %v -> %v", b0, b1, ok, c0, ownCPU())
	}
}
