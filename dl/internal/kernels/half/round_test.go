package half

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRound checks the in-place rounding against the scalar round trip on
// every length around the chunk size, with specials.
func TestRound(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{0, 1, 15, 16, 17, 511, 512, 513, 1500} {
		x := make([]float32, n)
		for i := range x {
			x[i] = math.Float32frombits(r.Uint32())
		}
		for _, c := range []struct {
			name  string
			round func([]float32)
			enc   func(float32) uint16
			dec   func(uint16) float32
		}{
			{"RoundFloat16", RoundFloat16, Float32ToFloat16, Float16ToFloat32},
			{"RoundBFloat16", RoundBFloat16, Float32ToBFloat16, BFloat16ToFloat32},
		} {
			got := append([]float32(nil), x...)
			c.round(got)
			for i, v := range x {
				if want := c.dec(c.enc(v)); math.Float32bits(got[i]) != math.Float32bits(want) {
					t.Fatalf("%s(len %d)[%d] of %#08x = %#08x; want %#08x", c.name, n, i, math.Float32bits(v), math.Float32bits(got[i]), math.Float32bits(want))
				}
			}
		}
	}
}
