package dist

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dlbd/dlbd/dl/dist/internal/reduce"
)

// The all-reduce benchmarks compare each algorithm with the in-process
// floor t_min = 2·n·S/B: n buffers of S bytes must each be read and written
// once, and B is this machine's in-place read-modify-write bandwidth (an
// AVX-512 x += x pass over 512 MiB, read and write counted), measured in
// the same run, interleaved with the calls. Every call is timed cold: the
// caches are flushed before it (outside the timed part), as for gradients
// that backward wrote long ago. The ranks wait at a start line and are
// released together, as ranks arriving from their backward passes.
//
// Reported metrics: us (median time of one call, µs), tmin-us, ratio =
// t_min/t, busbw-GB/s (NCCL: 2(n-1)/n·S/t), Brmw-GB/s. ns/op includes the
// cache flush and is not the call time.
//
//	go test -run '^$' -bench 'AllReduce/' ./dl/dist/

const (
	rmwBytes   = 512 << 20 // the B measurement's buffer
	evictBytes = 128 << 20 // 4× the L3 of the machine this was tuned on
)

// minSamples is the least number of timed calls per benchmark run, and
// warmups the number of untimed cold calls before them.
const minSamples, warmups = 15, 3

// benchBuffers returns n buffers of S bytes, reused across runs (the
// framework calls a benchmark several times).
func benchBuffers(n, S int) [][]float32 {
	if len(cachedBufs) != n || len(cachedBufs[0]) != S/4 {
		cachedBufs = nil
		runtime.GC()
		cachedBufs = make([][]float32, n)
		for r := range cachedBufs {
			cachedBufs[r] = make([]float32, S/4)
		}
	}
	return cachedBufs
}

var (
	cachedBufs [][]float32
	benchMu    sync.Mutex
	rmwBuf     []float32 // values stay finite: reset every 100 passes
	rmwPass    int
	evictBuf   []float32
)

// rmwBandwidth runs one x += x pass over rmwBuf split across p goroutines
// and returns the bytes read plus written per second.
func rmwBandwidth(p int) float64 {
	if rmwBuf == nil {
		rmwBuf = make([]float32, rmwBytes/4)
		reduce.Double(rmwBuf) // first touch: page faults are not bandwidth
	}
	if rmwPass%100 == 0 {
		for i := range rmwBuf {
			rmwBuf[i] = 0x1p-120
		}
	}
	rmwPass++
	var wg sync.WaitGroup
	t0 := time.Now()
	for w := 0; w < p; w++ {
		x := rmwBuf[w*len(rmwBuf)/p : (w+1)*len(rmwBuf)/p]
		wg.Add(1)
		go func() { reduce.Double(x); wg.Done() }()
	}
	wg.Wait()
	return 2 * rmwBytes / time.Since(t0).Seconds()
}

// evictCaches reads evictBuf (accumulating into a small L1-resident tile)
// so that the benchmark's buffers leave the caches with their dirty lines
// written back; a write sweep would leave dirty lines whose write-back the
// next timed call would pay.
func evictCaches() {
	if evictBuf == nil {
		evictBuf = make([]float32, evictBytes/4)
		for i := range evictBuf {
			evictBuf[i] = 1
		}
	}
	var wg sync.WaitGroup
	for h := 0; h < 2; h++ {
		src := evictBuf[h*len(evictBuf)/2 : (h+1)*len(evictBuf)/2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			var tile [4096]float32
			for i := 0; i+len(tile) <= len(src); i += len(tile) {
				reduce.Combine(tile[:], src[i:i+len(tile)], reduce.Sum, 0)
			}
		}()
	}
	wg.Wait()
}

// benchAllReduce times b.N cold all-reduces of n buffers of S bytes with p
// threads and reports the metrics described above.
func benchAllReduce(b *testing.B, alg Algorithm, n, S, p int) {
	benchMu.Lock()
	defer benchMu.Unlock()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(p))
	bufs := benchBuffers(n, S)
	refill := func() {
		for r := range bufs {
			for i := range bufs[r] {
				bufs[r][i] = float32(1+(i+r)%3) * 0x1p-100 // nonzero: zeros ran faster
			}
		}
	}
	g, err := New(Config{WorldSize: n, AllReduce: alg, KeepRecords: -1})
	if err != nil {
		b.Fatal(err)
	}
	var (
		gen      atomic.Int64 // round number; ranks start round k when gen == k
		spinning atomic.Int32 // ranks at the start line
		done     atomic.Int32
		t0, tEnd atomic.Int64
		base     = time.Now()
		quit     atomic.Bool
		times    []time.Duration
		bws      []float64
	)
	// Between rounds the ranks sleep (so that the cache flush and the B
	// measurement get every core); arm wakes them, and they spin at the
	// start line until gen releases them, so that no thread wake-up of the
	// harness falls inside the timed part.
	arm := make(chan struct{})
	finished := make(chan struct{}, 1) // the last rank to finish a round
	var armMu sync.Mutex
	armed := func() chan struct{} { armMu.Lock(); defer armMu.Unlock(); return arm }
	errc := make(chan error, 1)
	go func() {
		errc <- g.Run(func(r *Rank) error {
			for k := int64(1); ; k++ {
				<-armed()
				spinning.Add(1)
				for gen.Load() < k {
					runtime.Gosched()
				}
				if quit.Load() {
					return nil
				}
				if err := AllReduce(r, bufs[r.Rank()], Sum); err != nil {
					return err
				}
				end := int64(time.Since(base))
				for old := tEnd.Load(); end > old && !tEnd.CompareAndSwap(old, end); old = tEnd.Load() {
				}
				if done.Add(1) == int32(n) {
					finished <- struct{}{}
				}
			}
		})
	}()
	round := func(k int64) {
		done.Store(0)
		tEnd.Store(0)
		spinning.Store(0)
		armMu.Lock()
		close(arm)
		armMu.Unlock()
		for spinning.Load() < int32(n) {
			runtime.Gosched()
		}
		armMu.Lock()
		arm = make(chan struct{}) // ranks read it only after this round ends
		armMu.Unlock()
		t0.Store(int64(time.Since(base)))
		gen.Store(k)
		// Wait asleep: a harness spinning here would keep one more thread
		// runnable during the timed call and take a core from the ranks
		// when another program competes (the ranks time the call
		// themselves, so this wake-up is not measured).
		<-finished
	}
	cold := func() {
		for _, buf := range bufs {
			reduce.FlushCache(buf) // the data is in main memory only...
		}
		evictCaches() // ...and the TLB and the rest of the caches are cold too
	}
	refill()
	rmwBandwidth(p) // first touch
	k := int64(0)
	for i := 0; i < warmups; i++ { // code, group state and pages touched once
		cold()
		k++
		round(k)
	}
	runtime.GC() // not during the timed calls
	b.ResetTimer()
	// At least minSamples calls even when b.N is 1 (large buffers): the
	// reported figures are medians. B is sampled every third call.
	for i := 0; i < max(b.N, minSamples); i++ {
		if i%32 == 31 {
			refill() // sums grow by n per call
		}
		if i%3 == 0 {
			bws = append(bws, rmwBandwidth(p))
		}
		cold()
		k++
		round(k)
		times = append(times, time.Duration(tEnd.Load()-t0.Load()))
	}
	b.StopTimer()
	quit.Store(true)
	armMu.Lock()
	close(arm)
	armMu.Unlock()
	gen.Store(k + 1)
	if err := <-errc; err != nil {
		b.Fatal(err)
	}
	slices.Sort(times)
	slices.Sort(bws)
	t := times[len(times)/2].Seconds()
	B := bws[len(bws)/2]
	tmin := 2 * float64(n) * float64(S) / B
	b.ReportMetric(t*1e6, "us")
	b.ReportMetric(tmin*1e6, "tmin-us")
	b.ReportMetric(tmin/t, "ratio")
	b.ReportMetric(2*float64(n-1)/float64(n)*float64(S)/t/1e9, "busbw-GB/s")
	b.ReportMetric(B/1e9, "Brmw-GB/s")
}

func BenchmarkAllReduce(b *testing.B) {
	for _, alg := range []Algorithm{SharedMemory, Ring, Tree} {
		for _, p := range []int{1, 2} {
			for _, n := range []int{2, 4, 8} {
				for _, mib := range []int{1, 4, 16, 64} {
					b.Run(fmt.Sprintf("alg=%v/n=%d/S=%dMiB/threads=%d", alg, n, mib, p), func(b *testing.B) {
						benchAllReduce(b, alg, n, mib<<20, p)
					})
				}
			}
		}
	}
}

// BenchmarkAllReduceFloor reports t_min = 2·n·S/B for the same
// configurations (metric "us"), so that a harness running it next to
// BenchmarkAllReduce gets ratio = t_min/t from two "us" values.
func BenchmarkAllReduceFloor(b *testing.B) {
	for _, p := range []int{1, 2} {
		for _, n := range []int{2, 4, 8} {
			for _, mib := range []int{1, 4, 16, 64} {
				b.Run(fmt.Sprintf("n=%d/S=%dMiB/threads=%d", n, mib, p), func(b *testing.B) {
					benchMu.Lock()
					defer benchMu.Unlock()
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(p))
					rmwBandwidth(p) // first touch
					var bws []float64
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						bws = append(bws, rmwBandwidth(p))
					}
					slices.Sort(bws)
					b.ReportMetric(2*float64(n)*float64(mib<<20)/bws[len(bws)/2]*1e6, "us")
					b.ReportMetric(bws[len(bws)/2]/1e9, "Brmw-GB/s")
				})
			}
		}
	}
}

// BenchmarkAllReduceLatency is the fixed cost of one call: back-to-back
// all-reduces of 64 values (warm caches), time per call.
func BenchmarkAllReduceLatency(b *testing.B) {
	for _, alg := range []Algorithm{SharedMemory, Ring, Tree} {
		for _, p := range []int{1, 2} {
			for _, n := range []int{2, 4, 8} {
				b.Run(fmt.Sprintf("alg=%v/n=%d/threads=%d", alg, n, p), func(b *testing.B) {
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(p))
					g, err := New(Config{WorldSize: n, AllReduce: alg, KeepRecords: -1})
					if err != nil {
						b.Fatal(err)
					}
					b.ResetTimer()
					err = g.Run(func(r *Rank) error {
						buf := make([]float32, 64)
						for i := 0; i < b.N; i++ {
							if err := AllReduce(r, buf, Sum); err != nil {
								return err
							}
						}
						return nil
					})
					if err != nil {
						b.Fatal(err)
					}
				})
			}
		}
	}
}
