//go:build !amd64 || dlbd_noasm

package half

// Without assembly the bulk conversions are the generic loops.
var (
	encodeFloat16  = encodeFloat16Generic
	decodeFloat16  = decodeFloat16Generic
	encodeBFloat16 = encodeBFloat16Generic
	decodeBFloat16 = decodeBFloat16Generic
)

// encodeRows has no vector loop here: the generic one runs.
func encodeRows(dst []uint16, ldd int, src []float32, lds, rows, cols int, bias []float32, f16 bool) bool {
	return false
}
