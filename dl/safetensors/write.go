package safetensors

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/dlbd/dlbd/internal/atomicfile"
)

// layout validates f and returns the padded JSON header and the tensor
// names in file order: by descending dtype rank (largest elements first, so
// every tensor is aligned to its element size), then by name, as the
// reference writer does. The header is padded with spaces to a multiple of 8
// bytes so that the data section starts 8-byte aligned.
func layout(f *File) ([]byte, []string, *problem) {
	names := f.Names()
	for _, name := range names {
		if name == metadataKey {
			return nil, nil, fail(name, "the name is reserved for the metadata map")
		}
		if !utf8.ValidString(name) {
			return nil, nil, fail(name, "the name is not valid UTF-8")
		}
		if reason := f.Tensors[name].check(); reason != "" {
			return nil, nil, fail(name, "%s", reason)
		}
	}
	for k, v := range f.Metadata {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return nil, nil, fail("", "metadata entry %q is not valid UTF-8", k)
		}
	}
	slices.SortStableFunc(names, func(a, b string) int {
		return cmp.Compare(f.Tensors[b].DType.rank(), f.Tensors[a].DType.rank())
	})
	var h bytes.Buffer
	h.WriteByte('{')
	if f.Metadata != nil {
		h.WriteString(`"__metadata__":{`)
		keys := make([]string, 0, len(f.Metadata))
		for k := range f.Metadata {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				h.WriteByte(',')
			}
			writeString(&h, k)
			h.WriteByte(':')
			writeString(&h, f.Metadata[k])
		}
		h.WriteByte('}')
	}
	var off int
	for i, name := range names {
		if i > 0 || f.Metadata != nil {
			h.WriteByte(',')
		}
		t := f.Tensors[name]
		writeString(&h, name)
		h.WriteString(`:{"dtype":"` + string(t.DType) + `","shape":[`)
		for j, d := range t.Shape {
			if j > 0 {
				h.WriteByte(',')
			}
			h.WriteString(strconv.Itoa(d))
		}
		fmt.Fprintf(&h, `],"data_offsets":[%d,%d]}`, off, off+len(t.Data))
		off += len(t.Data)
	}
	h.WriteByte('}')
	for h.Len()%8 != 0 {
		h.WriteByte(' ')
	}
	if h.Len() > MaxHeaderSize {
		return nil, nil, fail("", "header of %d bytes exceeds the limit of %d bytes (too many tensors or names too long)", h.Len(), MaxHeaderSize)
	}
	return h.Bytes(), names, nil
}

// writeString appends s as a JSON string without HTML escaping.
func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes
	b.Truncate(b.Len() - 1) // drop Encode's newline
}

func encode(w io.Writer, f *File, hdr []byte, names []string) error {
	var lenBuf [8]byte
	binary.LittleEndian.PutUint64(lenBuf[:], uint64(len(hdr)))
	if _, err := w.Write(lenBuf[:]); err != nil {
		return err
	}
	if _, err := w.Write(hdr); err != nil {
		return err
	}
	for _, name := range names {
		if _, err := w.Write(f.Tensors[name].Data); err != nil {
			return err
		}
	}
	return nil
}

// Marshal returns f in the safetensors format. It fails (with an error
// wrapping ErrFormat) if a tensor's data length does not match its dtype and
// shape, a dtype is unknown, or a name is reserved or not UTF-8.
func Marshal(f *File) ([]byte, error) {
	hdr, names, pr := layout(f)
	if pr != nil {
		return nil, &FormatError{Op: "marshal", Tensor: pr.tensor, Reason: pr.reason}
	}
	var b bytes.Buffer
	_ = encode(&b, f, hdr, names) // bytes.Buffer writes do not fail
	return b.Bytes(), nil
}

// WriteFile writes f to path atomically (internal/atomicfile): into a
// temporary file in the same directory, flushed to disk (fsync), then
// renamed over path. A reader never sees a half-written file, a failed
// write leaves any previous file at path untouched, and the temporary file
// of a writer killed mid-write (kill -9) is removed by the next write of
// path. The file gets mode 0644.
func WriteFile(path string, f *File) error {
	hdr, names, pr := layout(f)
	if pr != nil {
		return &FormatError{Op: "write", Path: path, Tensor: pr.tensor, Reason: pr.reason}
	}
	err := atomicfile.Write(path, 0o644, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		if err := encode(bw, f, hdr, names); err != nil {
			return err
		}
		return bw.Flush()
	})
	if err != nil {
		return fmt.Errorf("safetensors: write %s: %w", path, err)
	}
	return nil
}
