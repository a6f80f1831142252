package stateful

import (
	"bytes"
	"io"
	"strconv"
	"unicode/utf8"
)

// maxChunk bounds the text of one stream message.
const maxChunk = 64 << 10

// streamReader reads one of the host's output streams, hands text to
// write, and reports the end markers the host writes after each cell
// (marker + request id + "\n") on ended, in order. A marker split across
// reads is found all the same; bytes of a UTF-8 character split across
// reads are held back until the rest arrives.
type streamReader struct {
	r      io.Reader
	marker []byte
	write  func(text string)
	ended  func(id int)
}

// run reads until r fails (the host exited); it then flushes what it holds.
func (s *streamReader) run() {
	buf := make([]byte, maxChunk)
	var pending []byte
	for {
		n, err := s.r.Read(buf)
		pending = append(pending, buf[:n]...)
		pending = s.scan(pending, err != nil)
		if err != nil {
			if len(pending) > 0 {
				s.write(string(pending))
			}
			return
		}
	}
}

// scan hands out what is certain in p (text before a marker, the marker's
// id) and returns what must wait for more bytes.
func (s *streamReader) scan(p []byte, final bool) []byte {
	for {
		i := bytes.Index(p, s.marker)
		if i < 0 {
			break
		}
		nl := bytes.IndexByte(p[i+len(s.marker):], '\n')
		if nl < 0 {
			if i > 0 {
				s.write(string(p[:i]))
			}
			return p[i:] // the id is still coming
		}
		if i > 0 {
			s.write(string(p[:i]))
		}
		id, err := strconv.Atoi(string(p[i+len(s.marker) : i+len(s.marker)+nl]))
		if err == nil {
			s.ended(id)
		}
		p = p[i+len(s.marker)+nl+1:]
	}
	if final {
		return p
	}
	// Keep a tail that could be the start of a marker, and an incomplete
	// UTF-8 character.
	keep := 0
	for k := min(len(s.marker)-1, len(p)); k > 0; k-- {
		if bytes.HasPrefix(s.marker, p[len(p)-k:]) {
			keep = k
			break
		}
	}
	cut := len(p) - keep
	for j := cut - 1; j >= 0 && j >= cut-utf8.UTFMax; j-- {
		if utf8.RuneStart(p[j]) {
			if !utf8.FullRune(p[j:cut]) {
				cut = j
			}
			break
		}
	}
	if cut > 0 {
		s.write(string(p[:cut]))
	}
	return append([]byte(nil), p[cut:]...)
}
