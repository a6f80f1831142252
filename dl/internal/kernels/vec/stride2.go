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
// input rows.  Only those elements of dst change; the AVX2 loop rewrites
// the odd elements between them with the bits it read, so no other
// goroutine may write those meanwhile.  It
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

// MaxPool2Row computes one output row of a 2×2 max pooling with stride
// 2: for i < len(dst), the largest of top[2i], top[2i+1], bottom[2i],
// bottom[2i+1], scanned in that order (a later value replaces the best so
// far only if greater, or NaN: NaN is the maximum, as in PyTorch), into
// dst[i], and its index base+2i (+1, +w, +w+1 for the others) into
// arg[i].  It panics if arg is shorter than dst or a row shorter than
// 2*len(dst).
func MaxPool2Row(dst []float32, arg []int64, top, bottom []float32, base, w int) {
	n := len(dst)
	if len(arg) < n || len(top) < 2*n || len(bottom) < 2*n {
		panic(fmt.Sprintf("vec: MaxPool2Row: %d outputs need %d indexes (have %d) and rows of %d (have %d and %d)",
			n, n, len(arg), 2*n, len(top), len(bottom)))
	}
	if n == 0 || maxPool2RowVec(dst, arg, top, bottom, base, w) {
		return
	}
	maxPool2RowGeneric(dst, arg, top, bottom, base, w)
}

// maxPool2RowGeneric is MaxPool2Row's loop in Go.
func maxPool2RowGeneric(dst []float32, arg []int64, top, bottom []float32, base, w int) {
	for i := range dst {
		best, at := top[2*i], base+2*i
		if v := top[2*i+1]; v > best || v != v {
			best, at = v, base+2*i+1
		}
		if v := bottom[2*i]; v > best || v != v {
			best, at = v, base+w+2*i
		}
		if v := bottom[2*i+1]; v > best || v != v {
			best, at = v, base+w+2*i+1
		}
		dst[i], arg[i] = best, int64(at)
	}
}

// CopyRows copies rows of cols elements from src (row stride lds) to dst
// (row stride ldd) and clears the fill elements after each copied row in
// dst: the short rows that pad, unpad and re-lay the planes of a
// convolution, copied with vector moves instead of a call per row.  It
// panics if a row or its fill runs past dst or a row past src.
func CopyRows(dst []float32, ldd int, src []float32, lds, rows, cols, fill int) {
	if rows <= 0 || cols+fill <= 0 {
		return
	}
	if cols < 0 || fill < 0 || len(dst) < (rows-1)*ldd+cols+fill || len(src) < (rows-1)*lds+cols {
		panic(fmt.Sprintf("vec: CopyRows: %d rows of %d (+%d cleared) with strides %d (dst of %d) and %d (src of %d); want slices that hold them",
			rows, cols, fill, ldd, len(dst), lds, len(src)))
	}
	if copyRowsVec(dst, ldd, src, lds, rows, cols, fill) {
		return
	}
	for r := range rows {
		d := dst[r*ldd:][:cols+fill]
		copy(d, src[r*lds:][:cols])
		clear(d[cols:])
	}
}
