package exercises

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/bench"
)

// formaIm2col is the reference solution of exercise 1 of notebook 05.
func formaIm2col(cin, h, w, k, s, p, d int) (filas, columnas int) {
	ventana := d*(k-1) + 1 // what a dilated filter spans
	hout, wout := (h+2*p-ventana)/s+1, (w+2*p-ventana)/s+1
	return cin * k * k, hout * wout
}

// convVentanas is the reference solution of exercise 2 of notebook 05:
// one window of x per filter position, stacked behind the channels, and a
// single MatMul (convWindows without a mistake).
var convVentanas = convWindows("")

// convWindows computes the convolution as windows + MatMul, with one of
// the mistakes students make ("flip": the filter flipped, a true
// convolution; "swap": i and j swapped; "order": the windows stacked in
// front of the channels) or none ("").
func convWindows(mistake string) func(x, w *dl.Tensor) *dl.Tensor {
	return func(x, w *dl.Tensor) *dl.Tensor {
		n, cin, h, wd := x.Size(0), x.Size(1), x.Size(2), x.Size(3)
		cout, k := w.Size(0), w.Size(2)
		hout, wout := h-k+1, wd-k+1
		var ventanas []*dl.Tensor
		for i := range k {
			for j := range k {
				switch mistake {
				case "flip":
					ventanas = append(ventanas, x.Narrow(2, k-1-i, hout).Narrow(3, k-1-j, wout))
				case "swap":
					ventanas = append(ventanas, x.Narrow(2, j, hout).Narrow(3, i, wout))
				default:
					ventanas = append(ventanas, x.Narrow(2, i, hout).Narrow(3, j, wout))
				}
			}
		}
		axis := 2
		if mistake == "order" {
			axis = 1
		}
		columnas := dl.Stack(ventanas, axis).Reshape(n, cin*k*k, hout*wout)
		return w.Reshape(cout, cin*k*k).MatMul(columnas).Reshape(n, cout, hout, wout)
	}
}

func TestIm2colShape(t *testing.T) {
	nb04CheckCases(t, []nb04Case{
		{name: "right", result: Im2colShape(formaIm2col), ok: true, note: "las 5 capas"},
		{name: "wrong/no dilation", result: Im2colShape(func(cin, h, w, k, s, p, d int) (int, int) { return formaIm2col(cin, h, w, k, s, p, 1) }),
			note: "3 de 5 capas correctas. En la capa «3×3 con dilatación 2 y relleno 2»"},
		{name: "wrong/rows", result: Im2colShape(func(cin, h, w, k, s, p, d int) (int, int) {
			_, c := formaIm2col(cin, h, w, k, s, p, d)
			return k * k, c
		}),
			note: "1 de 5 capas correctas"},
		{name: "wrong/stride", result: Im2colShape(func(cin, h, w, k, s, p, d int) (int, int) { return formaIm2col(cin, h, w, k, 1, p, d) }),
			note: "Hout·Wout"},
		{name: "wrong/panic", result: Im2colShape(func(cin, h, w, k, s, p, d int) (int, int) { return cin * k * k / (p - p), 0 }),
			note: "entró en pánico"},
		{name: "blank", result: Im2colShape(func(cin, h, w, k, s, p, d int) (int, int) { return 0, 0 }), blank: true, note: "formaIm2col"},
	})
}

func TestConv2dAsMatMul(t *testing.T) {
	nb04CheckCases(t, []nb04Case{
		{name: "right", result: Conv2dAsMatMul(convVentanas), ok: true, note: "en 3 formas"},
		{name: "wrong/flipped", result: Conv2dAsMatMul(convWindows("flip")), note: "girados 180°"},
		{name: "wrong/swapped", result: Conv2dAsMatMul(convWindows("swap")), note: "¿intercambiaste i y j?"},
		{name: "wrong/order", result: Conv2dAsMatMul(convWindows("order")), note: "orden (i, j, canal)"},
		{name: "wrong/shape", result: Conv2dAsMatMul(func(x, w *dl.Tensor) *dl.Tensor { return dl.Zeros(1, 2, 3, 3) }), note: "forma [N, Cout, H−k+1, W−k+1] = [1 2 4 4]"},
		{name: "wrong/values", result: Conv2dAsMatMul(func(x, w *dl.Tensor) *dl.Tensor { return convVentanas(x, w).MulScalar(2) }), note: "en un caso pequeño"},
		{name: "wrong/panic", result: Conv2dAsMatMul(func(x, w *dl.Tensor) *dl.Tensor { return x.MatMul(w) }), note: "entró en pánico"},
		{name: "wrong/nil later", result: Conv2dAsMatMul(func(x, w *dl.Tensor) *dl.Tensor {
			if x.Size(0) > 1 {
				return nil
			}
			return convVentanas(x, w)
		}), note: "devolvió nil"},
		{name: "blank", result: Conv2dAsMatMul(func(x, w *dl.Tensor) *dl.Tensor { return nil }), blank: true, note: "convVentanas"},
	})
}

func TestMatMulGFLOP(t *testing.T) {
	right := 2 * math.Pow(2048, 3) / 1e9 // the reference solution: 2n³ FLOP
	nb04CheckCases(t, []nb04Case{
		{name: "right", result: MatMulGFLOP(right), ok: true, note: "17,2 GFLOP"},
		{name: "rounded", result: MatMulGFLOP(17.18), ok: true},
		{name: "wrong/n³", result: MatMulGFLOP(right / 2), note: "multiplicaciones-suma"},
		{name: "wrong/FLOP", result: MatMulGFLOP(right * 1e9), note: "divide los FLOP entre 10⁹"},
		{name: "wrong/other", result: MatMulGFLOP(4.2), note: "Tu respuesta es 4,2 GFLOP"},
		{name: "blank", result: MatMulGFLOP(0), blank: true, note: "gflop2048"},
	})
}

func TestNaiveSeconds4096(t *testing.T) {
	// A real measurement of the naive kernel, small enough for a test.
	rs, err := bench.MatMul(bench.MatMulConfig{Sizes: []int{32}, Kernels: []dl.MatMulKernel{dl.MatMulNaive}, Reps: 1, Budget: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	naive := rs[len(rs)-1]
	right := naive.Seconds * math.Pow(4096/32.0, 3) // the reference solution
	nb04CheckCases(t, []nb04Case{
		{name: "right", result: NaiveSeconds4096(right, rs), ok: true, note: "con n=32"},
		{name: "wrong/n²", result: NaiveSeconds4096(naive.Seconds*128*128, rs), note: "n²"},
		{name: "wrong/minutes", result: NaiveSeconds4096(right/60, rs), note: "minutos"},
		{name: "wrong/other", result: NaiveSeconds4096(right*10, rs), note: "n=32"},
		{name: "wrong/no measurement", result: NaiveSeconds4096(right, nil), note: "kernelsCPU"},
		{name: "blank", result: NaiveSeconds4096(0, rs), blank: true, note: "segundosNaive4096"},
	})
}

func ExampleMatMulGFLOP() {
	fmt.Println(MatMulGFLOP(0))
	fmt.Println(MatMulGFLOP(8.589934592))
	fmt.Println(MatMulGFLOP(17.179869184))
	// Output:
	// Ejercicio 3: aún sin respuesta. Escribe en gflop2048 los GFLOP (miles de millones de operaciones de coma flotante) de un producto de matrices 2048×2048 por 2048×2048.
	// Ejercicio 3: todavía no. Pista: has contado multiplicaciones-suma (n³). En FLOP se cuentan la multiplicación y la suma por separado: 2n³.
	// Ejercicio 3: correcto, 17,2 GFLOP.
}
