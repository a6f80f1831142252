// Package safetensors reads and writes the safetensors file format, the
// format Hugging Face uses to share model weights, so that a state dict saved
// from Go opens with Python tools (safetensors.torch.load_file,
// safetensors.numpy.load_file) and the other way round.
//
// # Overview
//
// A file is
//
//	8 bytes    N, the header length, a little-endian uint64
//	N bytes    a UTF-8 JSON object: name -> {"dtype", "shape", "data_offsets"},
//	           plus an optional "__metadata__" string -> string map
//	the rest   the tensors' raw little-endian bytes, row-major, back to back
//
// data_offsets are [begin, end) byte offsets into the data section. This
// package works on a neutral representation ([File], [Tensor]: a dtype
// string, a shape and raw bytes); package dl/nn binds it to *dl.Tensor
// (nn.Save, nn.Load). [ReadFile] and [Unmarshal] read; [WriteFile] and
// [Marshal] write.
//
// Like the reference writer, [Marshal] orders tensors by descending dtype
// (8-byte types first) and then by name, and pads the header with spaces to a
// multiple of 8 bytes, so every tensor's data is aligned to its element size.
// A file we write is identical, up to the order of the metadata keys, to the
// one Python's safetensors writes for the same tensors (checked by
// TestPythonCrossCheck when Python's safetensors is installed; see
// SAFETENSORS_PYTHON there): byte for byte with at most one metadata key,
// but with two or more Python's order varies from one process to the next
// (it comes from a hash map), while [Marshal] sorts them.
//
// [WriteFile] is atomic: it writes a temporary file in the destination's
// directory, fsyncs it and renames it over the destination, so a crash or an
// error never leaves a half-written checkpoint.
//
// # Errors
//
// Reading validates everything before returning anything: the header length
// (at most [MaxHeaderSize], and within the file), UTF-8, the JSON (no
// duplicate names or fields, no unknown fields, integer shapes), known
// dtypes, no overflow in dtype × shape, and offsets that tile the data
// section exactly (contiguous, no gaps or overlaps, each tensor's length equal
// to its dtype size × number of elements, the last ending at the end of the
// file). A violation is a *[FormatError] wrapping [ErrFormat] that names the
// file, the tensor and the problem; a truncated file is reported as such. I/O
// failures are returned as the os package reports them, wrapped with the
// operation and path. Nothing here panics on bad input; FuzzRead checks it.
//
// Writing returns a *[FormatError] when a tensor's data length does not
// match its dtype and shape, a dtype is unknown, or a name is reserved
// ("__metadata__") or not UTF-8.
//
// # Concepts
//
// Course: "Computación eficiente para Deep Learning" (checkpoints, moving
// weights between frameworks).
//
// Why not pickle: PyTorch's default .pt files are Python pickles, which can
// run arbitrary code when loaded; safetensors stores only a JSON header and
// bytes, so loading a file from someone else is safe, and the header lets a
// reader check sizes before it allocates (a crafted header cannot make it
// read past the file).
//
// Spec: https://github.com/huggingface/safetensors (README "Format" and
// safetensors/src/tensor.rs, whose test vectors TestMarshalReferenceBytes
// reproduces).
package safetensors
