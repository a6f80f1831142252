//go:build !amd64 || noasm

package half

// Without assembly the bulk conversions are the generic loops.
var (
	encodeFloat16  = encodeFloat16Generic
	decodeFloat16  = decodeFloat16Generic
	encodeBFloat16 = encodeBFloat16Generic
	decodeBFloat16 = decodeBFloat16Generic
)
