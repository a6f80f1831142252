package data

import (
	"math"
	"math/rand/v2"
)

// rng draws the synthetic datasets' numbers from PCG with algorithms fixed in
// this file (uniform: top 53 bits; normal: Box–Muller), so a dataset depends
// only on its seed, not on the Go version or the machine.
type rng struct{ src *rand.PCG }

// Streams keep the independent draws of one seed apart.
const (
	streamData    = 1 // inputs and labels
	streamTeacher = 2 // teacher weights
	streamNoise   = 3 // label noise
)

func newRNG(seed, stream uint64) *rng { return &rng{src: rand.NewPCG(seed, stream)} }

// uniform returns a float64 in [0, 1).
func (r *rng) uniform() float64 { return float64(r.src.Uint64()>>11) / (1 << 53) }

// normal returns a standard normal sample by the Box–Muller transform.
func (r *rng) normal() float64 {
	u1 := 1 - r.uniform() // in (0, 1], so the log is finite
	u2 := r.uniform()
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}
