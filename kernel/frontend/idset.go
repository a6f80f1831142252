package frontend

import "sync"

// maxIDs bounds an idSet: ids of requests that never get a reply (GoNB
// ignores some message types) must not accumulate for the life of a kernel.
const maxIDs = 256

// idSet is a set of strings that forgets its oldest members beyond maxIDs.
// The zero value is empty and ready; it is safe for concurrent use.
type idSet struct {
	mu    sync.Mutex
	set   map[string]bool
	order []string // oldest first
}

// add inserts id and reports whether it was new.
func (s *idSet) add(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.set[id] {
		return false
	}
	if s.set == nil {
		s.set = map[string]bool{}
	}
	if len(s.order) == maxIDs {
		delete(s.set, s.order[0])
		s.order = s.order[1:]
	}
	s.set[id] = true
	s.order = append(s.order, id)
	return true
}

// take removes id and reports whether it was there.
func (s *idSet) take(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.set[id] {
		return false
	}
	delete(s.set, id)
	for i, o := range s.order {
		if o == id {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
	return true
}
