package dist

import (
	"fmt"
	"math"
	"testing"
)

var algorithms = []Algorithm{Ring, Tree, SharedMemory}

// sizes: empty, smaller than n, odd, around the 256-byte kernel stripe and
// the 64 KiB shared-memory block.
var sizes = []int{0, 1, 3, 7, 17, 63, 64, 65, 1000, 1025, 16385, 40001}

func checkReduced[T Float](t *testing.T, name string, got [][]T, ref []float64, exact bool) {
	t.Helper()
	for r := range got {
		for i, v := range got[r] {
			if v != got[0][i] && !(v != v && got[0][i] != got[0][i]) {
				t.Fatalf("%s: rank %d [%d] = %v differs from rank 0's %v", name, r, i, v, got[0][i])
			}
			if exact && float64(v) != ref[i] {
				t.Fatalf("%s: rank %d [%d] = %v; want %v", name, r, i, v, ref[i])
			}
			if !exact && math.Abs(float64(v)-ref[i]) > 1e-5*float64(len(got))*(1+math.Abs(ref[i])) {
				t.Fatalf("%s: rank %d [%d] = %v; want %v (float64 reference)", name, r, i, v, ref[i])
			}
		}
	}
}

func testAllReduce[T Float](t *testing.T) {
	for _, alg := range algorithms {
		for n := 1; n <= 8; n++ {
			for _, op := range []Op{Sum, Mean, Max, Min, Product} {
				for _, ints := range []bool{true, false} {
					name := fmt.Sprintf("alg=%v/n=%d/op=%v/ints=%v", alg, n, op, ints)
					if op == Product && !ints {
						continue
					}
					// One group for all sizes: rounds are repeated on it.
					g, err := New(Config{WorldSize: n, AllReduce: alg})
					if err != nil {
						t.Fatal(err)
					}
					for _, l := range sizes {
						bufs := fill[T](n, l, ints, uint64(n*1000+l))
						ref := reference(bufs, op)
						if err := g.Run(func(r *Rank) error { return AllReduce(r, bufs[r.Rank()], op) }); err != nil {
							t.Fatalf("%s/len=%d: %v", name, l, err)
						}
						checkReduced(t, fmt.Sprintf("%s/len=%d", name, l), bufs, ref, ints)
					}
				}
			}
		}
	}
}

func TestAllReduce(t *testing.T) {
	t.Run("dtype=float32", testAllReduce[float32])
	t.Run("dtype=float64", testAllReduce[float64])
}

// TestAllReduceRepeatedRounds runs many back-to-back all-reduces inside one
// Run, with ranks arriving in a different order every round.
func TestAllReduceRepeatedRounds(t *testing.T) {
	for _, alg := range algorithms {
		for _, n := range []int{2, 3, 8} {
			t.Run(fmt.Sprintf("alg=%v/n=%d", alg, n), func(t *testing.T) {
				const l, rounds = 5003, 100
				_, err := runWith(t, Config{WorldSize: n, AllReduce: alg}, func(r *Rank) error {
					buf := make([]float32, l)
					for it := 0; it < rounds; it++ {
						for i := range buf {
							buf[i] = float32(r.Rank() + it + i%7)
						}
						if err := AllReduce(r, buf, Sum); err != nil {
							return err
						}
						for i, v := range buf {
							if want := float32(n*(n-1)/2 + n*(it+i%7)); v != want {
								return fmt.Errorf("round %d [%d] = %v; want %v", it, i, v, want)
							}
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

func TestBroadcastReduce(t *testing.T) {
	for n := 1; n <= 8; n++ {
		for root := 0; root < n; root++ {
			for _, l := range []int{0, 1, 17, 1025} {
				name := fmt.Sprintf("n=%d/root=%d/len=%d", n, root, l)
				bufs := fill[float64](n, l, true, uint64(n+l))
				orig := clone2(bufs)
				if _, err := runWith(t, Config{WorldSize: n}, func(r *Rank) error { return Broadcast(r, bufs[r.Rank()], root) }); err != nil {
					t.Fatalf("Broadcast %s: %v", name, err)
				}
				for r := range bufs {
					for i := range bufs[r] {
						if bufs[r][i] != orig[root][i] {
							t.Fatalf("Broadcast %s: rank %d [%d] = %v; want %v", name, r, i, bufs[r][i], orig[root][i])
						}
					}
				}
				bufs = clone2(orig)
				ref := reference(orig, Mean)
				if _, err := runWith(t, Config{WorldSize: n}, func(r *Rank) error { return Reduce(r, bufs[r.Rank()], root, Mean) }); err != nil {
					t.Fatalf("Reduce %s: %v", name, err)
				}
				for r := range bufs {
					for i := range bufs[r] {
						want := orig[r][i] // other ranks: unchanged
						if r == root {
							want = ref[i]
						}
						if bufs[r][i] != want {
							t.Fatalf("Reduce %s: rank %d [%d] = %v; want %v", name, r, i, bufs[r][i], want)
						}
					}
				}
			}
		}
	}
}

func TestReduceScatterAllGather(t *testing.T) {
	for n := 1; n <= 8; n++ {
		for _, m := range []int{0, 1, 5, 300} {
			name := fmt.Sprintf("n=%d/chunk=%d", n, m)
			in := fill[float32](n, n*m, true, uint64(n*m+1))
			orig := clone2(in)
			ref := reference(in, Sum)
			outs := make([][]float32, n)
			gath := make([][]float32, n)
			_, err := runWith(t, Config{WorldSize: n}, func(r *Rank) error {
				j := r.Rank()
				outs[j] = make([]float32, m)
				if err := ReduceScatter(r, outs[j], in[j], Sum); err != nil {
					return err
				}
				gath[j] = make([]float32, n*m)
				return AllGather(r, gath[j], outs[j])
			})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for j := range outs {
				for i, v := range outs[j] {
					if float64(v) != ref[j*m+i] {
						t.Fatalf("ReduceScatter %s: rank %d out[%d] = %v; want %v", name, j, i, v, ref[j*m+i])
					}
				}
				for i, v := range gath[j] {
					if float64(v) != ref[i] {
						t.Fatalf("AllGather %s: rank %d out[%d] = %v; want %v", name, j, i, v, ref[i])
					}
				}
				for i := range in[j] {
					if in[j][i] != orig[j][i] {
						t.Fatalf("ReduceScatter %s: rank %d changed its input", name, j)
					}
				}
			}
		}
	}
}
