package bench

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// BenchmarkMatMul times the square products of notebook 05 with the
// testing framework: every host kernel on the CPU (the naive loop only up
// to n = 256), and cuBLAS in float32, bfloat16 and float16 when a GPU is
// present (scripts/gpu-check runs the benchmarks matching "MatMul" there).
// Metric: GFLOP/s = 2n³ per product.
//
//	go test -run '^$' -bench MatMul ./dl/bench/
func BenchmarkMatMul(b *testing.B) {
	for _, k := range dl.MatMulKernels() {
		for _, n := range []int{128, 256, 512, 1024} {
			if k == dl.MatMulNaive && n > 256 {
				continue // seconds per product: the point is made at 256
			}
			b.Run(fmt.Sprintf("dev=cpu/impl=%v/dtype=float32/n=%d", k, n), func(b *testing.B) {
				benchMatMul(b, k, dl.CPU, dl.Float32, n)
			})
		}
	}
	if dl.CUDAAvailable() != nil {
		return
	}
	for _, dt := range []dl.DType{dl.Float32, dl.BFloat16, dl.Float16} {
		for _, n := range []int{1024, 4096, 8192} {
			b.Run(fmt.Sprintf("dev=cuda/impl=cublas/dtype=%v/n=%d", dt, n), func(b *testing.B) {
				benchMatMul(b, dl.MatMulAuto, dl.CUDA(0), dt, n)
			})
		}
	}
}

// benchOperands keeps the operands of the last sub-benchmark: the
// framework calls each one at least twice (b.N = 1, then the real N), and
// drawing two 8192×8192 matrices takes seconds.
var benchOperands struct {
	key string
	p   *problem
}

func benchMatMul(b *testing.B, k dl.MatMulKernel, dev dl.Device, dt dl.DType, n int) {
	if key := fmt.Sprint(dev, dt, n); benchOperands.key != key {
		if benchOperands.p != nil {
			benchOperands.p.release()
		}
		benchOperands.key, benchOperands.p = key, newProblem(dl.NewGenerator(1), n, dt, dev, false)
	}
	p := benchOperands.p
	c := dl.MatMulWith(k, p.a, p.b) // warm-up
	synchronize(c)
	c.Release()
	b.SetBytes(int64(3 * n * n * dt.Size()))
	b.ResetTimer()
	for range b.N {
		c.Release()
		c = dl.MatMulWith(k, p.a, p.b)
	}
	synchronize(c) // the GPU's queue, inside the timed part
	b.StopTimer()
	c.Release()
	b.ReportMetric(FLOPs(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkTo times the copies of Copy: 64 MiB between the CPU and a Sim
// device, and a CUDA device when present.  Metric: GB/s.
func BenchmarkTo(b *testing.B) {
	devs := []dl.Device{dl.Sim(0)}
	if dl.CUDAAvailable() == nil {
		devs = append(devs, dl.CUDA(0))
	}
	const size = 64 << 20
	for _, dev := range devs {
		for _, dir := range []string{"h2d", "d2h"} {
			b.Run(fmt.Sprintf("dev=%v/dir=%s/MiB=%d", dev.Kind(), dir, size>>20), func(b *testing.B) {
				host := dl.Ones(size / 4)
				defer host.Release()
				onDev := host.To(dev)
				defer onDev.Release()
				src, dst := host, dev
				if dir == "d2h" {
					src, dst = onDev, dl.CPU
				}
				t := src.To(dst) // warm-up
				synchronize(t)
				b.SetBytes(size)
				b.ResetTimer()
				for range b.N {
					t.Release()
					t = src.To(dst)
				}
				synchronize(t)
				b.StopTimer()
				t.Release()
				b.ReportMetric(float64(size)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
			})
		}
	}
}
