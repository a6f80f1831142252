package gemm

// Packing copies a block of op(A) or op(B) into the exact order the
// micro-kernel reads it, so that the kernel sees unit-stride, aligned,
// TLB-friendly streams whatever the transposes and leading dimensions are.
// Partial panels are zero-padded to MR / NR, which lets the kernel always
// compute a full tile.
//
// Packed A (mc x kc block, MR-row micro-panels):
//
//	dst[q*MR*kc + p*MR + r] = op(A)[ic + q*MR + r, pc + p]
//
// Packed B (kc x nc block, NR-column micro-panels):
//
//	dst[q*NR*kc + p*NR + j] = op(B)[pc + p, jc + q*NR + j]

import "unsafe"

// PackA packs rows [ic, ic+mc) x columns [pc, pc+kc) of op(A).
func PackA[T Float](dst []T, p *Args[T], ic, pc, mc, kc, mr int) {
	if p.Half != NoHalf {
		packHalf(dst, ic, pc, mc, kc, mr, p.at)
		return
	}
	for q := 0; q*mr < mc; q++ {
		rows := min(mr, mc-q*mr)
		panel := dst[q*mr*kc : (q+1)*mr*kc]
		if p.TransA {
			// op(A)[i,p] = A[p,i]: each k step is a contiguous run of A.
			for s := 0; s < kc; s++ {
				d := panel[s*mr : s*mr+mr]
				copy(d, p.A[(pc+s)*p.LDA+ic+q*mr:][:rows])
				clear(d[rows:])
			}
			continue
		}
		// op(A)[i,p] = A[i,p]: read each row sequentially and write it with
		// stride MR into the panel (MR*kc elements, small enough for L1).
		// The stores skip bounds checks: s < kc and r < MR bound the index
		// by len(panel) = MR*kc, checked by the slice expression above.
		var z T
		size := unsafe.Sizeof(z)
		base := unsafe.Pointer(&panel[0])
		for r := 0; r < rows; r++ {
			src := p.A[(ic+q*mr+r)*p.LDA+pc:][:kc]
			d := unsafe.Add(base, uintptr(r)*size)
			for s, v := range src {
				*(*T)(unsafe.Add(d, uintptr(mr*s)*size)) = v
			}
		}
		for r := rows; r < mr; r++ {
			for s := 0; s < kc; s++ {
				panel[s*mr+r] = 0
			}
		}
	}
}

// PackB packs rows [pc, pc+kc) x columns [jc, jc+nc) of op(B).
func PackB[T Float](dst []T, p *Args[T], pc, jc, kc, nc, nr int) {
	if p.Half != NoHalf {
		packHalf(dst, jc, pc, nc, kc, nr, func(j, q int) T { return p.bt(q, j) })
		return
	}
	for q := 0; q*nr < nc; q++ {
		cols := min(nr, nc-q*nr)
		panel := dst[q*nr*kc : (q+1)*nr*kc]
		if !p.TransB {
			// op(B)[p,j] = B[p,j]: NR contiguous elements per k step.
			for s := 0; s < kc; s++ {
				d := panel[s*nr : s*nr+nr]
				copy(d, p.B[(pc+s)*p.LDB+jc+q*nr:][:cols])
				clear(d[cols:])
			}
			continue
		}
		// op(B)[p,j] = B[j,p]: read rows of B sequentially, write stride NR.
		for j := 0; j < cols; j++ {
			src := p.B[(jc+q*nr+j)*p.LDB+pc:][:kc]
			for s, v := range src {
				panel[s*nr+j] = v
			}
		}
		for j := cols; j < nr; j++ {
			for s := 0; s < kc; s++ {
				panel[s*nr+j] = 0
			}
		}
	}
}

// packHalf is PackA (and, with at(j, q) = op(B)[q, j], PackB) for half
// operands, element by element through the decoding accessor: the
// portable reference the assembly packers of the dtype packages match:
//
//	dst[q*w*kc + s*w + r] = at(i0 + q*w + r, pc + s), or 0 past rows
func packHalf[T Float](dst []T, i0, pc, rows, kc, w int, at func(i, q int) T) {
	for q := 0; q*w < rows; q++ {
		panel := dst[q*w*kc : (q+1)*w*kc]
		for s := 0; s < kc; s++ {
			for r, d := 0, panel[s*w:s*w+w]; r < w; r++ {
				d[r] = 0
				if q*w+r < rows {
					d[r] = at(i0+q*w+r, pc+s)
				}
			}
		}
	}
}
