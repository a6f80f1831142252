package stateful

import "os"

// Close ends the session, whatever it is doing: a running cell stops at
// once (its build, shell command or host is killed, without the interrupt's
// grace period) and its Execute returns a result saying that the kernel is
// shutting down. Close returns once that Execute has returned, the host is
// gone and the session's directory is removed. Execute called after Close
// runs nothing. Later calls return the first call's result.
func (s *Session) Close() error {
	s.closeOnce.Do(func() {
		s.life.Lock()
		s.life.closed = true
		r := s.life.running
		s.life.Unlock()
		s.stopPrepare()
		if r != nil {
			r.stop()
		}
		<-s.ready
		s.mu.Lock() // a cell's build, stopped above, releases it
		h := s.h
		s.h = nil
		s.mu.Unlock()
		if h != nil {
			h.stop(closeGrace) // killed already if a cell was running
		}
		s.life.cells.Wait()
		s.closeErr = os.RemoveAll(s.dir)
	})
	return s.closeErr
}

// begin registers r as the running cell; it reports false once the
// session is closed.
func (s *Session) begin(r *running) bool {
	s.life.Lock()
	defer s.life.Unlock()
	if s.life.closed {
		return false
	}
	s.life.running = r
	s.life.cells.Add(1)
	return true
}

// end unregisters the running cell.
func (s *Session) end() {
	s.life.Lock()
	s.life.running = nil
	s.life.Unlock()
	s.life.cells.Done()
}

// closing reports whether Close has been called.
func (s *Session) closing() bool {
	s.life.Lock()
	defer s.life.Unlock()
	return s.life.closed
}

// current returns the running cell, or nil.
func (s *Session) current() *running {
	s.life.Lock()
	defer s.life.Unlock()
	return s.life.running
}
