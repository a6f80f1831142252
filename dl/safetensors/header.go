package safetensors

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"
)

// MaxHeaderSize is the largest JSON header accepted, in bytes: 100 MB, the
// limit of the reference implementation (it keeps a crafted file from making
// the reader parse or allocate without bound).
const MaxHeaderSize = 100_000_000

// metadataKey is the reserved header key of the free-form string map.
const metadataKey = "__metadata__"

// entry is one tensor's header record.
type entry struct {
	name       string
	dtype      DType
	shape      []int
	begin, end uint64
}

// problem is a format violation found while parsing; the caller adds the
// operation and path to make a *FormatError.
type problem struct{ tensor, reason string }

func fail(tensor, format string, args ...any) *problem {
	return &problem{tensor: tensor, reason: fmt.Sprintf(format, args...)}
}

// checkLength validates the 8-byte little-endian header length n of a file of
// total bytes.
func checkLength(n, total uint64) *problem {
	if n > MaxHeaderSize {
		return fail("", "header length %d exceeds the limit of %d bytes (not a safetensors file?)", n, MaxHeaderSize)
	}
	if n+8 > total {
		return fail("", "header length %d exceeds the %d bytes after the length field (truncated file?)", n, total-8)
	}
	return nil
}

// parseHeader decodes the JSON header and validates every tensor record
// against a data section of dataLen bytes. The entries come back sorted by
// their offsets.
func parseHeader(hdr []byte, dataLen uint64) ([]entry, map[string]string, *problem) {
	if !utf8.Valid(hdr) {
		return nil, nil, fail("", "header is not valid UTF-8")
	}
	sc := &scanner{b: hdr}
	var entries []entry
	var meta map[string]string
	seen := make(map[string]struct{})
	w := where{obj: "header"}
	err := sc.open('{', w, "an object")
	for first := true; err == nil; first = false {
		var key []byte
		var more bool
		if key, more, err = sc.member(w, first); err != nil || !more {
			break
		}
		name := string(key)
		n := len(seen)
		seen[name] = struct{}{}
		if len(seen) == n { // one hash per name: a duplicate does not grow the map
			err = fail("", "duplicate key %q in header", key)
			break
		}
		if name == metadataKey {
			meta, err = sc.stringMap()
			continue
		}
		var e entry
		e, err = sc.tensor(name)
		if len(entries) == cap(entries) { // double: append grows large slices by 1.25x, allocating 5x in all
			entries = slices.Grow(entries, len(entries)+1)
		}
		entries = append(entries, e)
	}
	if err == nil && sc.peek() != 0 {
		err = errors.New("header has data after its closing brace")
	}
	if err != nil {
		var pe *problem
		if errors.As(err, &pe) {
			return nil, nil, pe
		}
		return nil, nil, fail("", "header is not a valid JSON object: %v", err)
	}
	if pr := checkLayout(entries, dataLen); pr != nil {
		return nil, nil, pr
	}
	return entries, meta, nil
}

// checkLayout sorts entries by offset and checks they tile the data section
// exactly: the first starts at 0, each starts where the previous ends, each
// holds numel × dtype size bytes, and the last ends at dataLen.
func checkLayout(entries []entry, dataLen uint64) *problem {
	slices.SortFunc(entries, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.begin, b.begin), cmp.Compare(a.end, b.end))
	})
	var pos uint64
	for _, e := range entries {
		if e.begin != pos {
			return fail(e.name, "data_offsets [%d, %d] start at %d but the previous tensor ends at %d (tensors must be contiguous, without gaps or overlaps)", e.begin, e.end, e.begin, pos)
		}
		need, _ := byteSize(e.dtype, e.shape) // shape already checked for overflow
		if e.end-e.begin != need {
			return fail(e.name, "data_offsets [%d, %d] hold %d bytes but dtype %s × shape %v needs %d", e.begin, e.end, e.end-e.begin, e.dtype, e.shape, need)
		}
		pos = e.end
	}
	if pos != dataLen {
		return fail("", "tensors end at data byte %d but the data section has %d bytes (truncated file or trailing bytes)", pos, dataLen)
	}
	return nil
}

// Error makes *problem usable as an error inside the parser callbacks.
func (pr *problem) Error() string { return pr.reason }
