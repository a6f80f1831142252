package idx

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// Type is the element type of an IDX file: the third byte of its magic number.
type Type byte

// The element types of the IDX format. Every multi-byte element is stored big-endian.
const (
	Uint8   Type = 0x08 // unsigned byte
	Int8    Type = 0x09 // signed byte
	Int16   Type = 0x0B // short, 2 bytes
	Int32   Type = 0x0C // int, 4 bytes
	Float32 Type = 0x0D // float, 4 bytes (IEEE 754)
	Float64 Type = 0x0E // double, 8 bytes (IEEE 754)
)

// Size returns the bytes of one element, or 0 for a byte that is not an IDX type.
func (t Type) Size() int {
	switch t {
	case Uint8, Int8:
		return 1
	case Int16:
		return 2
	case Int32, Float32:
		return 4
	case Float64:
		return 8
	}
	return 0
}

// Valid reports whether t is one of the six IDX types.
func (t Type) Valid() bool { return t.Size() != 0 }

// String names the type and its code, e.g. "uint8 (0x08)".
func (t Type) String() string {
	names := map[Type]string{Uint8: "uint8", Int8: "int8", Int16: "int16", Int32: "int32", Float32: "float32", Float64: "float64"}
	if n, ok := names[t]; ok {
		return fmt.Sprintf("%s (0x%02X)", n, byte(t))
	}
	return fmt.Sprintf("unknown type 0x%02X", byte(t))
}

// Array is the content of one IDX file: an array of Dims with elements of Type.
type Array struct {
	Type Type
	// Dims are the sizes of the dimensions, outermost first: [60000 28 28] for MNIST's
	// training images.
	Dims []int
	// Raw holds the elements as the file stores them: big-endian, in C order (the last
	// index changes fastest), Len()*Type.Size() bytes.
	Raw []byte
}

// Len returns the number of elements: the product of Dims.
func (a *Array) Len() int {
	n := 1
	for _, d := range a.Dims {
		n *= d
	}
	return n
}

// Uint8s returns the elements of a Uint8 array: Raw itself, not a copy. It returns nil for
// any other type (use Int64s or Float32s, which convert).
func (a *Array) Uint8s() []uint8 {
	if a.Type != Uint8 {
		return nil
	}
	return a.Raw
}

// Float64s returns a copy of the elements converted to float64 (exact for every type).
func (a *Array) Float64s() []float64 {
	out := make([]float64, len(a.Raw)/max(1, a.Type.Size()))
	for i := range out {
		out[i] = a.at(i)
	}
	return out
}

// Float32s returns a copy of the elements converted to float32 (Int32 and Float64 values
// are rounded to the nearest float32).
func (a *Array) Float32s() []float32 {
	out := make([]float32, len(a.Raw)/max(1, a.Type.Size()))
	if a.Type == Uint8 {
		for i, b := range a.Raw {
			out[i] = float32(b)
		}
		return out
	}
	for i := range out {
		out[i] = float32(a.at(i))
	}
	return out
}

// Int64s returns a copy of the elements converted to int64: exact for the integer types;
// floating-point values are truncated toward zero, as Go's conversion does.
func (a *Array) Int64s() []int64 {
	out := make([]int64, len(a.Raw)/max(1, a.Type.Size()))
	for i := range out {
		switch a.Type {
		case Float32, Float64:
			out[i] = int64(a.at(i))
		default:
			out[i] = a.int(i)
		}
	}
	return out
}

// int returns integer element i.
func (a *Array) int(i int) int64 {
	be := binary.BigEndian
	switch a.Type {
	case Uint8:
		return int64(a.Raw[i])
	case Int8:
		return int64(int8(a.Raw[i]))
	case Int16:
		return int64(int16(be.Uint16(a.Raw[2*i:])))
	case Int32:
		return int64(int32(be.Uint32(a.Raw[4*i:])))
	}
	return 0
}

// at returns element i as a float64.
func (a *Array) at(i int) float64 {
	be := binary.BigEndian
	switch a.Type {
	case Float32:
		return float64(math.Float32frombits(be.Uint32(a.Raw[4*i:])))
	case Float64:
		return math.Float64frombits(be.Uint64(a.Raw[8*i:]))
	}
	return float64(a.int(i))
}

// WriteTo writes a as an uncompressed IDX file. It returns an error, and writes nothing,
// when a cannot be written: an unknown Type, no dimension or more than 255, a size above
// 2³²−1, or Raw of another length than Len()*Type.Size().
func (a *Array) WriteTo(w io.Writer) (int64, error) {
	switch {
	case !a.Type.Valid():
		return 0, fmt.Errorf("idx: write: %v: use one of the six IDX types (idx.Uint8 … idx.Float64)", a.Type)
	case len(a.Dims) == 0 || len(a.Dims) > 255:
		return 0, fmt.Errorf("idx: write: %d dimensions: IDX holds 1 to 255 (a scalar is Dims [1])", len(a.Dims))
	}
	for _, d := range a.Dims {
		if d < 0 || uint64(d) > math.MaxUint32 {
			return 0, fmt.Errorf("idx: write: dimension %d in %v: each size must be in [0, 2³²−1]", d, a.Dims)
		}
	}
	if want := a.Len() * a.Type.Size(); len(a.Raw) != want {
		return 0, fmt.Errorf("idx: write: Raw has %d bytes; %v of %v needs %d", len(a.Raw), a.Dims, a.Type, want)
	}
	head := make([]byte, 4+4*len(a.Dims))
	head[2], head[3] = byte(a.Type), byte(len(a.Dims))
	for i, d := range a.Dims {
		binary.BigEndian.PutUint32(head[4+4*i:], uint32(d))
	}
	n, err := w.Write(head)
	if err != nil {
		return int64(n), fmt.Errorf("idx: write: %w", err)
	}
	m, err := w.Write(a.Raw)
	if err != nil {
		err = fmt.Errorf("idx: write: %w", err)
	}
	return int64(n + m), err
}

// DefaultMaxBytes is the largest data size a header may declare unless Options.MaxBytes
// says otherwise: 4 GiB, far above any MNIST-like file and below what would exhaust a
// laptop.
const DefaultMaxBytes = 4 << 30

// Options tune the reader. The zero value is ready to use.
type Options struct {
	// MaxBytes is the largest data size (elements × element size) a header may declare;
	// a larger one is a FormatError. 0 means DefaultMaxBytes.
	MaxBytes int64
}

// ReadFile reads the IDX file at path, gzip-compressed or not, with the default Options.
func ReadFile(path string) (*Array, error) { return Options{}.ReadFile(path) }

// Read decodes one IDX array from r, gzip-compressed or not, with the default Options. name
// identifies r in errors (a file name, a URL).
func Read(r io.Reader, name string) (*Array, error) { return Options{}.Read(r, name) }

// ReadFile reads the IDX file at path, gzip-compressed or not.
func (o Options) ReadFile(path string) (*Array, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("idx: %w", err)
	}
	defer f.Close()
	return o.read(f, path, sizeHint(f))
}

// maxDeflateRatio bounds how many bytes deflate can expand one compressed byte into (its
// longest match, 258 bytes, costs at least one bit or two: about 1032 to 1).
const maxDeflateRatio = 1032

// sizeHint returns the data size f can hold at most, from its size on disk (for a gzip file,
// from the deflate ratio bound), and for a gzip file the size its trailer declares (ISIZE,
// the decompressed size mod 2³²; -1 otherwise): enough to allocate the data at once when the
// header agrees, and never more than the file could hold.
func sizeHint(f *os.File) hint {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return hint{isize: -1}
	}
	var b [4]byte
	if _, err := f.ReadAt(b[:2], 0); err != nil || [2]byte(b[:2]) != gzipMagic {
		return hint{limit: st.Size(), isize: -1}
	}
	if _, err := f.ReadAt(b[:], st.Size()-4); err != nil {
		return hint{isize: -1}
	}
	return hint{limit: st.Size() * maxDeflateRatio, isize: int64(binary.LittleEndian.Uint32(b[:]))}
}

// hint is what the file's size says about its data: at most limit bytes (0: unknown) and,
// for gzip, isize (the decompressed size mod 2³²).
type hint struct{ limit, isize int64 }

// gzipMagic are the first two bytes of every gzip stream (RFC 1952).
var gzipMagic = [2]byte{0x1f, 0x8b}

// Read decodes one IDX array from r; a gzip stream (first bytes 1f 8b) is decompressed
// first. name identifies r in errors. The whole of r must be the array: bytes after the
// data the header declares are an error.
func (o Options) Read(r io.Reader, name string) (*Array, error) {
	return o.read(r, name, hint{isize: -1})
}

func (o Options) read(r io.Reader, name string, h hint) (*Array, error) {
	maxBytes := o.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	br := bufio.NewReaderSize(r, 64<<10)
	d := &decoder{name: name, maxBytes: maxBytes, r: br, hint: h}
	if p, _ := br.Peek(2); len(p) == 2 && [2]byte(p) == gzipMagic {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &FormatError{File: name, Offset: 0, Expected: "a gzip header (the file starts with 1f 8b)",
				Found: fmt.Sprintf("a damaged one (%v)", err), Fix: "the .gz file is damaged or cut short: download it again"}
		}
		d.r, d.gzip = zr, true
	}
	return d.decode()
}

// decoder reads one array, counting the (decompressed) bytes read for error offsets.
type decoder struct {
	name     string
	maxBytes int64
	r        io.Reader
	gzip     bool
	off      int64
	pending  error // the error that ended the last read, not yet returned
	hint     hint
}

// FormatError is a file that is not valid IDX: where, what was expected and found, and the
// fix.
type FormatError struct {
	File string
	// Offset is the byte offset of the problem; in a gzip file it counts the decompressed
	// bytes (Gzip is then true).
	Offset   int64
	Gzip     bool
	Expected string
	Found    string
	Fix      string
}

func (e *FormatError) Error() string {
	where := fmt.Sprintf("byte %d", e.Offset)
	if e.Gzip {
		where += " of the decompressed data"
	}
	return fmt.Sprintf("idx: %s: %s: expected %s, found %s: %s", e.File, where, e.Expected, e.Found, e.Fix)
}

// fixDamaged is the fix for a file whose bytes are wrong.
const fixDamaged = "the file is damaged or not an IDX file: download it again"

func (d *decoder) fail(off int64, expected, found, fix string) error {
	return &FormatError{File: d.name, Offset: off, Gzip: d.gzip, Expected: expected, Found: found, Fix: fix}
}

// read fills p, returning how many bytes came and the error that stopped it early (io.EOF
// when r ended cleanly).
func (d *decoder) read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if d.pending != nil {
			d.off += int64(n)
			return n, d.pending
		}
		m, err := d.r.Read(p[n:])
		n += m
		if err != nil {
			// A reader may return its last bytes with io.EOF or an error (gzip returns
			// the checksum error with them): keep the error for the next read.
			d.pending = err
		}
	}
	d.off += int64(n)
	return n, nil
}

// short turns the error that stopped a read of what (starting at offset start) into a
// FormatError.
func (d *decoder) short(err error, start int64, what string) error {
	switch {
	case err == io.EOF:
		return d.fail(d.off, what, fmt.Sprintf("the end of the data (%d bytes from byte %d)", d.off-start, start),
			"the file is cut short (an interrupted download or copy): download it again")
	case errors.Is(err, io.ErrUnexpectedEOF) && d.gzip:
		return d.fail(d.off, what, "the end of the gzip stream before its trailer",
			"the .gz file is cut short (an interrupted download or copy): download it again")
	case d.gzip && (errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || isCorrupt(err)):
		return d.fail(d.off, what, fmt.Sprintf("damaged gzip data (%v)", err), "the .gz file is damaged: download it again")
	}
	return fmt.Errorf("idx: %s: read at byte %d: %w", d.name, d.off, err)
}

// isCorrupt reports a deflate error inside a gzip stream.
func isCorrupt(err error) bool {
	var c flate.CorruptInputError
	return errors.As(err, &c)
}

func (d *decoder) decode() (*Array, error) {
	var magic [4]byte
	if _, err := d.read(magic[:]); err != nil {
		return nil, d.short(err, 0, "the 4-byte magic number 00 00 <type> <dimensions>")
	}
	if magic[0] != 0 || magic[1] != 0 {
		found := fmt.Sprintf("% x", magic[:])
		fix := fixDamaged
		if magic[0] == '<' {
			found += fmt.Sprintf(" (%q: text, likely an HTML page)", magic[:])
			fix = "this is a web page, not data (a failed or redirected download): download the file again"
		}
		return nil, d.fail(0, "00 00 (the start of an IDX magic number)", found, fix)
	}
	t, ndims := Type(magic[2]), int(magic[3])
	if !t.Valid() {
		return nil, d.fail(2, "a type byte 08, 09, 0b, 0c, 0d or 0e", fmt.Sprintf("%02x", magic[2]), fixDamaged)
	}
	if ndims == 0 {
		return nil, d.fail(3, "the number of dimensions, at least 1", "0", fixDamaged)
	}
	head := make([]byte, 4*ndims)
	if _, err := d.read(head); err != nil {
		return nil, d.short(err, 4, fmt.Sprintf("%d big-endian uint32 sizes (%d bytes) for the %d dimensions", ndims, 4*ndims, ndims))
	}
	a := &Array{Type: t, Dims: make([]int, ndims)}
	limit := uint64(d.maxBytes) / uint64(t.Size()) // elements allowed
	total := uint64(1)
	for i := range a.Dims {
		dim := binary.BigEndian.Uint32(head[4*i:])
		if uint64(dim) > math.MaxInt {
			return nil, d.fail(int64(4+4*i), "a dimension size that fits an int", fmt.Sprint(dim), fixDamaged)
		}
		a.Dims[i] = int(dim)
		if dim != 0 && total > limit/uint64(dim) {
			return nil, d.fail(int64(4+4*i), fmt.Sprintf("sizes whose product × %d bytes is at most %d bytes (Options.MaxBytes)", t.Size(), d.maxBytes),
				fmt.Sprintf("size %d of dimension %d, so the data would pass the limit", dim, i),
				"the header is damaged; if the file really is that large, raise Options.MaxBytes")
		}
		total *= uint64(dim)
	}
	n := int(total) * t.Size()
	start := d.off
	// Grow the buffer with what arrives, never trusting the header's size alone: allocate
	// it at once only when the file's size agrees with the header.
	c := min(n, 1<<20)
	if end := start + int64(n); d.hint.limit >= end && (d.hint.isize < 0 || d.hint.isize == end%(1<<32)) {
		c = n
	}
	a.Raw = make([]byte, 0, c)
	for len(a.Raw) < n {
		if len(a.Raw) == cap(a.Raw) {
			a.Raw = append(make([]byte, 0, min(n, 2*cap(a.Raw))), a.Raw...)
		}
		m, err := d.read(a.Raw[len(a.Raw):cap(a.Raw)])
		a.Raw = a.Raw[:len(a.Raw)+m]
		if err != nil {
			if err == io.EOF && len(a.Raw) < n {
				return nil, d.fail(d.off, fmt.Sprintf("%d data bytes from byte %d (dims %v × %d bytes of %v)", n, start, a.Dims, t.Size(), t),
					fmt.Sprintf("the end of the data after %d of them", len(a.Raw)),
					"the file is cut short (an interrupted download or copy), or its header is damaged: download it again")
			}
			if err != io.EOF {
				return nil, d.short(err, start, fmt.Sprintf("%d data bytes from byte %d", n, start))
			}
		}
	}
	// Reading one byte more ends a gzip stream, which checks its CRC-32.
	var extra [1]byte
	switch m, err := d.read(extra[:]); {
	case m > 0:
		return nil, d.fail(start+int64(n), fmt.Sprintf("the end of the data after %d bytes (dims %v × %d bytes of %v)", n, a.Dims, t.Size(), t),
			"more bytes", "the header's sizes do not match the data (a damaged header, or two files joined): download the file again")
	case err != nil && err != io.EOF:
		return nil, d.short(err, start, "the end of the data")
	}
	return a, nil
}
