package half

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestEncodeRows: EncodeBFloat16Rows and EncodeFloat16Rows against the
// scalar conversions of src + bias, for 1 to 40 columns (the AVX-512 loop
// takes up to 32) and around the 64-column pieces of the loop for the
// other CPUs, strides wider than the rows, with and without a bias,
// NaN, infinities, subnormals and ties among the values; the padding of
// dst's rows is not written.
func TestEncodeRows(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 1e-40, -1e-42,
		math.Float32frombits(0x3f808000), math.Float32frombits(0x3f818000), 65520, 1e-7}
	for _, f16 := range []bool{false, true} {
		enc, name, scalar := EncodeBFloat16Rows, "EncodeBFloat16Rows", Float32ToBFloat16
		if f16 {
			enc, name, scalar = EncodeFloat16Rows, "EncodeFloat16Rows", Float32ToFloat16
		}
		widths := []int{63, 64, 65, 130}
		for cols := 1; cols <= 40; cols++ {
			widths = append(widths, cols)
		}
		for _, cols := range widths {
			for _, withBias := range []bool{false, true} {
				rows, lds, ldd := 1+r.IntN(5), cols+r.IntN(3), cols+1+r.IntN(3)
				src := make([]float32, (rows-1)*lds+cols)
				for i := range src {
					src[i] = float32(r.NormFloat64() * math.Pow(2, float64(r.IntN(30)-15)))
					if r.IntN(8) == 0 {
						src[i] = specials[r.IntN(len(specials))]
					}
				}
				var bias []float32
				if withBias {
					bias = make([]float32, cols)
					for j := range bias {
						bias[j] = float32(r.NormFloat64())
					}
				}
				dst := make([]uint16, rows*ldd)
				for i := range dst {
					dst[i] = 0xdead
				}
				enc(dst, ldd, src, lds, rows, cols, bias)
				for i := range rows {
					for j := range ldd {
						got := dst[i*ldd+j]
						if j >= cols {
							if got != 0xdead {
								t.Fatalf("%s cols=%d: dst[%d][%d] (row padding) written", name, cols, i, j)
							}
							continue
						}
						v := src[i*lds+j]
						if bias != nil {
							v += bias[j]
						}
						if want := scalar(v); got != want {
							t.Fatalf("%s cols=%d bias=%v: dst[%d][%d] = %#04x; want %#04x (%v)", name, cols, withBias, i, j, got, want, v)
						}
					}
				}
			}
		}
	}
}

func TestEncodeRowsShort(t *testing.T) {
	defer func() {
		msg := fmt.Sprint(recover())
		if !strings.Contains(msg, "EncodeBFloat16Rows") || !strings.Contains(msg, "too short") {
			t.Errorf("EncodeBFloat16Rows with a short dst: panic %q; want one naming it and saying a slice is too short", msg)
		}
	}()
	EncodeBFloat16Rows(make([]uint16, 5), 4, make([]float32, 8), 4, 2, 4, nil)
}
