package safetensors

import (
	"errors"
	"fmt"
	"math"
	"unicode/utf16"
	"unicode/utf8"
)

// scanner reads the header's JSON in one pass over its bytes, in the
// restricted shape a header has (an object of tensor records and an
// optional object of strings), so that duplicate keys, unknown fields and
// non-integer numbers are errors (encoding/json's Unmarshal would silently
// keep the last duplicate).
//
// It replaced a json.Decoder token loop that took 27 s and 2.4 GB to parse
// a crafted 100 MB header (an interface value per token, a map per
// record).  This one allocates only what it returns (names, shapes,
// metadata strings, the entries) and the map that finds duplicate names:
// a small multiple of the header's size.  Keys and dtypes are compared as
// views of the header's bytes, and messages are built only on error.
type scanner struct {
	b []byte
	i int
}

// where names the object or value being read, for messages: "header",
// `tensor "w"`, "__metadata__.k", "shape".  It is a value, so naming
// millions of records costs nothing until a message is needed.
type where struct{ obj, key string }

func (w where) String() string {
	switch {
	case w.obj == "tensor":
		return fmt.Sprintf("tensor %q", w.key)
	case w.key != "":
		return w.obj + "." + w.key
	}
	return w.obj
}

// errEnd is the error for a header that ends inside a value.
var errEnd = errors.New("unexpected end of header")

// peek skips JSON whitespace and returns the next byte (0 at the end).
func (s *scanner) peek() byte {
	for s.i < len(s.b) {
		switch c := s.b[s.i]; c {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return c
		}
	}
	return 0
}

// unexpected reports what was found where want was expected.
func (s *scanner) unexpected(w where, want string) error {
	if s.peek() == 0 {
		return errEnd
	}
	return fmt.Errorf("%v: want %s, found %q", w, want, s.b[s.i:min(s.i+16, len(s.b))])
}

// open consumes the delimiter c ('{' or '[').
func (s *scanner) open(c byte, w where, want string) error {
	if s.peek() != c {
		return s.unexpected(w, want)
	}
	s.i++
	return nil
}

// member advances to the next key of an object whose '{' was consumed and
// returns it (a view of the header's bytes, or a decoded copy) positioned
// on its value, or more = false after the closing '}'.  first is true for
// the first call.
func (s *scanner) member(w where, first bool) (key []byte, more bool, err error) {
	c := s.peek()
	switch {
	case c == '}' && first:
		s.i++
		return nil, false, nil
	case !first && c == '}':
		s.i++
		return nil, false, nil
	case !first && c == ',':
		s.i++
	case !first:
		return nil, false, s.unexpected(w, "',' or '}'")
	}
	if s.peek() != '"' {
		return nil, false, s.unexpected(w, "a string key")
	}
	if key, err = s.strBytes(w); err != nil {
		return nil, false, err
	}
	if s.peek() != ':' {
		return nil, false, s.unexpected(w, "':' after a key")
	}
	s.i++
	return key, true, nil
}

// str reads a JSON string.
func (s *scanner) str(w where) (string, error) {
	b, err := s.strBytes(w)
	return string(b), err
}

// strBytes reads a JSON string, returning a view of the header's bytes
// when it has no escapes and a decoded copy otherwise (escapes decoded as
// encoding/json does: an invalid surrogate becomes U+FFFD).
func (s *scanner) strBytes(w where) ([]byte, error) {
	if s.peek() != '"' {
		return nil, s.unexpected(w, "a string")
	}
	s.i++
	start := s.i
	for s.i < len(s.b) { // fast path: no escapes
		c := s.b[s.i]
		if c == '"' {
			s.i++
			return s.b[start : s.i-1], nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		s.i++
	}
	out := append([]byte(nil), s.b[start:s.i]...)
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			return out, nil
		case c < 0x20:
			return nil, fmt.Errorf("%v: control character %#x in a string", w, c)
		case c != '\\':
			out = append(out, c)
			s.i++
			continue
		}
		if s.i+1 >= len(s.b) {
			return nil, errEnd
		}
		e := s.b[s.i+1]
		s.i += 2
		if i := indexByte(`"\/bfnrt`, e); i >= 0 {
			out = append(out, "\"\\/\b\f\n\r\t"[i])
			continue
		}
		if e != 'u' {
			return nil, fmt.Errorf("%v: invalid escape \\%c in a string", w, e)
		}
		r, err := s.hex4(w)
		if err != nil {
			return nil, err
		}
		if utf16.IsSurrogate(r) {
			r2 := rune(-1)
			if s.i+1 < len(s.b) && s.b[s.i] == '\\' && s.b[s.i+1] == 'u' {
				save := s.i
				s.i += 2
				if r2, err = s.hex4(w); err != nil {
					return nil, err
				}
				if utf16.DecodeRune(r, r2) == utf8.RuneError {
					s.i, r2 = save, -1 // not a pair: the second escape stands alone
				}
			}
			r = utf16.DecodeRune(r, r2) // U+FFFD for a lone surrogate
		}
		out = utf8.AppendRune(out, r)
	}
	return nil, errEnd
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// hex4 reads the four hex digits of a \u escape.
func (s *scanner) hex4(w where) (rune, error) {
	if s.i+4 > len(s.b) {
		return 0, errEnd
	}
	var r rune
	for _, c := range s.b[s.i : s.i+4] {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, fmt.Errorf("%v: invalid \\u escape %q", w, s.b[s.i:s.i+4])
		}
		r = r<<4 | rune(d)
	}
	s.i += 4
	return r, nil
}

// uints reads an array of non-negative integers that fit in an int, into
// dst if it is large enough.  With dst nil it counts the elements first,
// so the slice is allocated once at its final size (a crafted shape of 50
// million dimensions takes 400 MB, not the 2 GB of repeated doubling).
// It returns the values and their count (which may exceed len(dst)).
func (s *scanner) uints(w where, dst []int) ([]int, int, error) {
	if err := s.open('[', w, "an array"); err != nil {
		return nil, 0, err
	}
	if dst == nil {
		n := 1
		for j := s.i; j < len(s.b) && s.b[j] != ']'; j++ {
			if s.b[j] == ',' {
				n++
			}
		}
		dst = make([]int, 0, n)
	}
	out, n := dst[:0], 0
	if s.peek() == ']' {
		s.i++
		return out, 0, nil
	}
	for {
		v, err := s.uint(w)
		if err != nil {
			return nil, 0, err
		}
		if n < cap(out) {
			out = append(out, v)
		}
		n++
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return out, n, nil
		default:
			return nil, 0, s.unexpected(w, "',' or ']'")
		}
	}
}

// uint reads one JSON number that must be a non-negative integer.
func (s *scanner) uint(w where) (int, error) {
	s.peek()
	start := s.i
	for s.i < len(s.b) && indexByte("+-0123456789.eE", s.b[s.i]) >= 0 {
		s.i++
	}
	tok := s.b[start:s.i]
	if len(tok) == 0 {
		return 0, s.unexpected(w, "an integer")
	}
	if len(tok) > 1 && tok[0] == '0' {
		return 0, fmt.Errorf("%v: %s is not a valid JSON number (leading zero)", w, tok)
	}
	v := 0
	for _, c := range tok {
		d := int(c - '0')
		if d < 0 || d > 9 || v > (math.MaxInt-d)/10 {
			return 0, fmt.Errorf("%v: %s is not a non-negative integer that fits in an int", w, tok)
		}
		v = v*10 + d
	}
	return v, nil
}
