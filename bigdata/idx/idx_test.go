package idx

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// file returns an IDX file: the magic 00 00 t len(dims), the sizes, then data.
func file(t Type, dims []uint32, data ...byte) []byte {
	b := []byte{0, 0, byte(t), byte(len(dims))}
	for _, d := range dims {
		b = append(b, byte(d>>24), byte(d>>16), byte(d>>8), byte(d))
	}
	return append(b, data...)
}

func gz(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestReadTypes(t *testing.T) {
	cases := []struct {
		name  string
		file  []byte
		dims  []int
		f64   []float64
		i64   []int64
		uint8 bool
	}{
		{"uint8 matrix", file(Uint8, []uint32{2, 3}, 0, 1, 2, 253, 254, 255), []int{2, 3},
			[]float64{0, 1, 2, 253, 254, 255}, []int64{0, 1, 2, 253, 254, 255}, true},
		{"int8", file(Int8, []uint32{3}, 0x7f, 0x80, 0xff), []int{3}, []float64{127, -128, -1}, []int64{127, -128, -1}, false},
		{"int16 big-endian", file(Int16, []uint32{2}, 0x01, 0x02, 0xff, 0xfe), []int{2}, []float64{258, -2}, []int64{258, -2}, false},
		{"int32 big-endian", file(Int32, []uint32{2}, 0x00, 0x01, 0x00, 0x00, 0x80, 0, 0, 0), []int{2},
			[]float64{65536, math.MinInt32}, []int64{65536, math.MinInt32}, false},
		{"float32", file(Float32, []uint32{2}, 0x3f, 0xc0, 0, 0, 0xc0, 0x20, 0, 0), []int{2}, []float64{1.5, -2.5}, []int64{1, -2}, false},
		{"float64", file(Float64, []uint32{1, 1}, 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18), []int{1, 1},
			[]float64{math.Pi}, []int64{3}, false},
		{"empty dimension", file(Uint8, []uint32{0, 28, 28}), []int{0, 28, 28}, []float64{}, []int64{}, true},
	}
	for _, c := range cases {
		for _, compress := range []bool{false, true} {
			name, in := c.name, c.file
			if compress {
				name, in = name+" (gzip)", gz(t, in)
			}
			t.Run(name, func(t *testing.T) {
				a, err := Read(bytes.NewReader(in), name)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(a.Dims, c.dims) || a.Len() != len(c.f64) {
					t.Fatalf("Dims %v, Len %d; want %v, %d", a.Dims, a.Len(), c.dims, len(c.f64))
				}
				if got := a.Float64s(); !slices.Equal(got, c.f64) {
					t.Errorf("Float64s() = %v; want %v", got, c.f64)
				}
				f32 := make([]float32, len(c.f64))
				for i, v := range c.f64 {
					f32[i] = float32(v)
				}
				if got := a.Float32s(); !slices.Equal(got, f32) {
					t.Errorf("Float32s() = %v; want %v", got, f32)
				}
				if got := a.Int64s(); !slices.Equal(got, c.i64) {
					t.Errorf("Int64s() = %v; want %v", got, c.i64)
				}
				if got := a.Uint8s(); (got != nil) != c.uint8 && len(c.f64) > 0 {
					t.Errorf("Uint8s() = %v for %v", got, a.Type)
				}
				var out bytes.Buffer
				if _, err := a.WriteTo(&out); err != nil || !bytes.Equal(out.Bytes(), c.file) {
					t.Errorf("WriteTo = % x, %v; want the original % x", out.Bytes(), err, c.file)
				}
			})
		}
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	want := file(Uint8, []uint32{4}, 5, 0, 4, 1)
	for name, b := range map[string][]byte{"labels-idx1-ubyte": want, "labels-idx1-ubyte.gz": gz(t, want)} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		a, err := ReadFile(p)
		if err != nil || !slices.Equal(a.Uint8s(), []uint8{5, 0, 4, 1}) {
			t.Errorf("ReadFile(%s) = %v, %v", name, a, err)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile of a missing file: %v; want an error wrapping os.ErrNotExist", err)
	}
}

func TestBadFiles(t *testing.T) {
	good := file(Uint8, []uint32{3}, 1, 2, 3)
	goodGz := gz(t, good)
	badCRC := bytes.Clone(goodGz)
	badCRC[len(badCRC)-8] ^= 0xff // the CRC-32 in the gzip trailer
	cases := []struct {
		name   string
		opts   Options
		in     []byte
		offset int64
		gzip   bool
		want   []string // substrings of the message
	}{
		{"empty", Options{}, nil, 0, false, []string{"magic number", "the end of the data", "cut short"}},
		{"html page", Options{}, []byte("<!DOCTYPE html><html>"), 0, false, []string{"expected 00 00", "HTML", "download the file again"}},
		{"wrong magic", Options{}, []byte{0, 1, 8, 1, 0, 0, 0, 0}, 0, false, []string{"expected 00 00", "found 00 01 08 01", "not an IDX file"}},
		{"unknown type", Options{}, file(0x0A, []uint32{1}, 0), 2, false, []string{"type byte 08, 09, 0b, 0c, 0d or 0e", "found 0a"}},
		{"no dimensions", Options{}, []byte{0, 0, 8, 0}, 3, false, []string{"at least 1", "found 0"}},
		{"truncated sizes", Options{}, file(Uint8, []uint32{3, 28, 28})[:10], 10, false, []string{"3 big-endian uint32 sizes", "6 bytes from byte 4", "cut short"}},
		{"truncated data", Options{}, file(Uint8, []uint32{10}, 1, 2, 3, 4, 5), 13, false, []string{"10 data bytes from byte 8", "after 5 of them", "cut short"}},
		{"trailing data", Options{}, file(Uint8, []uint32{3}, 1, 2, 3, 4), 11, false, []string{"end of the data after 3 bytes", "found more bytes", "do not match"}},
		{"size overflow", Options{}, file(Uint8, []uint32{math.MaxUint32, math.MaxUint32, math.MaxUint32}), 8, false,
			[]string{"at most 4294967296 bytes", "dimension 1", "raise Options.MaxBytes"}},
		{"int64 overflow", Options{MaxBytes: math.MaxInt64}, file(Uint8, []uint32{math.MaxUint32, math.MaxInt32, 3}), 12, false,
			[]string{"dimension 2", "header is damaged"}},
		{"above MaxBytes", Options{MaxBytes: 100}, file(Int32, []uint32{26}), 4, false, []string{"× 4 bytes is at most 100 bytes", "size 26 of dimension 0"}},
		{"gzip header damaged", Options{}, []byte{0x1f, 0x8b, 0xff, 0, 0}, 0, false, []string{"gzip header", "damaged"}},
		{"gzip cut short", Options{}, goodGz[:len(goodGz)-6], 11, true, []string{"of the decompressed data", "gzip stream before its trailer", ".gz file is cut short"}},
		{"gzip checksum", Options{}, badCRC, 11, true, []string{"the end of the data", "damaged gzip data", "checksum"}},
		{"gzip of a truncated file", Options{}, gz(t, good[:9]), 9, true, []string{"byte 9 of the decompressed data", "after 1 of them"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := c.opts.Read(bytes.NewReader(c.in), "crafted-"+strings.ReplaceAll(c.name, " ", "-"))
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("Read = %v, %v; want a *FormatError", a, err)
			}
			msg := err.Error()
			t.Log(msg)
			if fe.Offset != c.offset || fe.Gzip != c.gzip {
				t.Errorf("offset %d (gzip %v); want %d (gzip %v)", fe.Offset, fe.Gzip, c.offset, c.gzip)
			}
			for _, w := range append([]string{"crafted-" + strings.ReplaceAll(c.name, " ", "-"), "expected"}, c.want...) {
				if !strings.Contains(msg, w) {
					t.Errorf("message lacks %q", w)
				}
			}
		})
	}
}

// TestHugeHeaderDoesNotAllocate checks that memory follows the bytes that arrive, not the
// size a header declares.
func TestHugeHeaderDoesNotAllocate(t *testing.T) {
	in := file(Uint8, []uint32{1 << 31}, 1, 2, 3)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Read(bytes.NewReader(in), "huge")
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("a 2 GiB header with 3 data bytes was accepted")
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Errorf("allocated %d bytes for a file of %d bytes", got, len(in))
	}
}

// TestReadFileAllocatesOnce checks that ReadFile allocates the data once when the file's
// size agrees with the header, and only then.
func TestReadFileAllocatesOnce(t *testing.T) {
	dir := t.TempDir()
	raw := make([]byte, 3<<20)
	for i := range raw {
		raw[i] = byte(i * 7)
	}
	plain := file(Uint8, []uint32{3, 1 << 20}, raw...)
	for name, b := range map[string][]byte{"plain": plain, "gzip": gz(t, plain)} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		a, err := ReadFile(p)
		runtime.ReadMemStats(&after)
		if err != nil || !bytes.Equal(a.Raw, raw) {
			t.Fatalf("ReadFile(%s): %v", name, err)
		}
		// Growing 1, 2, 3 MiB would allocate 6 MiB.
		if got := after.TotalAlloc - before.TotalAlloc; got > uint64(len(raw))+512<<10 {
			t.Errorf("%s: allocated %d bytes for %d bytes of data; want one allocation of the data", name, got, len(raw))
		}
	}
	// A small gzip file whose header and trailer both claim 2 GiB: the file is too small to
	// hold that, so nothing is allocated up front.
	huge := gz(t, file(Uint8, []uint32{1 << 31}, 1, 2, 3))
	binary.LittleEndian.PutUint32(huge[len(huge)-4:], uint32((8+1<<31)%(1<<32)))
	p := filepath.Join(dir, "huge.gz")
	if err := os.WriteFile(p, huge, 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadFile(p)
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("a 2 GiB header with 3 data bytes was accepted")
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Errorf("allocated %d bytes for a file of %d bytes", got, len(huge))
	}
}

func TestWriteToRejects(t *testing.T) {
	for _, a := range []*Array{
		{Type: 0x0A, Dims: []int{1}, Raw: []byte{0}},
		{Type: Uint8, Raw: []byte{}},
		{Type: Uint8, Dims: []int{-1}},
		{Type: Uint8, Dims: []int{1 << 33}},
		{Type: Int16, Dims: []int{2}, Raw: []byte{1, 2}},
	} {
		var out bytes.Buffer
		if _, err := a.WriteTo(&out); err == nil || out.Len() != 0 {
			t.Errorf("WriteTo(%v %v, %d bytes) = %v, wrote %d bytes; want an error and nothing written", a.Type, a.Dims, len(a.Raw), err, out.Len())
		}
	}
}

func TestTypeString(t *testing.T) {
	if got := Uint8.String(); got != "uint8 (0x08)" {
		t.Errorf("Uint8.String() = %q", got)
	}
	if got := Type(0x0A).String(); got != "unknown type 0x0A" {
		t.Errorf("Type(0x0A).String() = %q", got)
	}
}

// FuzzRead checks that no input panics or allocates past MaxBytes, that an accepted array
// is consistent, and that an accepted uncompressed file is written back byte for byte.
func FuzzRead(f *testing.F) {
	f.Add(file(Uint8, []uint32{2, 2}, 1, 2, 3, 4))
	f.Add(file(Float64, []uint32{1}, 0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18))
	f.Add(file(Int16, []uint32{1, 0, 3}))
	f.Add(file(0x0A, []uint32{1}, 0))
	f.Add(file(Uint8, []uint32{math.MaxUint32, 2}))
	f.Add([]byte{0x1f, 0x8b})
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(file(Int32, []uint32{1}, 0, 0, 1, 0))
	w.Close()
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, in []byte) {
		a, err := Options{MaxBytes: 1 << 20}.Read(bytes.NewReader(in), "fuzz")
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if len(a.Raw) != a.Len()*a.Type.Size() || len(a.Float64s()) != a.Len() || len(a.Int64s()) != a.Len() {
			t.Fatalf("Raw %d bytes for %v of %v", len(a.Raw), a.Dims, a.Type)
		}
		if len(in) >= 2 && in[0] == 0x1f && in[1] == 0x8b {
			return
		}
		var out bytes.Buffer
		if _, err := a.WriteTo(&out); err != nil || !bytes.Equal(out.Bytes(), in) {
			t.Fatalf("WriteTo = % x, %v; want the input % x", out.Bytes(), err, in)
		}
	})
}
