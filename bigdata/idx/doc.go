// Package idx reads and writes the IDX format, the file format of the MNIST database: one
// array of numbers (a vector, a matrix, a stack of images) with its type and shape in a short
// header. The reader is written from the format's description on the MNIST page
// (http://yann.lecun.com/exdb/mnist/, "THE IDX FILE FORMAT").
//
// # Overview
//
// An IDX file is
//
//	offset 0   0x00 0x00     magic: two zero bytes
//	offset 2   type          0x08 uint8, 0x09 int8, 0x0B int16, 0x0C int32, 0x0D float32, 0x0E float64
//	offset 3   ndims         number of dimensions (1 for a vector, 2 for a matrix, …)
//	offset 4   ndims × size  each size a big-endian (MSB first) uint32
//	then       data          the elements in C order (the last index changes fastest), each big-endian
//
// [ReadFile] and [Read] decode a whole file into an [Array]; a gzip-compressed file (first
// bytes 1f 8b, as MNIST is distributed: train-images-idx3-ubyte.gz) is decompressed on the
// fly, so callers never gunzip by hand. The elements stay as the file stores them
// ([Array.Raw]); [Array.Float32s], [Array.Float64s] and [Array.Int64s] convert them, and
// [Array.Uint8s] returns uint8 data without a copy. [Array.WriteTo] writes an Array back
// (uncompressed), for tests and for small arrays of one's own.
//
// # Errors
//
// A file that is not valid IDX is a [*FormatError]: it names the file, the byte offset
// (counted in the decompressed stream when the file is gzip), what was expected there, what
// was found, and the fix. The checks: the two zero bytes of the magic (a file that starts
// with "<" is reported as an HTML page, the usual result of a failed download); a known type
// byte; at least one dimension; a complete header; a total size that neither overflows nor
// exceeds [Options.MaxBytes]; exactly as many data bytes as the header declares (fewer:
// truncated; more: trailing bytes, so the sizes are inconsistent with the data); a gzip
// stream whose checksum matches. Memory follows the bytes that actually arrive (ReadFile
// allocates the data at once when the file's size agrees with the header), never a size
// merely declared in a header, so a crafted header cannot make the reader allocate
// gigabytes.
//
// # Concepts
//
// Course: "Almacenamiento para pipelines de DL": a binary format with a fixed header is read
// at memory speed, where text (CSV) must be parsed number by number.
// Paper: LeCun, Bottou, Bengio & Haffner 1998, Gradient-Based Learning Applied to Document
// Recognition (Proc. IEEE 86(11)), the paper of the MNIST data set.
package idx
