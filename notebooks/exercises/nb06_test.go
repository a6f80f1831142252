package exercises

import (
	"fmt"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

func TestTransferBytes(t *testing.T) {
	nb04CheckCases(t, []nb04Case{
		{name: "right", result: TransferBytes(512 * 256 * 2), ok: true, note: "262144 bytes"},
		{name: "wrong/elements", result: TransferBytes(512 * 256), note: "elementos"},
		{name: "wrong/float32", result: TransferBytes(512 * 256 * 4), note: "float32"},
		{name: "wrong/bits", result: TransferBytes(512 * 256 * 16), note: "bits"},
		{name: "wrong/other", result: TransferBytes(1000), note: "Tu respuesta es 1000"},
		{name: "blank", result: TransferBytes(0), blank: true, note: "bytesEjercicio1"},
	})
}

// ejercicio2 is the function of exercise 2 of notebook 06 as the notebook
// gives it: it mixes devices.
func ejercicio2() *dl.Tensor {
	w := dl.Options{Device: dl.Sim(0)}.Randn(4, 3)
	x := dl.Randn(3, 2)
	return w.MatMul(x)
}

func TestDeviceFix(t *testing.T) {
	sim := dl.Options{Device: dl.Sim(0)}
	nb04CheckCases(t, []nb04Case{
		{name: "right", result: DeviceFix(func() *dl.Tensor { // the reference solution
			w := sim.Randn(4, 3)
			x := dl.Randn(3, 2)
			return w.MatMul(x.To(w.Device()))
		}), ok: true, note: "[4 2] está en sim:0"},
		{name: "wrong/on the CPU", result: DeviceFix(func() *dl.Tensor {
			return sim.Randn(4, 3).To(dl.CPU).MatMul(dl.Randn(3, 2))
		}), note: "está en cpu"},
		{name: "wrong/w moved", result: DeviceFix(func() *dl.Tensor {
			return sim.Randn(4, 3).To(dl.CPU).MatMul(dl.Randn(3, 2)).To(dl.Sim(0))
		}), note: "no mover w"},
		{name: "wrong/shape", result: DeviceFix(func() *dl.Tensor {
			return sim.Randn(4, 3).MatMul(dl.Randn(3, 2).To(dl.Sim(0))).T()
		}), note: "es [4, 2]"},
		{name: "wrong/nil", result: DeviceFix(func() *dl.Tensor { return nil }), note: "devuelve nil"},
		{name: "wrong/panic", result: DeviceFix(func() *dl.Tensor {
			return sim.Randn(4, 3).MatMul(dl.Randn(2, 3).To(dl.Sim(0)))
		}), note: "entró en pánico"},
		{name: "blank", result: DeviceFix(ejercicio2), blank: true, note: "x.To(...)"},
	})
}

func ExampleDeviceFix() {
	fmt.Println(DeviceFix(func() *dl.Tensor {
		w := dl.Options{Device: dl.Sim(0)}.Randn(4, 3)
		x := dl.Randn(3, 2)
		return w.MatMul(x.To(w.Device()))
	}))
	// Output:
	// Ejercicio 2: correcto, el producto [4 2] está en sim:0, y solo se copió x.
}
