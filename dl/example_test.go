package dl_test

import (
	"errors"
	"fmt"

	"github.com/dlbd/dlbd/dl"
)

func ExampleTensor_MatMul() {
	a := dl.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	b := dl.FromSlice([]float32{1, 0, 0, 1, 1, 1}, 3, 2)
	fmt.Println(a.MatMul(b))
	// Output:
	// tensor([[ 4.,  5.],
	//         [10., 11.]], device=cpu, dtype=float32)
}

func ExampleTensor_Backward() {
	w := dl.FromSlice([]float64{1, 2, 3}).SetRequiresGrad(true)
	x := dl.FromSlice([]float64{4, 5, 6})
	loss := w.Mul(x).Sum() // w·x
	loss.Backward()
	fmt.Println(loss.Item(), w.Grad().Float64s()) // d(w·x)/dw = x
	// Output:
	// 32 [4 5 6]
}

func ExampleTensor_To() {
	dl.ResetTransferStats()
	x := dl.Ones(256, 256)   // 256 KiB of float32 on the CPU
	y := x.To(dl.Sim(0))     // a copy on a simulated device
	z := x.Add(y.To(dl.CPU)) // compute where both operands are
	fmt.Println(y.Device(), z.Device())
	for _, tr := range dl.TransferStats() {
		fmt.Println(tr.From, "->", tr.To, dl.FormatBytes(tr.Bytes))
	}
	// Output:
	// sim:0 cpu
	// cpu -> sim:0 256.00 KiB
	// sim:0 -> cpu 256.00 KiB
}

func ExampleNoGrad() {
	w := dl.Ones(3).SetRequiresGrad(true)
	dl.NoGrad(func() {
		y := w.MulScalar(2)
		fmt.Println(y.RequiresGrad())
	})
	fmt.Println(w.MulScalar(2).RequiresGrad())
	// Output:
	// false
	// true
}

func ExampleCatch() {
	a := dl.Zeros(2, 3)
	b := dl.Zeros(4, 5)
	err := dl.Catch(func() { a.MatMul(b) })
	fmt.Println(errors.Is(err, dl.ErrShape))
	fmt.Println(err)
	// Output:
	// true
	// dl: MatMul: shape mismatch: cannot multiply [2 3] by [4 5]: inner dimensions 3 and 4 differ; the last axis of a must match the second-to-last of b (transpose or reshape an operand)
}

// A tensor dropped without Release is freed by the garbage collector at a
// moment nobody controls; CollectGarbage frees such tensors before a
// memory measurement, so that the measurement sees only what it measures.
func ExampleCollectGarbage() {
	dev := dl.Sim(1)
	dl.CollectGarbage()
	before := dl.MemoryStats(dev).Allocated
	_ = dl.Options{Device: dev}.Ones(256, 256) // 256 KiB, dropped without Release
	fmt.Println("dropped:", dl.FormatBytes(dl.MemoryStats(dev).Allocated-before))
	dl.CollectGarbage()
	fmt.Println("after CollectGarbage:", dl.FormatBytes(dl.MemoryStats(dev).Allocated-before))
	// Output:
	// dropped: 256.00 KiB
	// after CollectGarbage: 0 bytes
}
