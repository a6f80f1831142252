package cost

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/dl/dist"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

func TestLinkFromFacts(t *testing.T) {
	for _, c := range []struct {
		name   string
		gbs    float64
		alphaU float64
	}{
		{"NVLink 4.0", 450, 3.4}, {"PCIe 5.0", 63, 5.7}, {"NDR", 50, 14}, {"400GbE", 50, 14},
	} {
		l, err := LinkFromFacts(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if l.Bandwidth != c.gbs*1e9 || l.Latency != time.Duration(c.alphaU*1000)*time.Nanosecond {
			t.Errorf("LinkFromFacts(%q) = %v; want %g GB/s, α = %g µs", c.name, l, c.gbs, c.alphaU)
		}
		if l.BandwidthSource.Source == "" || l.BandwidthSource.Status == "" || !strings.Contains(l.LatencySource.Source, "nccl") {
			t.Errorf("LinkFromFacts(%q): sources missing: %+v / %+v", c.name, l.BandwidthSource, l.LatencySource)
		}
	}
	if _, err := LinkFromFacts("carrier pigeon"); err == nil || !strings.Contains(err.Error(), "carrier pigeon") {
		t.Errorf("LinkFromFacts(unknown) = %v; want an error naming it", err)
	}
}

// TestFormulas compares the models with values computed by hand.
func TestFormulas(t *testing.T) {
	nv := MustLink("NVLink 4.0")
	ib := MustLink("NDR")
	const GiB = 1 << 30
	cases := []struct {
		name  string
		e     Estimate
		want  float64
		steps int
	}{
		// 14·3.4 µs + 14/8·2^30 B / 450e9 B/s
		{"ring all-reduce n=8 1GiB NVLink", RingAllReduce(8, GiB, nv), 0.004223262648888889, 14},
		// 7·3.4 µs + 7/8·2^30 / 450e9
		{"reduce-scatter n=8 1GiB NVLink", RingReduceScatter(8, GiB, nv), 7*3.4e-6 + 7.0/8*GiB/450e9, 7},
		{"all-gather n=8 1GiB NVLink", RingAllGather(8, GiB, nv), 7*3.4e-6 + 7.0/8*GiB/450e9, 7},
		// ⌈log₂ 5⌉ = 3 steps of (14 µs + 1 MiB / 50e9)
		{"broadcast n=5 1MiB IB", TreeBroadcast(5, 1<<20, ib), 3 * (14e-6 + (1<<20)/50e9), 3},
		{"tree all-reduce n=4 1MiB IB", TreeAllReduce(4, 1<<20, ib), 4 * (14e-6 + (1<<20)/50e9), 4},
		// intra: 2·(7·3.4 µs + 7/8·S/450e9), inter: 2·127·14 µs + 2·127/128·(S/8)/50e9
		{"hierarchical 128×8 1GiB", Topology{128, 8, nv, ib}.HierarchicalAllReduce(GiB), 0.013106028728888889, 2*7 + 2*127},
		{"flat ring 128×8 1GiB", Topology{128, 8, nv, ib}.FlatRingAllReduce(GiB), 0.07155172992, 2 * 1023},
	}
	for _, c := range cases {
		if !near(c.e.Seconds, c.want) || c.e.Steps != c.steps {
			t.Errorf("%s = %g s in %d steps; want %g s in %d steps (%s)", c.name, c.e.Seconds, c.e.Steps, c.want, c.steps, c.e.Formula)
		}
	}
}

func TestBusBW(t *testing.T) {
	l := Link{Name: "ideal", Bandwidth: 100e9} // α = 0: bandwidth-bound
	for _, n := range []int{2, 4, 8, 1024} {
		for _, e := range []Estimate{RingAllReduce(n, 1<<30, l), RingAllGather(n, 1<<30, l), RingReduceScatter(n, 1<<30, l)} {
			if !near(e.BusBW(), l.Bandwidth) {
				t.Errorf("%s n=%d: busbw = %g; want the link bandwidth %g (algbw %g)", e.Collective, n, e.BusBW(), l.Bandwidth, e.AlgBW())
			}
		}
	}
	if f := BusBWFactor(AllReduce, 4); f != 1.5 {
		t.Errorf("BusBWFactor(all-reduce, 4) = %v; want 2·3/4 = 1.5", f)
	}
}

func TestCrossover(t *testing.T) {
	l := MustLink("NDR")
	for _, n := range []int{4, 8, 64} {
		s := Crossover(n, l)
		if s <= 0 {
			t.Fatalf("n=%d: no crossover", n)
		}
		if tr, rg := TreeAllReduce(n, s/2, l), RingAllReduce(n, s/2, l); tr.Seconds >= rg.Seconds {
			t.Errorf("n=%d: below the crossover %.0f B the tree (%v) should beat the ring (%v)", n, s, tr.Time(), rg.Time())
		}
		if tr, rg := TreeAllReduce(n, 2*s, l), RingAllReduce(n, 2*s, l); tr.Seconds <= rg.Seconds {
			t.Errorf("n=%d: above the crossover %.0f B the ring (%v) should beat the tree (%v)", n, s, rg.Time(), tr.Time())
		}
	}
	if s := Crossover(2, l); s != 0 {
		t.Errorf("Crossover(2) = %v; want 0 (ring and tree are the same exchange)", s)
	}
}

// TestReplayMatchesModel runs the ring and the tree for real and checks
// that the executed steps and bytes are exactly what the model assumes.
func TestReplayMatchesModel(t *testing.T) {
	nv := MustLink("NVLink 4.0")
	for n := 2; n <= 8; n++ {
		for _, alg := range []dist.Algorithm{dist.Ring, dist.Tree} {
			t.Run(fmt.Sprintf("alg=%v/n=%d", alg, n), func(t *testing.T) {
				l := 1000 * n // equal segments
				g, err := dist.New(dist.Config{WorldSize: n, AllReduce: alg})
				if err != nil {
					t.Fatal(err)
				}
				if err := g.Run(func(r *dist.Rank) error { return dist.AllReduce(r, make([]float32, l), dist.Sum) }); err != nil {
					t.Fatal(err)
				}
				rec := g.Records()[0]
				got, err := Replay(rec, OneLink(n, nv))
				if err != nil {
					t.Fatal(err)
				}
				want := RingAllReduce(n, float64(4*l), nv)
				if alg == dist.Tree {
					want = TreeAllReduce(n, float64(4*l), nv)
				}
				if !near(got.Seconds, want.Seconds) || got.Steps != want.Steps || got.TotalBytes != want.TotalBytes || got.SentPerRank != want.SentPerRank {
					t.Errorf("replay %+v\nmodel  %+v", got, want)
				}
				var linkBytes int64
				for _, ls := range g.LinkTraffic() {
					linkBytes += ls.Bytes
				}
				if float64(linkBytes) != want.TotalBytes {
					t.Errorf("links carried %d bytes; the model assumes %g", linkBytes, want.TotalBytes)
				}
			})
		}
	}
}

func TestReplayTopology(t *testing.T) {
	nv, ib := MustLink("NVLink 4.0"), MustLink("NDR")
	g, _ := dist.New(dist.Config{WorldSize: 4, AllReduce: dist.Ring})
	if err := g.Run(func(r *dist.Rank) error { return dist.AllReduce(r, make([]float64, 4000), dist.Sum) }); err != nil {
		t.Fatal(err)
	}
	rec := g.Records()[0]
	// 2 nodes × 2 GPUs: every ring step has an inter-node transfer (1→2 and
	// 3→0), so the replay equals the flat-ring model.
	topo := Topology{Nodes: 2, GPUsPerNode: 2, Intra: nv, Inter: ib}
	got, err := Replay(rec, topo)
	if err != nil {
		t.Fatal(err)
	}
	if want := topo.FlatRingAllReduce(8 * 4000); !near(got.Seconds, want.Seconds) {
		t.Errorf("replay on %v = %v; want the flat ring's %v", topo, got.Time(), want.Time())
	}
	if _, err := Replay(rec, OneLink(8, nv)); err == nil {
		t.Error("Replay on a topology of the wrong size: want an error")
	}
	g2 := dist.NewLocalGroup(2)
	g2.Run(func(r *dist.Rank) error { return dist.AllReduce(r, make([]float32, 10), dist.Sum) })
	if _, err := Replay(g2.Records()[0], OneLink(2, nv)); err == nil || !strings.Contains(err.Error(), "shared-memory") {
		t.Errorf("Replay of a shared-memory record = %v; want an error", err)
	}
}
