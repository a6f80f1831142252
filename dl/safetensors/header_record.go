package safetensors

import "errors"

// The header's two kinds of values, read with the scanner of
// header_scan.go: the metadata map and the tensor records.

// stringMap reads the "__metadata__" value: an object of strings, or null.
func (s *scanner) stringMap() (map[string]string, error) {
	if s.peek() == 'n' && string(s.b[s.i:min(s.i+4, len(s.b))]) == "null" {
		s.i += 4
		return nil, nil
	}
	w := where{obj: metadataKey}
	if err := s.open('{', w, "an object"); err != nil {
		return nil, err
	}
	m := make(map[string]string)
	for first := true; ; first = false {
		key, more, err := s.member(w, first)
		if err != nil || !more {
			return m, err
		}
		k := string(key)
		v, err := s.str(where{obj: metadataKey, key: k})
		if err != nil {
			return nil, err
		}
		n := len(m)
		m[k] = v
		if len(m) == n { // one hash per key: a duplicate does not grow the map
			return nil, fail("", "duplicate key %q in %s", key, metadataKey)
		}
	}
}

// tensor reads one tensor record {"dtype", "shape", "data_offsets"}.
func (s *scanner) tensor(name string) (entry, error) {
	e, err := s.record(name)
	if err != nil {
		var pr *problem
		if !errors.As(err, &pr) {
			err = fail(name, "invalid record (want {\"dtype\": ..., \"shape\": [...], \"data_offsets\": [begin, end]}): %v", err)
		}
		return e, err
	}
	if !e.dtype.Valid() {
		return e, fail(name, "unknown dtype %q (want one of %v)", e.dtype, dtypeOrder)
	}
	if _, ok := byteSize(e.dtype, e.shape); !ok {
		return e, fail(name, "dtype %s × shape %v overflows", e.dtype, e.shape)
	}
	if e.end < e.begin {
		return e, fail(name, "data_offsets [%d, %d] end before they begin", e.begin, e.end)
	}
	return e, nil
}

// record reads the fields of a tensor record.
func (s *scanner) record(name string) (entry, error) {
	e := entry{name: name}
	w := where{obj: "tensor", key: name}
	if err := s.open('{', w, "an object"); err != nil {
		return e, err
	}
	fields := [...]string{"dtype", "shape", "data_offsets"}
	var has [3]bool
	for first := true; ; first = false {
		key, more, err := s.member(w, first)
		if err != nil {
			return e, err
		}
		if !more {
			break
		}
		f := indexOf(fields[:], key)
		if f < 0 {
			return e, fail(name, "unknown field %q (want dtype, shape, data_offsets)", key)
		}
		if has[f] {
			return e, fail("", "duplicate key %q in %v", key, w)
		}
		has[f] = true
		switch f {
		case 0:
			d, err := s.strBytes(where{obj: "dtype"})
			if err != nil {
				return e, err
			}
			e.dtype = dtypeOf(d)
		case 1:
			if e.shape, _, err = s.uints(where{obj: "shape"}, nil); err != nil {
				return e, err
			}
		case 2:
			var buf [2]int
			offs, n, err := s.uints(where{obj: "data_offsets"}, buf[:])
			if err != nil {
				return e, err
			}
			if n != 2 {
				return e, fail(name, "data_offsets has %d numbers; want [begin, end]", n)
			}
			e.begin, e.end = uint64(offs[0]), uint64(offs[1])
		}
	}
	for i, field := range fields {
		if !has[i] {
			return e, fail(name, "missing field %q", field)
		}
	}
	return e, nil
}

// indexOf returns the index of key in names, or -1 (no allocation).
func indexOf(names []string, key []byte) int {
	for i, n := range names {
		if n == string(key) {
			return i
		}
	}
	return -1
}

// dtypeOf returns the DType spelled by b, without allocating for the
// dtypes the format defines.
func dtypeOf(b []byte) DType {
	for _, d := range dtypeOrder {
		if string(d) == string(b) {
			return d
		}
	}
	return DType(b)
}
