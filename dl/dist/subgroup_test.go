package dist

import (
	"fmt"
	"slices"
	"testing"
)

func TestSplit(t *testing.T) {
	const n = 6
	members := make([][]int, n)
	_, err := runWith(t, Config{WorldSize: n}, func(r *Rank) error {
		// Two groups by parity, ordered by decreasing rank; rank 5 opts out.
		color := r.Rank() % 2
		if r.Rank() == 5 {
			color = -1
		}
		sub, err := r.Split(color, -r.Rank())
		if err != nil {
			return err
		}
		if r.Rank() == 5 {
			if sub != nil {
				return fmt.Errorf("color -1 got a group")
			}
			return nil
		}
		members[r.Rank()] = sub.Group().Members()
		buf := []float64{float64(r.Rank())}
		if err := AllReduce(sub, buf, Sum); err != nil {
			return err
		}
		want := map[int]float64{0: 0 + 2 + 4, 1: 1 + 3}[color]
		if buf[0] != want || sub.WorldRank() != r.Rank() {
			return fmt.Errorf("sub-group sum = %v; want %v", buf[0], want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(members[0], []int{4, 2, 0}) || !slices.Equal(members[3], []int{3, 1}) {
		t.Fatalf("members = %v; want [4 2 0] and [3 1]", members)
	}
}

func TestNewSubgroups(t *testing.T) {
	_, err := runWith(t, Config{WorldSize: 4}, func(r *Rank) error {
		sub, err := r.NewSubgroups(2)
		if err != nil {
			return err
		}
		if sub.Rank() != r.Rank()%2 || sub.Size() != 2 {
			return fmt.Errorf("sub-group rank %d of %d", sub.Rank(), sub.Size())
		}
		if _, err := r.NewSubgroups(3); err == nil {
			return fmt.Errorf("NewSubgroups(3) of 4 ranks: want an error")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestGrid builds the 2×2×2 grid of 8 ranks and checks Megatron-LM's
// layout: rank = tp + TP·(dp + DP·pp), and all-reduces stay in their group.
func TestGrid(t *testing.T) {
	_, err := runWith(t, Config{WorldSize: 8}, func(r *Rank) error {
		g, err := r.NewGrid(GridConfig{TP: 2, PP: 2})
		if err != nil {
			return err
		}
		tp, dp, pp := g.Coords()
		if g.DP != 2 || r.Rank() != tp+2*(dp+2*pp) {
			return fmt.Errorf("coords (%d,%d,%d) for rank %d", tp, dp, pp, r.Rank())
		}
		for _, c := range []struct {
			name string
			sub  *Rank
			want []int
		}{
			{"tp", g.TPGroup, []int{2 * (dp + 2*pp), 1 + 2*(dp+2*pp)}},
			{"dp", g.DPGroup, []int{tp + 4*pp, tp + 2 + 4*pp}},
			{"pp", g.PPGroup, []int{tp + 2*dp, tp + 2*dp + 4}},
		} {
			if got := c.sub.Group().Members(); !slices.Equal(got, c.want) {
				return fmt.Errorf("%s group of rank %d = %v; want %v", c.name, r.Rank(), got, c.want)
			}
			buf := []float32{float32(r.Rank())}
			if err := AllReduce(c.sub, buf, Sum); err != nil {
				return err
			}
			if want := float32(c.want[0] + c.want[1]); buf[0] != want {
				return fmt.Errorf("%s all-reduce on rank %d = %v; want %v", c.name, r.Rank(), buf[0], want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
