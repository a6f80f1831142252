package dl

// The kernel operations a backend implements (see backend.go), and the
// broadcasting descriptor binary kernels receive.

type float interface{ ~float32 | ~float64 }

// unaryOp is an elementwise function of one tensor.
type unaryOp uint8

const (
	opNeg      unaryOp = iota
	opExp              // e^x
	opLog              // natural logarithm
	opSqrt             // √x
	opRsqrt            // 1/√x
	opTanh             // tanh x
	opSigmoid          // 1/(1+e^-x)
	opReLU             // max(x, 0)
	opAbs              // |x|
	opGELU             // x·Φ(x), Φ the normal CDF (erf form)
	opGELUTanh         // tanh approximation of GELU
)

// binaryOp is an elementwise function of two tensors.
type binaryOp uint8

const (
	opAdd          binaryOp = iota
	opSub                   // a - b
	opMul                   // a · b
	opDiv                   // a / b
	opPow                   // a^b
	opMax                   // max(a, b)
	opMin                   // min(a, b)
	opEq                    // 1 if a == b else 0
	opGt                    // 1 if a > b else 0
	opLeft                  // a (broadcast copy: b only supplies the shape)
	opReLUGrad              // g · [y > 0]            (a = g, b = y = relu(x))
	opSigmoidGrad           // g · y · (1-y)          (b = y = sigmoid(x))
	opTanhGrad              // g · (1-y²)             (b = y = tanh(x))
	opGELUGrad              // g · GELU'(x)           (b = x)
	opGELUTanhGrad          // g · GELUTanh'(x)       (b = x)
)

// sameShapeOnly reports whether op is a gradient helper that ops only
// call on equal shapes (no broadcasting).
func (op binaryOp) sameShapeOnly() bool { return op >= opReLUGrad }

// scalarOp is an elementwise function of a tensor and a number s.
type scalarOp uint8

const (
	opAddS  scalarOp = iota // x + s
	opSubS                  // x - s
	opRSubS                 // s - x
	opMulS                  // x · s
	opDivS                  // x / s
	opRDivS                 // s / x
	opPowS                  // x^s
	opRPowS                 // s^x
	opMaxS                  // max(x, s)
	opMinS                  // min(x, s)
	opEqS                   // 1 if x == s else 0
	opGtS                   // 1 if x > s else 0
	opLtS                   // 1 if x < s else 0
	opKeepS                 // x
	opSetS                  // s
)

// right returns the scalar op computing op(x, s): b broadcast as a
// number.  left returns the one computing op(s, x).
func (op binaryOp) right() scalarOp {
	return [...]scalarOp{opAdd: opAddS, opSub: opSubS, opMul: opMulS, opDiv: opDivS, opPow: opPowS,
		opMax: opMaxS, opMin: opMinS, opEq: opEqS, opGt: opGtS, opLeft: opKeepS}[op]
}

func (op binaryOp) left() scalarOp {
	return [...]scalarOp{opAdd: opAddS, opSub: opRSubS, opMul: opMulS, opDiv: opRDivS, opPow: opRPowS,
		opMax: opMaxS, opMin: opMinS, opEq: opEqS, opGt: opLtS, opLeft: opSetS}[op]
}

// reduceOp is a reduction over one axis.
type reduceOp uint8

const (
	opSum    reduceOp = iota
	opMaxR            // maximum (NaN propagates)
	opArgMax          // index of the first maximum, stored as a float
)

// broadcast describes a broadcast binary op after collapsing axes: the
// output has dims, and a and b advance by sa[i], sb[i] elements along axis
// i (0 on broadcast axes).  Adjacent axes are merged where both inputs
// are contiguous across them, so the innermost axis is as long as
// possible.
type broadcast struct {
	dims, sa, sb []int
}

// newBroadcast returns the descriptor for out = op(a, b), or nil when a
// and b need no broadcasting (same number of elements as out).
func newBroadcast(out, a, b []int) *broadcast {
	n := numel(out)
	if numel(a) == n && numel(b) == n {
		return nil
	}
	r := len(out)
	bc := &broadcast{}
	sa, sb := broadcastStrides(a, r), broadcastStrides(b, r)
	for i := 0; i < r; i++ {
		if out[i] == 1 {
			continue
		}
		if k := len(bc.dims) - 1; k >= 0 && bc.sa[k] == sa[i]*out[i] && bc.sb[k] == sb[i]*out[i] {
			bc.dims[k] *= out[i] // merge with the previous axis
			bc.sa[k], bc.sb[k] = sa[i], sb[i]
			continue
		}
		bc.dims = append(bc.dims, out[i])
		bc.sa = append(bc.sa, sa[i])
		bc.sb = append(bc.sb, sb[i])
	}
	if len(bc.dims) == 0 {
		bc.dims, bc.sa, bc.sb = []int{1}, []int{0}, []int{0}
	}
	return bc
}

// broadcastStrides returns the strides of shape aligned right to rank r,
// with 0 on axes of size 1 (broadcast).
func broadcastStrides(shape []int, r int) []int {
	s := make([]int, r)
	acc := 1
	for i := len(shape) - 1; i >= 0; i-- {
		if shape[i] != 1 {
			s[r-len(shape)+i] = acc
		}
		acc *= shape[i]
	}
	return s
}

// broadcastShapes returns the broadcast of two shapes (NumPy rules), or
// panics with a *ShapeError naming op.
func broadcastShapes(op string, a, b []int) []int {
	r := max(len(a), len(b))
	out := make([]int, r)
	for i := 0; i < r; i++ {
		da, db := 1, 1
		if j := len(a) - r + i; j >= 0 {
			da = a[j]
		}
		if j := len(b) - r + i; j >= 0 {
			db = b[j]
		}
		switch {
		case da == db || db == 1:
			out[i] = da
		case da == 1:
			out[i] = db
		default:
			panic(shapeErr(op, [][]int{a, b},
				"sizes must match or be 1 on each axis, counting from the last (reshape or unsqueeze one operand)",
				"shapes %v and %v cannot be broadcast: axis %d has sizes %d and %d", a, b, i-r, da, db))
		}
	}
	return out
}
