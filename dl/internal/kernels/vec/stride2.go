package vec

import "fmt"

// Gather2Rows copies every other element of rows of src into consecutive
// rows of dst: dst[r*cols+i] = src[r*ld+2*i] for r < rows, i < cols, as
// the im2col of a stride-2 convolution reads the input rows of a tap.  It
// panics if dst is shorter than rows*cols or src than the last element
// read, (rows-1)*ld + 2*cols - 1.
func Gather2Rows(dst, src []float32, rows, cols, ld int) {
	if rows <= 0 || cols <= 0 {
		return
	}
	checkStride2("Gather2Rows", len(dst), len(src), rows, cols, ld)
	if !gather2RowsVec(dst, src, rows, cols, ld) {
		for r := range rows {
			d, s := dst[r*cols:][:cols], src[r*ld:]
			for i := range d {
				d[i] = s[2*i]
			}
		}
	}
}

// ScatterAdd2Rows is the transpose of Gather2Rows: it adds
// src[r*cols+i] into dst[r*ld+2*i], rounding like the Go expression, as
// the col2im of a stride-2 convolution adds a tap's gradient into the
// input rows.  Only those elements of dst are read and written.  It
// panics if src is shorter than rows*cols or dst than the last element
// written, (rows-1)*ld + 2*cols - 1.
func ScatterAdd2Rows(dst, src []float32, rows, cols, ld int) {
	if rows <= 0 || cols <= 0 {
		return
	}
	checkStride2("ScatterAdd2Rows", len(src), len(dst), rows, cols, ld)
	if !scatterAdd2RowsVec(dst, src, rows, cols, ld) {
		for r := range rows {
			d, s := dst[r*ld:], src[r*cols:][:cols]
			for i, v := range s {
				d[2*i] += v
			}
		}
	}
}

// checkStride2 panics unless the packed side holds rows*cols elements and
// the strided side reaches (rows-1)*ld + 2*cols - 1, with ld >= 2*cols-1
// (rows that do not overlap).
func checkStride2(op string, packed, strided, rows, cols, ld int) {
	if ld < 2*cols-1 && rows > 1 {
		panic(fmt.Sprintf("vec: %s: ld = %d is less than 2*cols-1 = %d: the strided rows would overlap", op, ld, 2*cols-1))
	}
	if packed < rows*cols {
		panic(fmt.Sprintf("vec: %s: packed slice of %d elements, want at least rows*cols = %d", op, packed, rows*cols))
	}
	if need := (rows-1)*ld + 2*cols - 1; strided < need {
		panic(fmt.Sprintf("vec: %s: strided slice of %d elements, want at least (rows-1)*ld + 2*cols - 1 = %d", op, strided, need))
	}
}

// stride2Masks returns the masks of the partial block of a row of cols
// outputs (cols%16 of them): the source lanes of a gather (or the
// destination lanes of a scatter) in the low and high vectors, and the
// packed lanes.
func stride2Masks(cols int, gather bool) (lo, hi, packed uint64) {
	r := cols % 16
	packed = 1<<r - 1
	if gather { // elements 0..2r-2
		n := max(2*r-1, 0)
		return 1<<min(n, 16) - 1, 1<<max(n-16, 0) - 1, packed
	}
	even := uint64(0x5555) // the even elements 0..2r-2
	return even & (1<<min(2*r, 16) - 1), even & (1<<max(2*r-16, 0) - 1), packed
}
