package cuda

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
	"unsafe"

	"github.com/dlbd/dlbd/dl/internal/kernels/half"
)

// BenchmarkGemm measures square n×n×n products on device 0 with GPU
// events, reporting TFLOP/s (2n³ operations per product). Inputs are
// random: on zeros tensor cores draw less power and run faster, which
// would flatter the figure. Reference on the course's H200: PyTorch bf16
// at n=8192 ran at ~790 TFLOP/s on random data.
func BenchmarkGemm(b *testing.B) {
	c := needGPU(b)
	h, err := c.BLAS()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{4096, 8192} {
		for _, tc := range []struct {
			name string
			typ  DataType
			math Math
		}{{"fp32", R32F, DefaultMath}, {"tf32", R32F, TF32Math}, {"bf16", R16BF, DefaultMath}, {"fp16", R16F, DefaultMath}} {
			b.Run(fmt.Sprintf("type=%s/n=%d", tc.name, n), func(b *testing.B) {
				da, db := benchOperand(b, c, n*n, tc.typ), benchOperand(b, c, n*n, tc.typ)
				dc := mustAlloc(b, c, int64(4*n*n))
				if err := h.SetMath(tc.math); err != nil {
					b.Fatal(err)
				}
				defer h.SetMath(DefaultMath)
				g := Gemm{M: n, N: n, K: n, A: da, B: db, C: dc, AType: tc.typ, BType: tc.typ}
				for range 3 { // warm-up: cuBLAS picks and loads its kernel, clocks ramp up
					if err := h.RowMajorGemm(g); err != nil {
						b.Fatal(err)
					}
				}
				if err := c.Synchronize(); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				d, err := c.Time(0, func() error {
					for range b.N {
						if err := h.RowMajorGemm(g); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(2*float64(n)*float64(n)*float64(n)*float64(b.N)/d.Seconds()/1e12, "TFLOP/s")
			})
		}
	}
}

// benchOperand uploads n random values in the given format.
func benchOperand(b *testing.B, c *Context, n int, typ DataType) DevPtr {
	b.Helper()
	r := rand.New(rand.NewPCG(1, uint64(n)))
	x := randFloats(r, n)
	if typ == R32F {
		d := mustAlloc(b, c, int64(4*n))
		if err := Upload(c, d, x); err != nil {
			b.Fatal(err)
		}
		return d
	}
	h := make([]uint16, n)
	if typ == R16BF {
		half.EncodeBFloat16(h, x)
	} else {
		half.EncodeFloat16(h, x)
	}
	d := mustAlloc(b, c, int64(2*n))
	if err := Upload(c, d, h); err != nil {
		b.Fatal(err)
	}
	return d
}

// BenchmarkCopy measures host↔device bandwidth (wall clock around
// synchronous copies) for pageable Go memory and pinned memory, in GB/s
// (1e9 bytes/s). Pinned copies skip the driver's staging copy.
func BenchmarkCopy(b *testing.B) {
	c := needGPU(b)
	const size = 256 << 20
	d := mustAlloc(b, c, size)
	pageable := make([]byte, size)
	for i := range pageable {
		pageable[i] = byte(i)
	}
	pinned, err := c.HostAlloc(size)
	if err != nil {
		b.Fatal(err)
	}
	defer pinned.Free()
	copy(pinned.Bytes(), pageable)
	for _, mem := range []string{"pageable", "pinned"} {
		host := unsafe.Pointer(&pageable[0])
		if mem == "pinned" {
			host = unsafe.Pointer(&pinned.Bytes()[0])
		}
		for _, dir := range []string{"h2d", "d2h"} {
			b.Run(fmt.Sprintf("dir=%s/mem=%s/size=256MiB", dir, mem), func(b *testing.B) {
				b.SetBytes(size)
				start := time.Now()
				for range b.N {
					if dir == "h2d" {
						err = c.CopyHtoD(d, host, size)
					} else {
						err = c.CopyDtoH(host, d, size)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(size)*float64(b.N)/time.Since(start).Seconds()/1e9, "GB/s")
			})
		}
	}
}
