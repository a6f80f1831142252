package stream

import (
	"context"
	"sync"
	"time"
)

// Buffer is a Consumer fed by a broker client's background delivery: the client Puts events
// as they arrive and Fetch takes them, so taking one event at a time costs no round trip
// to the broker.
type Buffer struct {
	ch   chan Event
	errs chan error
	done chan struct{}
	once sync.Once
	stop func()
}

var _ Consumer = (*Buffer)(nil)

// NewBuffer returns a Buffer holding up to size events; Close calls stop (which must end
// the delivery) once.
func NewBuffer(size int, stop func()) *Buffer {
	return &Buffer{ch: make(chan Event, size), errs: make(chan error, 1), done: make(chan struct{}), stop: stop}
}

// Put adds an event, waiting while the buffer is full; after Close it drops the event.
func (b *Buffer) Put(e Event) {
	select {
	case b.ch <- e:
	case <-b.done:
	}
}

// PutErr records a delivery error for the next Fetch (only the first one is kept).
func (b *Buffer) PutErr(err error) {
	select {
	case b.errs <- err:
	default:
	}
}

// Fetch implements Consumer.
func (b *Buffer) Fetch(ctx context.Context, max int, wait time.Duration) ([]Event, error) {
	var out []Event
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case e := <-b.ch:
			out = append(out, e)
		case err := <-b.errs:
			return nil, err
		case <-t.C:
			return nil, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	for len(out) < max {
		select {
		case e := <-b.ch:
			out = append(out, e)
		case err := <-b.errs:
			return out, err
		default:
			return out, ctx.Err()
		}
	}
	return out, ctx.Err()
}

// Close implements Consumer: it stops the delivery.
func (b *Buffer) Close() error {
	b.once.Do(func() { close(b.done); b.stop() })
	return nil
}
