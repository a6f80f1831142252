package gemm

import "testing"

// TestBusyOf checks which lines of /proc/stat count: the total with every
// CPU allowed (or no mask), the allowed CPUs' lines with a narrower mask
// (a container's cpuset), idle and iowait never.
func TestBusyOf(t *testing.T) {
	stat := []byte(`cpu  100 1 10 5000 7 1 2 3 0 0
cpu0 60 1 5 2000 3 1 1 2 0 0
cpu1 30 0 4 1500 2 0 1 1 0 0
cpu2 10 0 1 1500 2 0 0 0 0 0
intr 12345
ctxt 999
`)
	for _, c := range []struct {
		cpus []int
		want int64
	}{
		{nil, 117}, {[]int{0, 1, 2}, 117}, {[]int{1}, 36}, {[]int{0, 2}, 81}, {[]int{7}, 117},
	} {
		var allowed map[int]bool
		if c.cpus != nil {
			allowed = map[int]bool{}
			for _, n := range c.cpus {
				allowed[n] = true
			}
		}
		if got, ok := busyOf(stat, allowed); !ok || got != c.want {
			t.Errorf("busyOf(cpus %v) = %d, %v; want %d", c.cpus, got, ok, c.want)
		}
	}
	if _, ok := busyOf([]byte("cpu 1 2 3\n"), nil); ok {
		t.Error("busyOf accepted a cpu line with too few fields")
	}
}
