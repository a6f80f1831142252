package exercises

import (
	"math"
	"slices"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/bench"
)

// Checkers of 05-computacion-eficiente.ipynb.

// nb05Layer is a convolution layer of the im2col exercises: input
// channels, height and width, a k×k filter, stride, padding and dilation.
type nb05Layer struct {
	name                  string
	cin, h, w, k, s, p, d int
}

// nb05Im2colLayers are the layers Im2colShape tries, from the notebook's
// LeNet to dilated filters with strides.
var nb05Im2colLayers = []nb05Layer{
	{"primera capa de una LeNet", 1, 28, 28, 5, 1, 0, 1},
	{"3×3 de 64 canales con relleno 1", 64, 14, 14, 3, 1, 1, 1},
	{"7×7 con paso 2 y relleno 3 sobre RGB 224×224", 3, 224, 224, 7, 2, 3, 1},
	{"3×3 con dilatación 2 y relleno 2", 8, 33, 17, 3, 1, 2, 2},
	{"3×3 con paso 2 y dilatación 3", 4, 20, 31, 3, 2, 0, 3},
}

// nb05ShapeByDl returns the [rows, columns] of the im2col matrix of one
// image as dl.Conv2d sees the layer: the elements of one filter, and the
// output positions of one filter over an image of zeros.
func nb05ShapeByDl(l nb05Layer, dilation int) (rows, cols int) {
	filter := dl.Zeros(1, l.cin, l.k, l.k)
	defer filter.Release()
	x := dl.Zeros(1, l.cin, l.h, l.w)
	defer x.Release()
	y := dl.Conv2d(x, filter, nil, dl.Conv2dOptions{Stride: [2]int{l.s, l.s}, Padding: [2]int{l.p, l.p}, Dilation: [2]int{dilation, dilation}})
	defer y.Release()
	return filter.Numel(), y.Shape()[2] * y.Shape()[3]
}

// Im2colShape checks exercise 1 of notebook 05: f(cin, h, w, k, s, p, d)
// must return the [rows, columns] of the im2col matrix of one Cin×H×W
// image for k×k filters with stride s, padding p and dilation d, as
// dl.Conv2d computes it, on five layers.  A function that returns 0, 0
// (the notebook's template) is the blank answer.
func Im2colShape(f func(cin, h, w, k, s, p, d int) (rows, cols int)) Result {
	const label = "Ejercicio 1"
	for i, l := range nb05Im2colLayers {
		var rows, cols int
		if err := catch(func() { rows, cols = f(l.cin, l.h, l.w, l.k, l.s, l.p, l.d) }); err != nil {
			return wrong(label, "tu función entró en pánico con la capa «%s»: %v", l.name, err)
		}
		wantRows, wantCols := nb05ShapeByDl(l, l.d)
		_, undilated := nb05ShapeByDl(l, 1)
		var hint string
		switch {
		case rows == 0 && cols == 0 && i == 0:
			return blank(label, "Completa formaIm2col: ahora devuelve 0, 0. Empieza por las filas: ¿cuántos valores de la entrada ve un filtro en cada posición?")
		case rows == wantRows && cols == wantCols:
			continue
		case rows != wantRows:
			hint = "las filas son la longitud de un campo receptivo: todos los canales de entrada por todas las posiciones del filtro"
		case l.d > 1 && cols == undilated:
			hint = "con dilatación d, un filtro de k posiciones abarca una ventana de d·(k−1)+1 valores, no de k"
		default:
			hint = "hay una columna por cada posición de la salida, Hout·Wout; revisa cómo calculas Hout con el paso, el relleno y la ventana"
		}
		return wrong(label, "%d de %d capas correctas. En la capa «%s» (Cin=%d, H=%d, W=%d, k=%d, paso %d, relleno %d, dilatación %d) tu forma es [%d, %d]: %s.",
			i, len(nb05Im2colLayers), l.name, l.cin, l.h, l.w, l.k, l.s, l.p, l.d, rows, cols, hint)
	}
	return correct(label, "las %d capas, también con paso y dilatación.", len(nb05Im2colLayers))
}

// nb05ConvShapes are the [N, Cin, H, W] inputs and [Cout, Cin, k, k]
// filters Conv2dAsMatMul tries: more than one channel and sample, and
// H ≠ W, so that a swapped axis shows.
var nb05ConvShapes = []struct{ x, w [4]int }{
	{[4]int{1, 1, 6, 6}, [4]int{2, 1, 3, 3}},
	{[4]int{2, 3, 7, 9}, [4]int{4, 3, 3, 3}},
	{[4]int{3, 2, 8, 5}, [4]int{5, 2, 2, 2}},
}

// nb05MaxDiff returns the largest |a−b| over the values of two tensors of
// one shape, relative to the largest |b| (at least 1).
func nb05MaxDiff(a, b *dl.Tensor) float64 {
	av, bv := a.Float64s(), b.Float64s()
	d, m := 0.0, 1.0
	for i := range av {
		d, m = math.Max(d, math.Abs(av[i]-bv[i])), math.Max(m, math.Abs(bv[i]))
	}
	return d / m
}

// Conv2dAsMatMul checks exercise 2 of notebook 05: f(x, w) must compute
// the convolution of a batch x [N, Cin, H, W] with filters w [Cout, Cin,
// k, k] (stride 1, no padding) as im2col and one MatMul, built from dl's
// ops (Narrow, Stack, Reshape, MatMul).  It is compared with
// dl.Conv2dNaive on random inputs of three shapes; the result must agree
// to 10⁻⁴ (float32).  A function that returns nil is the blank answer.
func Conv2dAsMatMul(f func(x, w *dl.Tensor) *dl.Tensor) Result {
	const label = "Ejercicio 2"
	gen := dl.Options{Generator: dl.NewGenerator(55)}
	for i, c := range nb05ConvShapes {
		x, w := gen.Randn(c.x[:]...), gen.Randn(c.w[:]...)
		want := dl.Conv2dNaive(x, w, nil, dl.Conv2dOptions{})
		var got *dl.Tensor
		if err := catch(func() { got = f(x, w) }); err != nil {
			return wrong(label, "tu función entró en pánico con x %v y w %v: %v", x.Shape(), w.Shape(), err)
		}
		if got == nil {
			if i == 0 {
				return blank(label, "Completa convVentanas: ahora devuelve nil. Con x.Narrow recorta una ventana por cada posición (i, j) del filtro, júntalas con dl.Stack y multiplica los pesos aplanados por esa matriz con MatMul.")
			}
			return wrong(label, "tu función devolvió nil con x %v y w %v.", x.Shape(), w.Shape())
		}
		if !slices.Equal(got.Shape(), want.Shape()) {
			return wrong(label, "con x %v y w %v la salida debe tener forma [N, Cout, H−k+1, W−k+1] = %v, y la tuya es %v.", x.Shape(), w.Shape(), want.Shape(), got.Shape())
		}
		if nb05MaxDiff(got, want) <= 1e-4 {
			continue
		}
		return wrong(label, "con x %v y w %v tus valores no son los de dl.Conv2dNaive (diferencia relativa %s): %s", x.Shape(), w.Shape(), decimal("%.2g", nb05MaxDiff(got, want)), nb05ConvHint(got, x, w))
	}
	return correct(label, "im2col con Narrow y Stack y un solo MatMul dan la convolución de dl.Conv2dNaive en %d formas.", len(nb05ConvShapes))
}

// nb05ConvHint names the likely mistake of a convolution that gives got:
// the one whose result got matches (a flipped filter, rows and columns
// of the filter swapped, the columns' rows in the wrong order), or a
// general hint.
func nb05ConvHint(got, x, w *dl.Tensor) string {
	cout, cin, k := w.Size(0), w.Size(1), w.Size(2)
	flipped := slices.Clone(w.Float32s())
	for o := range cout * cin {
		slices.Reverse(flipped[o*k*k : (o+1)*k*k])
	}
	for _, m := range []struct {
		w    *dl.Tensor
		hint string
	}{
		{dl.FromSlice(flipped, w.Shape()...), "tu resultado es el de los filtros girados 180°. En deep learning «convolución» es una correlación cruzada: la ventana que empieza en (i, j) se multiplica por w tal cual, sin girarlo."},
		{w.Transpose(2, 3), "tu resultado es el de los filtros traspuestos: ¿intercambiaste i y j? El desplazamiento i de la fila del filtro va por el eje 2 de x (la altura), y j por el eje 3 (la anchura)."},
		{w.Reshape(cout, k, k, cin).Permute(0, 3, 1, 2), "las filas de tu matriz de columnas van en el orden (i, j, canal), y las de w.Reshape(Cout, Cin·k·k) en el orden (canal, i, j): apila las ventanas en el eje 2, detrás del de los canales, para que coincidan."},
	} {
		if ref := dl.Conv2dNaive(x, m.w, nil, dl.Conv2dOptions{}); nb05MaxDiff(got, ref) <= 1e-4 {
			return m.hint
		}
	}
	return "compara tu función con dl.Conv2dNaive(x, w, nil, dl.Conv2dOptions{}) en un caso pequeño (dl.Arange(0, 16, 1).Reshape(1, 1, 4, 4) y un filtro 2×2). La ventana (i, j) es x.Narrow(2, i, Hout).Narrow(3, j, Wout)."
}

// MatMulGFLOP checks exercise 3 of notebook 05: the GFLOP of a
// 2048×2048 by 2048×2048 product, 2n³/10⁹ (within 0,1 %).  0 is the blank
// answer.
func MatMulGFLOP(gflop float64) Result {
	const label = "Ejercicio 3"
	want := bench.FLOPs(2048) / 1e9
	switch {
	case gflop == 0:
		return blank(label, "Escribe en gflop2048 los GFLOP (miles de millones de operaciones de coma flotante) de un producto de matrices 2048×2048 por 2048×2048.")
	case within(gflop, want, 1e-3):
		return correct(label, "%s GFLOP.", decimal("%.1f", want))
	case within(gflop, want/2, 1e-3):
		return wrong(label, "has contado multiplicaciones-suma (n³). En FLOP se cuentan la multiplicación y la suma por separado: 2n³.")
	case within(gflop, want*1e9, 1e-3), within(gflop, want*1e9/2, 1e-3):
		return wrong(label, "la respuesta va en GFLOP: divide los FLOP entre 10⁹.")
	}
	return wrong(label, "cada elemento de C es un producto escalar de longitud n (n multiplicaciones y n sumas), y hay n² elementos. Tu respuesta es %s GFLOP.", decimal("%g", gflop))
}

// NaiveSeconds4096 checks exercise 4 of notebook 05: the seconds the naive
// kernel would take for n = 4096, from the notebook's measurement rs (the
// time of the largest size measured, scaled as n³; within 25 %).  0 is
// the blank answer.
func NaiveSeconds4096(seconds float64, rs []bench.MatMulResult) Result {
	const label = "Ejercicio 4"
	var naive bench.MatMulResult
	for _, r := range rs {
		if r.Kernel == "naive" && r.Skipped == "" && r.Size > naive.Size {
			naive = r
		}
	}
	if seconds == 0 {
		return blank(label, "Escribe en segundosNaive4096 los segundos que tardaría el bucle ingenuo (naive) con n = 4096, a partir de su medida en la tabla.")
	}
	if naive.Size == 0 {
		return wrong(label, "no hay ninguna medida del kernel naive en la tabla: ejecuta la celda de las medidas (kernelsCPU) antes de esta.")
	}
	ratio := 4096 / float64(naive.Size)
	want := naive.Seconds * math.Pow(ratio, 3)
	switch {
	case within(seconds, want, 0.25):
		return correct(label, "unos %.0f s (%s minutos) con tu medida: naive con n=%d tardó %s s.", want, decimal("%.1f", want/60), naive.Size, decimal("%.3g", naive.Seconds))
	case within(seconds, naive.Seconds*ratio*ratio, 0.25):
		return wrong(label, "has escalado con n²; el producto hace n³ multiplicaciones-suma, así que el tiempo crece como n³.")
	case within(seconds, want/60, 0.25):
		return wrong(label, "eso parecen minutos; la respuesta va en segundos.")
	case within(seconds, bench.FLOPs(4096)/(naive.GFLOPS*1e9)/2, 0.25) || within(seconds, 2*bench.FLOPs(4096)/(naive.GFLOPS*1e9), 0.25):
		return wrong(label, "con GFLOP/s, el tiempo es 2n³ FLOP entre los FLOP/s (GFLOP/s × 10⁹); revisa el factor 2.")
	}
	return wrong(label, "parte del tiempo de naive con el mayor n medido en la tabla (n=%d) y escálalo como n³ hasta 4096. Tu respuesta es %s s.", naive.Size, decimal("%g", seconds))
}
