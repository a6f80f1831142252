package gemm

import "github.com/dlbd/dlbd/dl/internal/cancel"

// Naive is the course's triple loop ("bucles for"), the reference every
// faster kernel is tested against:
//
//	for i in range(m):
//	    for j in range(n):
//	        for p in range(k):
//	            C[i][j] += A[i][p] * B[p][j]
//
// with alpha, beta and the transposes of BLAS added.  The inner loop walks
// a column of B (stride ldb), so every step misses the cache once the
// matrices outgrow it: this is what makes it slow, not Go.  It checks
// the context of dl.SetCancel before each row of C (a *cancel.Stopped
// panic when it is done).
func Naive[T Float](p *Args[T]) {
	for i := 0; i < p.M; i++ {
		cancel.Check(p.Op)
		for j := 0; j < p.N; j++ {
			var sum T
			for q := 0; q < p.K; q++ {
				sum += p.at(i, q) * p.bt(q, j)
			}
			c := &p.C[i*p.LDC+j]
			if p.Beta == 0 {
				*c = p.Alpha * sum // beta == 0: C is not read
			} else {
				*c = p.Alpha*sum + p.Beta**c
			}
		}
	}
}

// at returns op(A)[i, q] (decoded when A is half).
func (p *Args[T]) at(i, q int) T {
	idx := i*p.LDA + q
	if p.TransA {
		idx = q*p.LDA + i
	}
	if p.Half != NoHalf {
		return T(p.Half.Decode(p.AH[idx]))
	}
	return p.A[idx]
}

// bt returns op(B)[q, j] (decoded when B is half).
func (p *Args[T]) bt(q, j int) T {
	idx := q*p.LDB + j
	if p.TransB {
		idx = j*p.LDB + q
	}
	if p.Half != NoHalf {
		return T(p.Half.Decode(p.BH[idx]))
	}
	return p.B[idx]
}
