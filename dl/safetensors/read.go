package safetensors

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
)

// Unmarshal parses a whole safetensors file held in b. Everything is
// validated before anything is returned: the header length, UTF-8, the JSON
// (no duplicate names, no unknown fields), every dtype and shape, and the
// offsets (contiguous, each dtype × shape long, covering the data exactly).
// The returned tensors' Data slices alias b.
func Unmarshal(b []byte) (*File, error) {
	f, pr := parse(b)
	if pr != nil {
		return nil, &FormatError{Op: "unmarshal", Tensor: pr.tensor, Reason: pr.reason}
	}
	return f, nil
}

func parse(b []byte) (*File, *problem) {
	total := uint64(len(b))
	if total < 8 {
		return nil, fail("", "file has %d bytes; a safetensors file starts with an 8-byte header length", total)
	}
	n := binary.LittleEndian.Uint64(b)
	if pr := checkLength(n, total); pr != nil {
		return nil, pr
	}
	entries, meta, pr := parseHeader(b[8:8+n], total-8-n)
	if pr != nil {
		return nil, pr
	}
	return assemble(entries, meta, b[8+n:]), nil
}

// assemble builds the File from validated entries over the data section.
func assemble(entries []entry, meta map[string]string, data []byte) *File {
	f := &File{Tensors: make(map[string]Tensor, len(entries)), Metadata: meta}
	for _, e := range entries {
		f.Tensors[e.name] = Tensor{DType: e.dtype, Shape: e.shape, Data: data[e.begin:e.end:e.end]}
	}
	return f
}

// ReadFile reads and validates a safetensors file. The header is read and
// checked against the file's size before the data is read, so a corrupt or
// truncated file fails early without a large allocation. Errors about the
// content wrap ErrFormat; I/O errors are returned wrapped as they come.
func ReadFile(path string) (*File, error) {
	fd, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("safetensors: read: %w", err)
	}
	defer fd.Close()
	st, err := fd.Stat()
	if err != nil {
		return nil, fmt.Errorf("safetensors: read %s: %w", path, err)
	}
	bad := func(pr *problem) error {
		return &FormatError{Op: "read", Path: path, Tensor: pr.tensor, Reason: pr.reason}
	}
	total := uint64(st.Size())
	if total < 8 {
		return nil, bad(fail("", "file has %d bytes; a safetensors file starts with an 8-byte header length", total))
	}
	var lenBuf [8]byte
	if _, err := io.ReadFull(fd, lenBuf[:]); err != nil {
		return nil, fmt.Errorf("safetensors: read %s: %w", path, err)
	}
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if pr := checkLength(n, total); pr != nil {
		return nil, bad(pr)
	}
	hdr := make([]byte, n)
	if _, err := io.ReadFull(fd, hdr); err != nil {
		return nil, fmt.Errorf("safetensors: read %s: header: %w", path, err)
	}
	entries, meta, pr := parseHeader(hdr, total-8-n)
	if pr != nil {
		return nil, bad(pr)
	}
	data := make([]byte, total-8-n)
	if _, err := io.ReadFull(fd, data); err != nil {
		return nil, fmt.Errorf("safetensors: read %s: data: %w", path, err)
	}
	return assemble(entries, meta, data), nil
}
