package bench

import (
	"math"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl/dist"
)

func TestAllReduceResults(t *testing.T) {
	rs, err := AllReduce(AllReduceConfig{Ranks: []int{2, 3}, Sizes: []int64{16 << 10}, Reps: 2})
	if err != nil {
		t.Fatal(err)
	}
	algs := []string{"shared-memory", "ring", "tree"}
	if len(rs) != 2*len(algs) {
		t.Fatalf("AllReduce returned %d results; want 2 group sizes × 3 algorithms", len(rs))
	}
	for i, r := range rs {
		n := []int{2, 3}[i/3]
		if r.Algorithm != algs[i%3] || r.Ranks != n || r.Bytes != 16<<10 {
			t.Errorf("result %d = %s n=%d %d bytes; want %s n=%d %d", i, r.Algorithm, r.Ranks, r.Bytes, algs[i%3], n, 16<<10)
		}
		if len(r.Samples) < 1 || len(r.Samples) > 2 || r.Inner < 1 || !(r.Seconds > 0) {
			t.Errorf("result %d: %d samples of %d calls, median %g s", i, len(r.Samples), r.Inner, r.Seconds)
		}
		alg := float64(r.Bytes) / r.Seconds / 1e9
		if math.Abs(r.AlgBW-alg) > 1e-9*alg || math.Abs(r.BusBW-2*float64(n-1)/float64(n)*alg) > 1e-9*alg {
			t.Errorf("result %d: AlgBW %g, BusBW %g; want S/t = %g and 2(n-1)/n·S/t", i, r.AlgBW, r.BusBW, alg)
		}
	}
}

func TestAllReduceErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  AllReduceConfig
		want string
	}{
		{name: "ranks=0", cfg: AllReduceConfig{Ranks: []int{0}}, want: "bench: AllReduce: 0 ranks; a group needs at least 1"},
		{name: "size=10", cfg: AllReduceConfig{Sizes: []int64{10}}, want: "size 10 bytes; sizes must be positive multiples of 4"},
		{name: "budget<0", cfg: AllReduceConfig{Budget: -1}, want: "negative Reps (0) or Budget (-1ns)"},
		{name: "alg=99", cfg: AllReduceConfig{Ranks: []int{2}, Sizes: []int64{64}, Algorithms: []dist.Algorithm{99}}, want: "bench: AllReduce: dist: New with unknown AllReduce algorithm"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := AllReduce(tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("AllReduce(%+v) = %d results, error %v; want an error containing %q", tc.cfg, len(rs), err, tc.want)
			}
		})
	}
}
