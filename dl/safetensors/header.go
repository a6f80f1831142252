package safetensors

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
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
	p := &parser{dec: json.NewDecoder(bytes.NewReader(hdr))}
	p.dec.UseNumber()
	var entries []entry
	var meta map[string]string
	err := p.object("header", func(key string) error {
		if key == metadataKey {
			m, err := p.stringMap()
			meta = m
			return err
		}
		e, err := p.tensor(key)
		entries = append(entries, e)
		return err
	})
	if err == nil {
		if _, terr := p.dec.Token(); terr != io.EOF {
			err = errors.New("header has data after its closing brace")
		}
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

// parser walks the header's JSON tokens so that duplicate keys, unknown
// fields and non-integer numbers are errors (encoding/json's Unmarshal would
// silently keep the last duplicate).
type parser struct{ dec *json.Decoder }

func (p *parser) token() (json.Token, error) {
	tok, err := p.dec.Token()
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return tok, err
}

// object reads a JSON object and calls f with each key, positioned on its
// value.
func (p *parser) object(what string, f func(key string) error) error {
	tok, err := p.token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("%s: want an object, found %v", what, tok)
	}
	seen := make(map[string]bool)
	for p.dec.More() {
		tok, err := p.token()
		if err != nil {
			return err
		}
		key := tok.(string) // json.Decoder guarantees object keys are strings
		if seen[key] {
			return fail("", "duplicate key %q in %s", key, what)
		}
		seen[key] = true
		if err := f(key); err != nil {
			return err
		}
	}
	_, err = p.token() // the closing '}'
	return err
}

func (p *parser) str(what string) (string, error) {
	tok, err := p.token()
	if err != nil {
		return "", err
	}
	s, ok := tok.(string)
	if !ok {
		return "", fmt.Errorf("%s: want a string, found %v", what, tok)
	}
	return s, nil
}

// stringMap reads the "__metadata__" value: an object of strings, or null.
func (p *parser) stringMap() (map[string]string, error) {
	if !p.dec.More() {
		return nil, io.ErrUnexpectedEOF
	}
	raw := json.RawMessage{}
	if err := p.dec.Decode(&raw); err != nil {
		return nil, err
	}
	if string(raw) == "null" {
		return nil, nil
	}
	sub := &parser{dec: json.NewDecoder(bytes.NewReader(raw))}
	m := make(map[string]string)
	err := sub.object(metadataKey, func(key string) error {
		v, err := sub.str(metadataKey + "." + key)
		m[key] = v
		return err
	})
	return m, err
}

// uints reads an array of non-negative integers that fit in an int.
func (p *parser) uints(what string) ([]uint64, error) {
	tok, err := p.token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, fmt.Errorf("%s: want an array, found %v", what, tok)
	}
	v := []uint64{}
	for p.dec.More() {
		tok, err := p.token()
		if err != nil {
			return nil, err
		}
		num, ok := tok.(json.Number)
		if !ok {
			return nil, fmt.Errorf("%s: want an integer, found %v", what, tok)
		}
		u, err := strconv.ParseUint(string(num), 10, 64)
		if err != nil || u > math.MaxInt {
			return nil, fmt.Errorf("%s: %s is not a non-negative integer that fits in an int", what, num)
		}
		v = append(v, u)
	}
	_, err = p.token() // the closing ']'
	return v, err
}

// tensor reads one tensor record {"dtype", "shape", "data_offsets"}.
func (p *parser) tensor(name string) (entry, error) {
	e := entry{name: name}
	var has [3]bool
	err := p.object(fmt.Sprintf("tensor %q", name), func(key string) error {
		var err error
		switch key {
		case "dtype":
			var s string
			s, err = p.str("dtype")
			e.dtype, has[0] = DType(s), true
		case "shape":
			var dims []uint64
			dims, err = p.uints("shape")
			for _, d := range dims {
				e.shape = append(e.shape, int(d))
			}
			if e.shape == nil {
				e.shape = []int{}
			}
			has[1] = true
		case "data_offsets":
			var offs []uint64
			offs, err = p.uints("data_offsets")
			if err == nil && len(offs) != 2 {
				return fail(name, "data_offsets has %d numbers; want [begin, end]", len(offs))
			}
			if err == nil {
				e.begin, e.end, has[2] = offs[0], offs[1], true
			}
		default:
			return fail(name, "unknown field %q (want dtype, shape, data_offsets)", key)
		}
		return err
	})
	if err != nil {
		var pr *problem
		if !errors.As(err, &pr) {
			err = fail(name, "invalid record (want {\"dtype\": ..., \"shape\": [...], \"data_offsets\": [begin, end]}): %v", err)
		}
		return e, err
	}
	for i, field := range []string{"dtype", "shape", "data_offsets"} {
		if !has[i] {
			return e, fail(name, "missing field %q", field)
		}
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

// Error makes *problem usable as an error inside the parser callbacks.
func (pr *problem) Error() string { return pr.reason }
