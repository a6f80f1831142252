//go:build !noasm

package half

// Assembly versions come next; until then amd64 uses the generic loops.
var (
	encodeFloat16  = encodeFloat16Generic
	decodeFloat16  = decodeFloat16Generic
	encodeBFloat16 = encodeBFloat16Generic
	decodeBFloat16 = decodeBFloat16Generic
)
