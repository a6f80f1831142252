package shards

import (
	"context"
	"iter"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/dlbd/dlbd/dl"
)

// Epoch returns the Len() batches of epoch e, each {x [B, F], y [B]} in float32 on CPU.
func (l *Loader) Epoch(e int) iter.Seq[[]*dl.Tensor] {
	return func(yield func([]*dl.Tensor) bool) {
		l.stats, l.err = Stats{}, nil
		l.produced.Store(0)
		start := time.Now()
		defer func() { l.stats.Elapsed = time.Since(start) }()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		if l.cfg.Prefetch < 0 { // no goroutine: the loop waits for every read
			last := start
			l.err = l.produce(ctx, e, func(b []*dl.Tensor) bool {
				l.stats.Wait += time.Since(last)
				ok := l.deliver(b, yield)
				last = time.Now()
				return ok
			})
			return
		}
		ch := make(chan []*dl.Tensor, l.cfg.Prefetch)
		var perr error
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { // exits at the end of the epoch or when ctx is cancelled
			defer wg.Done()
			defer close(ch)
			perr = l.produce(ctx, e, func(b []*dl.Tensor) bool {
				select {
				case ch <- b:
					return true
				case <-ctx.Done():
					return false
				}
			})
		}()
		for {
			t := time.Now()
			b, ok := <-ch
			l.stats.Wait += time.Since(t)
			if !ok || !l.deliver(b, yield) {
				break
			}
		}
		cancel()
		for range ch { // let the producer see the cancellation and exit
		}
		wg.Wait()
		l.err = perr
	}
}

// deliver yields one batch and counts it.
func (l *Loader) deliver(b []*dl.Tensor, yield func([]*dl.Tensor) bool) bool {
	l.stats.Batches++
	l.stats.Rows += b[0].Size(0)
	return yield(b)
}

// produce reads this rank's shards of epoch e and sends Len() batches to send.
func (l *Loader) produce(ctx context.Context, e int, send func([]*dl.Tensor) bool) error {
	nf := len(l.cfg.Features)
	rng := rand.New(rand.NewPCG(l.cfg.Seed, uint64(e)<<16|uint64(l.cfg.Rank)))
	var buf [][]float32 // shuffle buffer of rows (features then label)
	var xs, ys []float32
	made := 0
	emit := func(row []float32) bool {
		xs, ys = append(xs, row[:nf]...), append(ys, row[nf])
		if len(ys) < l.cfg.BatchSize {
			return true
		}
		b := []*dl.Tensor{dl.FromSlice(xs, len(ys), nf), dl.FromSlice(ys, len(ys))}
		xs, ys = nil, nil
		made++
		l.produced.Add(1)
		return send(b) && made < l.steps
	}
	push := func(row []float32) bool {
		if !l.cfg.Shuffle {
			return emit(row)
		}
		if len(buf) < l.cfg.ShuffleBuffer {
			buf = append(buf, row)
			return true
		}
		i := rng.IntN(len(buf))
		out := buf[i]
		buf[i] = row
		return emit(out)
	}
	order := l.Shards(e)
	for g := 0; g < len(order); g += l.cfg.Interleave {
		group := order[g:min(g+l.cfg.Interleave, len(order))]
		more, err := l.interleave(ctx, group, push)
		if err != nil {
			return err
		}
		if !more {
			return ctx.Err()
		}
	}
	rng.Shuffle(len(buf), func(i, j int) { buf[i], buf[j] = buf[j], buf[i] })
	for _, row := range buf {
		if !emit(row) {
			break
		}
	}
	return nil
}
