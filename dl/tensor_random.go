package dl

import (
	"fmt"
	"math"
	"math/bits"
	"sync"
)

// Generator is a seedable source of random numbers, like torch.Generator.
// It is xoshiro256** (Blackman and Vigna 2018) seeded through splitmix64,
// and its normal deviates use the polar method with a logarithm written
// in this package, so the same seed gives the same numbers on every
// machine, architecture and Go version.  A Generator is safe for
// concurrent use.
type Generator struct {
	mu sync.Mutex
	s  GeneratorState
}

// GeneratorState is a snapshot of a Generator, to replay a random
// sequence (e.g. the dropout masks of a recomputed forward pass).
type GeneratorState [4]uint64

// NewGenerator returns a generator seeded with seed.
func NewGenerator(seed uint64) *Generator {
	g := &Generator{}
	g.ManualSeed(seed)
	return g
}

// DefaultGenerator is used by Rand, Randn and Dropout when no generator is
// given; ManualSeed seeds it.
var DefaultGenerator = NewGenerator(0)

// ManualSeed reseeds DefaultGenerator, like torch.manual_seed.
func ManualSeed(seed uint64) { DefaultGenerator.ManualSeed(seed) }

// ManualSeed reseeds g.
func (g *Generator) ManualSeed(seed uint64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	x := seed
	for i := range g.s {
		x += 0x9e3779b97f4a7c15 // splitmix64
		z := x
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		g.s[i] = z ^ (z >> 31)
	}
}

// State returns the generator's current state.
func (g *Generator) State() GeneratorState {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.s
}

// SetState restores a state returned by State.
func (g *Generator) SetState(s GeneratorState) {
	g.mu.Lock()
	g.s = s
	g.mu.Unlock()
}

// next returns the next 64 random bits (caller holds g.mu).
func (g *Generator) next() uint64 {
	s := &g.s
	r := rotl(s[1]*5, 7) * 9
	t := s[1] << 17
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = rotl(s[3], 45)
	return r
}

func rotl(x uint64, k uint) uint64 { return x<<k | x>>(64-k) }

// Uint64 returns 64 random bits.
func (g *Generator) Uint64() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.next()
}

// uniform fills dst with uniform numbers in [0, 1) with 53 random bits.
func (g *Generator) uniform(dst []float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i := range dst {
		dst[i] = float64(g.next()>>11) * 0x1p-53
	}
}

// normal fills dst with standard normal numbers (Marsaglia's polar
// method: pairs from a point uniform in the unit disc).
func (g *Generator) normal(dst []float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i := 0; i < len(dst); i += 2 {
		var u, v, s float64
		for s == 0 || s >= 1 {
			u = float64(g.next()>>11)*0x1p-52 - 1
			v = float64(g.next()>>11)*0x1p-52 - 1
			s = float64(u*u) + float64(v*v)
		}
		f := math.Sqrt(float64(-2*portableLog(s)) / s)
		dst[i] = float64(u * f)
		if i+1 < len(dst) {
			dst[i+1] = float64(v * f)
		}
	}
}

// portableLog is the natural logarithm of x in (0, 1], with the
// reduction x = 2^k·(1+f), √2/2 <= 1+f < √2, and the minimax polynomial of
// fdlibm's e_log.c for log(1+f) = 2s + 2s³/3 + ... with s = f/(2+f).
// Every product is rounded explicitly (float64(...)) so that no compiler
// fuses it into an FMA: math.Log may use assembly or FMA on some
// architectures, which would change the random numbers from one machine
// to another.
func portableLog(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
		lg1   = 6.666666666666735130e-01
		lg2   = 3.999999999940941908e-01
		lg3   = 2.857142874366239149e-01
		lg4   = 2.222219843214978396e-01
		lg5   = 1.818357216161805012e-01
		lg6   = 1.531383769920937332e-01
		lg7   = 1.479819860511658591e-01
	)
	frac, exp := math.Frexp(x) // x = frac·2^exp, frac in [0.5, 1)
	if frac < math.Sqrt2/2 {
		frac *= 2
		exp--
	}
	f := frac - 1
	k := float64(exp)
	s := f / (2 + f)
	z := float64(s * s)
	w := float64(z * z)
	t1 := float64(w * float64(lg2+float64(w*float64(lg4+float64(w*lg6)))))
	t2 := float64(z * float64(lg1+float64(w*float64(lg3+float64(w*float64(lg5+float64(w*lg7)))))))
	r := t2 + t1
	hfsq := float64(0.5 * float64(f*f))
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*ln2Lo))) - f)
}

// Rand returns numbers uniform in [0, 1), like torch.rand.
func (o Options) Rand(dims ...int) *Tensor { return o.random("Rand", (*Generator).uniform, dims) }

// Randn returns standard normal numbers, like torch.randn.
func (o Options) Randn(dims ...int) *Tensor { return o.random("Randn", (*Generator).normal, dims) }

// random draws float64 numbers with fill into a CPU tensor (allocated,
// so counted and checked against the CPU's capacity, before any number is
// drawn) and converts it to o's dtype and device.  It fills chunks of
// cancelChunk elements, an even number, so the sequence does not depend
// on the chunking (normal draws pairs), checking the context of SetCancel
// before each.
func (o Options) random(op string, fill func(*Generator, []float64), dims []int) *Tensor {
	if !o.DType.IsFloat() { // torch: "not implemented for 'Long'"
		panic(&DTypeError{Op: op, DTypes: []DType{o.DType}, Reason: op + " draws floating-point numbers, not " + o.DType.String(),
			Fix: "use Randint for random integers, or a float dtype"})
	}
	src := newTensor(op, CPU, Float64, dims)
	if src.n > 0 {
		vals, g := src.v(op).f64(), o.generator()
		chunked(op, CPU, len(vals), func(i, m int) { fill(g, vals[i:i+m]) })
	}
	return convertHost(o, src)
}

// Randint returns integers uniform in [low, high), like torch.randint, in
// o.DType (Int64 for torch.randint's default is Options{DType:
// dl.Int64}; float dtypes hold the integers as values).  It panics with
// a *ValueError unless low < high.
func (o Options) Randint(low, high int64, dims ...int) *Tensor {
	const op = "Randint"
	if low >= high {
		panic(&ValueError{Op: op, Reason: fmt.Sprintf("empty range [%d, %d)", low, high), Fix: "use low < high"})
	}
	src := newTensor(op, CPU, Int64, dims)
	if src.n > 0 {
		vals, g, span := elems[int64](src.v(op)), o.generator(), uint64(high-low)
		chunked(op, CPU, len(vals), func(i, m int) { g.integers(vals[i:i+m], low, span) })
	}
	return convertHost(o, src)
}

// integers fills dst with low + a uniform integer in [0, span), by
// Lemire's multiply-and-reject method (unbiased; one 64-bit draw per
// number but for a rare rejection).
func (g *Generator) integers(dst []int64, low int64, span uint64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	threshold := -span % span // 2^64 mod span
	for i := range dst {
		for {
			hi, lo := bits.Mul64(g.next(), span)
			if lo >= threshold {
				dst[i] = low + int64(hi)
				break
			}
		}
	}
}

func (o Options) generator() *Generator {
	if o.Generator != nil {
		return o.Generator
	}
	return DefaultGenerator
}

// Rand returns float32 numbers uniform in [0, 1) on CPU from
// DefaultGenerator; see Options.Rand.
func Rand(dims ...int) *Tensor { return Options{}.Rand(dims...) }

// Randn returns float32 standard normal numbers on CPU from
// DefaultGenerator; see Options.Randn.
func Randn(dims ...int) *Tensor { return Options{}.Randn(dims...) }
