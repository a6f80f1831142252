package dist

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
)

func TestSendRecv(t *testing.T) {
	const n, msgs = 4, 40 // more than p2pDepth: Send has to wait
	_, err := runWith(t, Config{WorldSize: n}, func(r *Rank) error {
		j := r.Rank()
		buf := make([]float64, 3)
		for m := 0; m < msgs; m++ {
			if j > 0 {
				if err := Recv(r, buf, j-1); err != nil {
					return err
				}
				if want := []float64{float64(m), float64(m + j - 1), 7}; !slices.Equal(buf, want) {
					return fmt.Errorf("message %d = %v; want %v", m, buf, want)
				}
			}
			if j < n-1 {
				out := []float64{float64(m), float64(m + j), 7}
				if err := Send(r, out, j+1); err != nil {
					return err
				}
				out[0] = -1 // Send copied: the receiver must not see this
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestBarrier(t *testing.T) {
	for n := 1; n <= 8; n++ {
		var arrived atomic.Int32
		_, err := runWith(t, Config{WorldSize: n}, func(r *Rank) error {
			for round := 1; round <= 20; round++ {
				arrived.Add(1)
				if err := r.Barrier(); err != nil {
					return err
				}
				if got := arrived.Load(); got < int32(round*n) {
					return fmt.Errorf("round %d: left the barrier with %d arrivals; want %d", round, got, round*n)
				}
				if err := r.Barrier(); err != nil { // nobody starts the next round early
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
	}
}

func TestAsync(t *testing.T) {
	for _, alg := range algorithms {
		t.Run("alg="+alg.String(), func(t *testing.T) {
			const n, k, l = 4, 6, 777
			_, err := runWith(t, Config{WorldSize: n, AllReduce: alg}, func(r *Rank) error {
				bufs := make([][]float32, k)
				works := make([]*Work, k)
				for b := range bufs {
					bufs[b] = make([]float32, l)
					for i := range bufs[b] {
						bufs[b][i] = float32(b*r.Rank() + i%5)
					}
					works[b] = AllReduceAsync(r, bufs[b], Sum)
				}
				// A synchronous call waits for the async ones before it.
				out := make([]float32, n)
				if err := AllGather(r, out, []float32{float32(r.Rank())}); err != nil {
					return err
				}
				for b := k - 1; b >= 0; b-- { // waiting out of order is fine
					if err := works[b].Wait(); err != nil {
						return err
					}
					if !works[b].IsCompleted() {
						return errors.New("IsCompleted false after Wait")
					}
					for i, v := range bufs[b] {
						if want := float32(b*n*(n-1)/2 + n*(i%5)); v != want {
							return fmt.Errorf("bucket %d [%d] = %v; want %v", b, i, v, want)
						}
					}
				}
				// Left unwaited: Run waits for it.
				AllReduceAsync(r, bufs[0], Sum)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestAsyncAbort(t *testing.T) {
	_, err := runWith(t, Config{WorldSize: 3}, func(r *Rank) error {
		if r.Rank() == 0 {
			panic("boom")
		}
		return AllReduceAsync(r, make([]float32, 10), Sum).Wait()
	})
	var re *RankError
	if !errors.As(err, &re) || re.Rank != 0 {
		t.Fatalf("Run = %v; want rank 0's panic", err)
	}
}
