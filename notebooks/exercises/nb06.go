package exercises

import (
	"errors"
	"slices"

	"github.com/dlbd/dlbd/dl"
)

// Checkers of 06-devices.ipynb.

// nb06Moved returns the bytes Tensor.To has copied from one device to
// another since the process started (dl.TransferStats, which
// dl.ResetTransferStats clears): a checker takes the difference before
// and after, so it needs no reset of the notebook's counts.
func nb06Moved(from, to dl.Device) int64 {
	for _, tr := range dl.TransferStats() {
		if tr.From == from && tr.To == to {
			return tr.Bytes
		}
	}
	return 0
}

// TransferBytes checks exercise 1 of notebook 06: the bytes x.To(dl.Sim(0))
// copies for a 512×256 tensor in dl.BFloat16, as dl.TransferStats counts
// them.  0 is the blank answer.
func TransferBytes(bytes int64) Result {
	const label = "Ejercicio 1"
	t := dl.Options{DType: dl.BFloat16}.Zeros(512, 256)
	defer t.Release()
	before := nb06Moved(dl.CPU, dl.Sim(0))
	moved := t.To(dl.Sim(0))
	defer moved.Release()
	want := nb06Moved(dl.CPU, dl.Sim(0)) - before
	elems := int64(t.Numel())
	switch bytes {
	case 0:
		return blank(label, "Escribe en bytesEjercicio1 los bytes que copia x.To(dl.Sim(0)) para un tensor de 512×256 en dl.BFloat16.")
	case want:
		return correct(label, "%d bytes (%d KiB): To copia los valores tal cual, %d bytes por elemento.", want, want>>10, dl.BFloat16.Size())
	case elems:
		return wrong(label, "%d son los elementos; cada uno ocupa dl.BFloat16.Size() bytes.", elems)
	case elems * int64(dl.Float32.Size()):
		return wrong(label, "eso sería en float32 (4 bytes por elemento); bfloat16 ocupa menos.")
	case 8 * want:
		return wrong(label, "eso son bits: la respuesta va en bytes.")
	}
	return wrong(label, "elementos (512 × 256) por bytes por elemento (dl.BFloat16.Size()). Tu respuesta es %d.", bytes)
}

// DeviceFix checks exercise 2 of notebook 06: f is the notebook's
// ejercicio2 after the fix, and must multiply w (on sim:0) by x on sim:0,
// moving x there and not w: the product is on sim:0, of shape [4, 2], and
// nothing was copied from sim:0 to the CPU.  The function as the notebook
// gives it, which fails with a *dl.DeviceError, is the blank answer.
func DeviceFix(f func() *dl.Tensor) Result {
	const label = "Ejercicio 2"
	dev := dl.Sim(0)
	back := nb06Moved(dev, dl.CPU)
	var out *dl.Tensor
	err := catch(func() { out = f() })
	movedBack := nb06Moved(dev, dl.CPU) - back
	switch {
	case errors.Is(err, dl.ErrDevice):
		return blank(label, "La función ejercicio2 todavía mezcla devices (%v). Arréglala: lleva x al device de w con x.To(...) antes del producto.", err)
	case err != nil:
		return wrong(label, "tu función entró en pánico: %v", err)
	case out == nil:
		return wrong(label, "ejercicio2 debe devolver el producto w·x, y devuelve nil.")
	case out.Device() != dev:
		return wrong(label, "ya no falla, pero el resultado está en %v y debería estar en %v: mueve x al device de w, no w a la CPU.", out.Device(), dev)
	case movedBack > 0:
		return wrong(label, "el producto está en %v, pero se copiaron %d bytes de %v a la CPU: el ejercicio pide no mover w (ni el resultado). Mueve solo x.", dev, movedBack, dev)
	case !slices.Equal(out.Shape(), []int{4, 2}):
		return wrong(label, "el producto de w [4, 3] por x [3, 2] es [4, 2], y tu resultado es %v: no traspongas ni cambies los datos, solo el device de x.", out.Shape())
	}
	return correct(label, "el producto %v está en %v, y solo se copió x.", out.Shape(), out.Device())
}
