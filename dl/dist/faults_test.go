package dist

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// rankErrs collects each rank's error from inside Run.
type rankErrs struct {
	mu   sync.Mutex
	errs map[int]error
}

func (e *rankErrs) set(r int, err error) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.errs == nil {
		e.errs = map[int]error{}
	}
	e.errs[r] = err
	return err
}

func TestPanicAbortsGroup(t *testing.T) {
	for _, alg := range algorithms {
		t.Run("alg="+alg.String(), func(t *testing.T) {
			var errs rankErrs
			start := time.Now()
			_, err := runWith(t, Config{WorldSize: 4, AllReduce: alg}, func(r *Rank) error {
				buf := make([]float32, 10000)
				if r.Rank() == 2 {
					time.Sleep(20 * time.Millisecond) // let the others block first
					panic("boom")
				}
				return errs.set(r.Rank(), AllReduce(r, buf, Sum))
			})
			var re *RankError
			if !errors.As(err, &re) || re.Rank != 2 || re.Panic != "boom" || len(re.Stack) == 0 {
				t.Fatalf("Run = %v; want *RankError for rank 2 panicking with boom", err)
			}
			if want := "dist: rank 2 panicked: boom"; err.Error() != want {
				t.Errorf("Run error = %q; want %q", err, want)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("abort took %v", d)
			}
			for r, e := range errs.errs {
				if !errors.Is(e, ErrAborted) || !errors.As(e, &re) || re.Rank != 2 {
					t.Errorf("rank %d got %v; want an abort naming rank 2", r, e)
				}
				if !strings.Contains(e.Error(), "all-reduce on rank") || !strings.Contains(e.Error(), "rank 2 panicked: boom") {
					t.Errorf("rank %d error %q does not name the operation and the cause", r, e)
				}
			}
		})
	}
}

func TestErrorAbortsGroup(t *testing.T) {
	cause := errors.New("out of data")
	_, err := runWith(t, Config{WorldSize: 3, AllReduce: Ring}, func(r *Rank) error {
		if r.Rank() == 1 {
			return cause
		}
		for {
			if err := AllReduce(r, make([]float64, 7), Sum); err != nil {
				return err
			}
		}
	})
	var re *RankError
	if !errors.As(err, &re) || re.Rank != 1 || !errors.Is(err, cause) {
		t.Fatalf("Run = %v; want *RankError{Rank: 1} wrapping the cause", err)
	}
	if want := "dist: rank 1: out of data"; err.Error() != want {
		t.Errorf("Run error = %q; want %q", err, want)
	}
}

// TestAbortMidRound aborts while rounds are in progress: every rank returns.
func TestAbortMidRound(t *testing.T) {
	for _, alg := range algorithms {
		t.Run("alg="+alg.String(), func(t *testing.T) {
			g, _ := New(Config{WorldSize: 4, AllReduce: alg})
			go func() {
				time.Sleep(5 * time.Millisecond)
				g.Abort(errors.New("cancelled by the notebook"))
			}()
			err := g.Run(func(r *Rank) error {
				buf := make([]float32, 1<<18)
				for {
					if err := AllReduce(r, buf, Sum); err != nil {
						return err
					}
				}
			})
			if !errors.Is(err, ErrAborted) || !strings.Contains(err.Error(), "cancelled by the notebook") {
				t.Fatalf("Run = %v; want abort with the cause", err)
			}
			if err := g.Run(func(r *Rank) error { return nil }); !errors.Is(err, ErrAborted) {
				t.Fatalf("Run after abort = %v; want ErrAborted (the group is poisoned)", err)
			}
		})
	}
}

func TestMismatch(t *testing.T) {
	cases := []struct {
		name string
		fn   func(r *Rank) error
		want string
		// some: a tree broadcast lets ranks whose part is done return before
		// the mismatched rank arrives; only the ranks still inside see it.
		some bool
	}{
		{"length", func(r *Rank) error { return AllReduce(r, make([]float32, 100+r.Rank()), Sum) }, "float32 × 10", false},
		{"op", func(r *Rank) error { return AllReduce(r, make([]float32, 10), Op(r.Rank()%2)) }, "sum", false},
		{"dtype", func(r *Rank) error {
			if r.Rank() == 0 {
				return AllReduce(r, make([]float64, 10), Sum)
			}
			return AllReduce(r, make([]float32, 10), Sum)
		}, "float64 × 10", false},
		{"collective", func(r *Rank) error {
			if r.Rank() == 1 {
				return Broadcast(r, make([]float32, 10), 0)
			}
			return AllReduce(r, make([]float32, 10), Sum)
		}, "broadcast(float32 × 10, root 0)", false},
		{"root", func(r *Rank) error { return Broadcast(r, make([]float32, 10), r.Rank()%2) }, "root 1", true},
	}
	for _, alg := range algorithms {
		for _, tc := range cases {
			t.Run(fmt.Sprintf("alg=%v/%s", alg, tc.name), func(t *testing.T) {
				var errs rankErrs
				_, err := runWith(t, Config{WorldSize: 3, AllReduce: alg}, func(r *Rank) error {
					return errs.set(r.Rank(), tc.fn(r))
				})
				var me *MismatchError
				if !errors.As(err, &me) || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("Run = %v; want a *MismatchError mentioning %q", err, tc.want)
				}
				for r := 0; r < 3; r++ {
					if e := errs.errs[r]; !errors.As(e, &me) && !(tc.some && e == nil) {
						t.Errorf("rank %d got %v; want the mismatch", r, e)
					}
				}
			})
		}
	}
}

func TestDeadlockDetected(t *testing.T) {
	t.Run("recv-recv", func(t *testing.T) {
		_, err := runWith(t, Config{WorldSize: 2}, func(r *Rank) error {
			return Recv(r, make([]float32, 1), 1-r.Rank())
		})
		if !errors.Is(err, ErrDeadlock) || !strings.Contains(err.Error(), "rank 0 waits in recv (recv from rank 1 of world)") {
			t.Fatalf("Run = %v; want ErrDeadlock describing the waits", err)
		}
	})
	t.Run("missing-rank", func(t *testing.T) {
		_, err := runWith(t, Config{WorldSize: 3}, func(r *Rank) error {
			if r.Rank() == 2 {
				return nil // forgets the all-reduce
			}
			return AllReduce(r, make([]float32, 5), Sum)
		})
		if !errors.Is(err, ErrDeadlock) || !strings.Contains(err.Error(), "rank 2 has returned") {
			t.Fatalf("Run = %v; want ErrDeadlock naming the rank that returned", err)
		}
	})
}

func TestTimeout(t *testing.T) {
	_, err := runWith(t, Config{WorldSize: 2, Timeout: 50 * time.Millisecond}, func(r *Rank) error {
		if r.Rank() == 1 {
			time.Sleep(time.Second) // busy, not waiting in dist: no deadlock
		}
		return r.Barrier()
	})
	var te *TimeoutError
	if !errors.Is(err, ErrTimeout) || !errors.As(err, &te) || !slices.Equal(te.Missing, []int{1}) ||
		!strings.Contains(err.Error(), "rank 1 did not arrive at barrier #0 of world within 50ms") {
		t.Fatalf("Run = %v; want a *TimeoutError naming rank 1, the one that did not arrive", err)
	}
}

// TestHungRankNamed: a rank that hangs outside dist (blocked on a channel
// nobody closes) is named by the timeout, and Run returns while it is still
// stuck (issue 18). Before, Run waited for the stuck goroutine forever and
// the error named a waiting rank.
func TestHungRankNamed(t *testing.T) {
	stuck := make(chan struct{})
	defer close(stuck) // lets the hung rank's goroutine end for goleak
	start := time.Now()
	_, err := runWith(t, Config{WorldSize: 4, Timeout: 200 * time.Millisecond}, func(r *Rank) error {
		if r.Rank() == 2 {
			<-stuck
		}
		return AllReduce(r, make([]float32, 8), Sum)
	})
	var te *TimeoutError
	if !errors.As(err, &te) || !slices.Equal(te.Missing, []int{2}) || !slices.Equal(te.Waiting, []int{0, 1, 3}) {
		t.Fatalf("Run = %v; want a *TimeoutError with Missing [2], Waiting [0 1 3]", err)
	}
	if want := "rank 2 did not arrive at all-reduce #0 of world within 200ms"; !strings.Contains(err.Error(), want) {
		t.Errorf("Run error = %q; want it to contain %q", err, want)
	}
	if d := time.Since(start); d > 200*time.Millisecond+abortGrace+2*time.Second {
		t.Errorf("Run returned after %v; want about Timeout + abortGrace", d)
	}
}

// TestTimeoutP2PNamesPeer: a Recv whose sender never sends names the sender.
func TestTimeoutP2PNamesPeer(t *testing.T) {
	stuck := make(chan struct{})
	defer close(stuck)
	_, err := runWith(t, Config{WorldSize: 2, Timeout: 100 * time.Millisecond}, func(r *Rank) error {
		if r.Rank() == 0 {
			<-stuck
			return nil
		}
		return Recv(r, make([]float64, 3), 0)
	})
	var te *TimeoutError
	if !errors.As(err, &te) || !slices.Equal(te.Missing, []int{0}) || !strings.Contains(err.Error(), "rank 0 did not arrive at recv") {
		t.Fatalf("Run = %v; want a *TimeoutError naming rank 0", err)
	}
}

func TestDefaultTimeout(t *testing.T) {
	for _, tc := range []struct {
		set, want time.Duration
	}{{0, DefaultTimeout}, {-1, 0}, {time.Second, time.Second}} {
		g, err := New(Config{WorldSize: 2, Timeout: tc.set})
		if err != nil {
			t.Fatal(err)
		}
		if g.w.timeout != tc.want {
			t.Errorf("New(Config{Timeout: %v}) waits %v; want %v", tc.set, g.w.timeout, tc.want)
		}
	}
}

func TestRecvSizeMismatch(t *testing.T) {
	_, err := runWith(t, Config{WorldSize: 2}, func(r *Rank) error {
		if r.Rank() == 0 {
			return Send(r, make([]float32, 10), 1)
		}
		return Recv(r, make([]float32, 12), 0)
	})
	if err == nil || !strings.Contains(err.Error(), "rank 0 sent 10 values of 4 bytes, the buffer holds 12 values of 4 bytes") {
		t.Fatalf("Run = %v; want the size mismatch", err)
	}
}

func TestBadArguments(t *testing.T) {
	if _, err := New(Config{}); err == nil || !strings.Contains(err.Error(), "WorldSize 0") {
		t.Errorf("New(Config{}) = %v; want an error about WorldSize", err)
	}
	_, err := runWith(t, Config{WorldSize: 2}, func(r *Rank) error {
		var errs []error
		errs = append(errs, Broadcast(r, make([]float32, 1), 5))
		errs = append(errs, ReduceScatter(r, make([]float32, 2), make([]float32, 3), Sum))
		errs = append(errs, AllGather(r, make([]float32, 3), make([]float32, 2)))
		errs = append(errs, Send(r, make([]float32, 1), r.Rank()))
		errs = append(errs, AllReduce(r, make([]float32, 1), Op(9)))
		for i, e := range errs {
			if e == nil {
				return fmt.Errorf("call %d: want an error", i)
			}
		}
		if !strings.Contains(errs[0].Error(), "root 5 out of range [0, 2)") || !strings.Contains(errs[1].Error(), "len(in) = 3, want 4") {
			return fmt.Errorf("unexpected messages: %v", errs)
		}
		return r.Barrier() // the group is still usable
	})
	if err != nil {
		t.Fatal(err)
	}
}
