package safetensors

import (
	"bytes"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// craftHeader returns a valid header of about size bytes of one kind:
// many empty tensors, many metadata keys, one shape of many dimensions, or
// one long name; the shapes a crafted file would use to make a reader
// slow or hungry.
func craftHeader(kind string, size int) []byte {
	var b bytes.Buffer
	b.WriteString("{")
	switch kind {
	case "tensors":
		for i := 0; b.Len() < size-100; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`"t` + strconv.Itoa(i) + `":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}`)
		}
	case "metadata":
		b.WriteString(`"__metadata__":{`)
		for i := 0; b.Len() < size-100; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`"k` + strconv.Itoa(i) + `":"v"`)
		}
		b.WriteString("}")
	case "shape":
		b.WriteString(`"t":{"dtype":"F32","shape":[0`)
		for b.Len() < size-100 {
			b.WriteString(",1")
		}
		b.WriteString(`],"data_offsets":[0,0]}`)
	case "name":
		b.WriteString(`"` + strings.Repeat("a", size-100) + `":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}`)
	}
	b.WriteString("}")
	return b.Bytes()
}

// TestCraftedHeader parses crafted valid headers of 20 MB (BenchmarkCraftedHeader
// parses 100 MB, the limit): the json.Decoder parser took 27 s and 2.4 GB for
// 100 MB; the scanner must stay within a few times the header's size in
// allocations (a metadata map costs about 9x its JSON) and parse at several
// MB per second even on a loaded machine.
func TestCraftedHeader(t *testing.T) {
	size := 20_000_000
	for _, kind := range []string{"tensors", "metadata", "shape", "name"} {
		t.Run("kind="+kind, func(t *testing.T) {
			hdr := craftHeader(kind, size)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			entries, meta, pr := parseHeader(hdr, 0)
			took := time.Since(start)
			runtime.ReadMemStats(&after)
			if pr != nil {
				t.Fatalf("parseHeader: %s", pr.reason)
			}
			if len(entries)+len(meta) == 0 {
				t.Fatal("parseHeader returned nothing")
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d MB header: %v, %d MB allocated", len(hdr)>>20, took.Round(time.Millisecond), alloc>>20)
			if limit := 12 * uint64(len(hdr)); alloc > limit {
				t.Errorf("parsing a %d-byte header allocated %d bytes; want at most 12x the header (%d)", len(hdr), alloc, limit)
			}
			if rate := float64(len(hdr)) / took.Seconds(); rate < 5e6 {
				t.Errorf("parsed %d bytes in %v (%.1f MB/s); want at least 5 MB/s", len(hdr), took, rate/1e6)
			}
		})
	}
}

// TestScannerStrings checks the escapes against encoding/json's decoding.
func TestScannerStrings(t *testing.T) {
	for in, want := range map[string]string{
		`"plain"`:              "plain",
		`"a\"b\\c\/d"`:         `a"b\c/d`,
		`"\b\f\n\r\t"`:         "\b\f\n\r\t",
		`"\u00e9\u4e2d"`:       "é中",
		`"\u00E9\u00c9"`:       "éÉ",
		`"\ud83d\ude00"`:       "😀",
		`"\ud83d x"`:           "\uFFFD x",
		`"\ude00\ud83d\ude00"`: "\uFFFD😀",
		`"é"`:                  "é",
	} {
		s := &scanner{b: []byte(in)}
		got, err := s.str(where{obj: "test"})
		if err != nil || got != want {
			t.Errorf("str(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{`"a`, `"\x"`, "\"a\x01\"", `"\u12"`, `"\uzzzz"`, "\"\\u\x10000\"", `"\u:000"`} {
		s := &scanner{b: []byte(in)}
		if got, err := s.str(where{obj: "test"}); err == nil {
			t.Errorf("str(%q) = %q; want an error", in, got)
		}
	}
}

// BenchmarkCraftedHeader parses crafted 100 MB headers (MaxHeaderSize).
func BenchmarkCraftedHeader(b *testing.B) {
	for _, kind := range []string{"tensors", "metadata", "shape", "name"} {
		b.Run("kind="+kind, func(b *testing.B) {
			hdr := craftHeader(kind, MaxHeaderSize)
			b.SetBytes(int64(len(hdr)))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, pr := parseHeader(hdr, 0); pr != nil {
					b.Fatal(pr.reason)
				}
			}
		})
	}
}
