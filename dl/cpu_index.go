package dl

// Host kernels for index-based ops (embedding lookup, gathers for
// cross-entropy and max, masked fills).

// indexSelect copies whole rows, so it works on bytes for every dtype.
func (cpuBackend) indexSelect(dst, src view, idx []int, rowLen int) {
	sz := dst.st.dtype.Size()
	selectRows(viewBytes(dst), viewBytes(src), idx, rowLen*sz)
}

// viewBytes returns the host bytes of v's elements.
func viewBytes(v view) []byte {
	sz := v.st.dtype.Size()
	return v.st.bytes()[v.off*sz : (v.off+v.n)*sz]
}

func selectRows[T any](dst, src []T, idx []int, rowLen int) {
	for i, r := range idx {
		copy(dst[i*rowLen:(i+1)*rowLen], src[r*rowLen:(r+1)*rowLen])
	}
}

func (cpuBackend) indexAdd(dst, src view, idx []int, rowLen int) {
	if dst.st.dtype == Float64 {
		addRows(dst.f64(), src.f64(), idx, rowLen)
	} else {
		addRows(dst.f32(), src.f32(), idx, rowLen)
	}
}

func addRows[F float](dst, src []F, idx []int, rowLen int) {
	for i, r := range idx {
		d, s := dst[r*rowLen:(r+1)*rowLen], src[i*rowLen:(i+1)*rowLen]
		for j, v := range s {
			d[j] += v
		}
	}
}

func (cpuBackend) where(dst, cond, a, b view) {
	if dst.st.dtype.isInt() {
		intKernel(dst, func(o []int64) { whereF(o, elems[int64](cond), elems[int64](a), elems[int64](b)) },
			func(o []int32) { whereF(o, elems[int32](cond), elems[int32](a), elems[int32](b)) },
			func(o []uint8) { whereF(o, elems[uint8](cond), elems[uint8](a), elems[uint8](b)) })
		return
	}
	if dst.st.dtype == Float64 {
		whereF(dst.f64(), cond.f64(), a.f64(), b.f64())
	} else {
		whereF(dst.f32(), cond.f32(), a.f32(), b.f32())
	}
}

func whereF[F number](o, c, a, b []F) {
	c, a, b = c[:len(o)], a[:len(o)], b[:len(o)]
	for i := range o {
		if c[i] != 0 {
			o[i] = a[i]
		} else {
			o[i] = b[i]
		}
	}
}
