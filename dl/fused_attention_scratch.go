package dl

import "sync"

// attnScratch holds one goroutine's buffers for a (batch item, head)
// pair of the fused attention; attnPool hands them from pair to pair, so
// that a pair does not allocate (and the runtime zero) its score strips
// again: that was 14% of the bfloat16 kernel's time.  Every buffer is
// written before it is read.
type attnScratch struct {
	f32 []float32
	f64 []float64
	u16 []uint16
}

var attnPool = sync.Pool{New: func() any { return new(attnScratch) }}

// getScratch returns a pooled scratch with floats of F split into
// buffers of the sizes in fs and 16-bit ones of the sizes in hs; the
// caller puts it back with attnPool.Put when the pair is done.
func getScratch[F float](fs, hs []int) (sc *attnScratch, f [][]F, h [][]uint16) {
	sc = attnPool.Get().(*attnScratch)
	var all []F
	switch b := any(&all).(type) {
	case *[]float32:
		sc.f32 = grown(sc.f32, sum(fs))
		*b = sc.f32
	case *[]float64:
		sc.f64 = grown(sc.f64, sum(fs))
		*b = sc.f64
	}
	sc.u16 = grown(sc.u16, sum(hs))
	return sc, carve(all, fs), carve(sc.u16, hs)
}

// grown returns s if it holds n elements, else a new slice of n.
func grown[E any](s []E, n int) []E {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]E, n)
}

// carve splits s into consecutive slices of the given sizes.
func carve[E any](s []E, sizes []int) [][]E {
	out := make([][]E, len(sizes))
	for i, n := range sizes {
		out[i], s = s[:n:n], s[n:]
	}
	return out
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}
