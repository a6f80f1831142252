package dist

import (
	"fmt"
	"testing"
)

// TestRingRecord checks the ring's recorded schedule against the textbook:
// 2(n-1) steps, every rank sends one chunk to its right neighbour at every
// step, and each link carries 2(n-1)/n·S bytes.
func TestRingRecord(t *testing.T) {
	for n := 2; n <= 8; n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			l := 48 * n // divisible by n: equal segments
			g, err := runWith(t, Config{WorldSize: n, AllReduce: Ring}, func(r *Rank) error {
				return AllReduce(r, make([]float32, l), Sum)
			})
			if err != nil {
				t.Fatal(err)
			}
			recs := g.Records()
			if len(recs) != 1 {
				t.Fatalf("got %d records; want 1", len(recs))
			}
			rec := recs[0]
			S := int64(4 * l)
			if rec.Steps != 2*(n-1) || rec.Bytes != S || rec.Algorithm != Ring || rec.Ranks != n || rec.Collective != "all-reduce" {
				t.Fatalf("record = %+v; want 2(n-1) = %d steps, %d bytes", rec, 2*(n-1), S)
			}
			if len(rec.Transfers) != n*2*(n-1) {
				t.Fatalf("%d transfers; want n·2(n-1) = %d", len(rec.Transfers), n*2*(n-1))
			}
			for i, tr := range rec.Transfers {
				step, from := i/n, i%n
				wantChunk := mod(from-step, n) // reduce-scatter: rank j sends chunk j-s
				phase := "reduce-scatter"
				if step >= n-1 {
					wantChunk, phase = mod(from+1-(step-(n-1)), n), "all-gather"
				}
				if tr.Step != step || tr.From != from || tr.To != (from+1)%n || tr.Chunk != wantChunk || tr.Phase != phase || tr.Bytes != S/int64(n) {
					t.Fatalf("transfer %d = %+v; want step %d %d→%d chunk %d (%s) of %d bytes", i, tr, step, from, (from+1)%n, wantChunk, phase, S/int64(n))
				}
			}
			links := g.LinkTraffic()
			if len(links) != n {
				t.Fatalf("%d links used; want n = %d", len(links), n)
			}
			for _, ls := range links {
				if want := 2 * int64(n-1) * S / int64(n); ls.To != (ls.From+1)%n || ls.Bytes != want || ls.Messages != int64(2*(n-1)) {
					t.Errorf("link %+v; want %d→%d carrying 2(n-1)/n·S = %d bytes in %d messages", ls, ls.From, (ls.From+1)%n, want, 2*(n-1))
				}
			}
		})
	}
}

func TestTreeAndSharedMemoryRecords(t *testing.T) {
	for n := 1; n <= 8; n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			const l = 100
			g, err := runWith(t, Config{WorldSize: n, AllReduce: Tree}, func(r *Rank) error {
				return AllReduce(r, make([]float64, l), Sum)
			})
			if err != nil {
				t.Fatal(err)
			}
			rec := g.Records()[0]
			if rec.Steps != 2*treeSteps(n) || len(rec.Transfers) != 2*(n-1) {
				t.Fatalf("tree record: %d steps, %d transfers; want 2⌈log₂ n⌉ = %d and 2(n-1) = %d", rec.Steps, len(rec.Transfers), 2*treeSteps(n), 2*(n-1))
			}
			var total int64
			for _, ls := range g.LinkTraffic() {
				total += ls.Bytes
			}
			if want := int64(2*(n-1)) * 8 * l; total != want {
				t.Errorf("tree moved %d bytes; want 2(n-1)·S = %d", total, want)
			}
			g, err = runWith(t, Config{WorldSize: n}, func(r *Rank) error { return AllReduce(r, make([]float64, l), Sum) })
			if err != nil {
				t.Fatal(err)
			}
			rec = g.Records()[0]
			if rec.Algorithm != SharedMemory || rec.MemoryBytes != int64(2*n*8*l) || len(g.LinkTraffic()) != 0 {
				t.Errorf("shared-memory record %+v, links %v; want 2nS memory bytes and no link traffic", rec, g.LinkTraffic())
			}
		})
	}
}

func TestKeepRecords(t *testing.T) {
	g, err := runWith(t, Config{WorldSize: 2, KeepRecords: 3}, func(r *Rank) error {
		for i := 0; i < 5; i++ {
			if err := r.Barrier(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	recs := g.Records()
	if len(recs) != 3 || recs[0].Seq != 2 || recs[2].Seq != 4 || recs[0].Collective != "barrier" {
		t.Fatalf("records %+v; want the last 3 barriers (#2..#4)", recs)
	}
	g.ResetTraffic()
	if len(g.Records()) != 0 || len(g.LinkTraffic()) != 0 {
		t.Fatal("ResetTraffic left records or counters")
	}
}
