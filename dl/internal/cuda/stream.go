package cuda

import "time"

// Stream is a CUDA stream (CUstream, the same handle as cudaStream_t): a
// queue of work that the GPU runs in order. The zero Stream is the legacy
// default stream, which waits for and is waited on by every blocking
// stream of its context: the simplest, fully ordered choice.
type Stream uintptr

// Event is a CUDA event (CUevent): a marker recorded into a stream, used
// here to time GPU work with the GPU's own clock.
type Event uintptr

// NewStream creates a stream. It is "blocking" (flag 0): it still
// synchronises with the legacy default stream, so mixing it with
// Stream(0) cannot reorder work.
func (c *Context) NewStream() (Stream, error) {
	var s uintptr
	err := c.Do(func() error { return drvCheck(cuStreamCreate(&s, 0), "cuStreamCreate", c.name()) })
	return Stream(s), err
}

// DestroyStream releases s after its queued work completes.
func (c *Context) DestroyStream(s Stream) error {
	return c.Do(func() error { return drvCheck(cuStreamDestroy(uintptr(s)), "cuStreamDestroy_v2", "") })
}

// SyncStream waits until everything queued on s has finished.
func (c *Context) SyncStream(s Stream) error {
	return c.Do(func() error { return drvCheck(cuStreamSynchronize(uintptr(s)), "cuStreamSynchronize", c.name()) })
}

// NewEvent creates an event with timing enabled.
func (c *Context) NewEvent() (Event, error) {
	var e uintptr
	err := c.Do(func() error { return drvCheck(cuEventCreate(&e, 0), "cuEventCreate", c.name()) })
	return Event(e), err
}

// DestroyEvent releases e.
func (c *Context) DestroyEvent(e Event) error {
	return c.Do(func() error { return drvCheck(cuEventDestroy(uintptr(e)), "cuEventDestroy_v2", "") })
}

// Record queues e on s: it "happens" when the GPU reaches it.
func (c *Context) Record(e Event, s Stream) error {
	return c.Do(func() error { return drvCheck(cuEventRecord(uintptr(e), uintptr(s)), "cuEventRecord", "") })
}

// Elapsed waits for end and returns the GPU time between two recorded
// events (resolution about half a microsecond).
func (c *Context) Elapsed(start, end Event) (time.Duration, error) {
	var ms float32
	err := c.Do(func() error {
		if err := drvCheck(cuEventSynchronize(uintptr(end)), "cuEventSynchronize", ""); err != nil {
			return err
		}
		return drvCheck(cuEventElapsedTime(&ms, uintptr(start), uintptr(end)), "cuEventElapsedTime", "")
	})
	return time.Duration(float64(ms) * float64(time.Millisecond)), err
}

// Time runs f, which queues work on s, between two events and returns the
// GPU time it took. Host-side timers would measure only the (asynchronous)
// queueing, not the work.
func (c *Context) Time(s Stream, f func() error) (time.Duration, error) {
	a, err := c.NewEvent()
	if err != nil {
		return 0, err
	}
	defer c.DestroyEvent(a)
	b, err := c.NewEvent()
	if err != nil {
		return 0, err
	}
	defer c.DestroyEvent(b)
	if err := c.Record(a, s); err != nil {
		return 0, err
	}
	if err := f(); err != nil {
		return 0, err
	}
	if err := c.Record(b, s); err != nil {
		return 0, err
	}
	return c.Elapsed(a, b)
}
