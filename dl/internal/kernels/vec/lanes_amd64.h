// SUMLANES(za, zb, ya, yb, xa, xb): xa = the sum of the 16 float64 lanes
// of za and zb, as sumLanes adds them; za and the Y/X registers of zb are
// scratch (ya, xa are za's, yb, xb zb's).
#define SUMLANES(za, zb, ya, yb, xa, xb) \
	VADDPD        zb, za, za; \
	VEXTRACTF64X4 $1, za, yb; \
	VADDPD        yb, ya, ya; \
	VEXTRACTF128  $1, ya, xb; \
	VADDPD        xb, xa, xa; \
	VPERMILPD     $1, xa, xb; \
	VADDSD        xb, xa, xa

// MAXLANES8: X0's lane 0 = the largest of Y0's 8 lanes, stored to
// m+16(FP) (Max's loops; Y0 and X1 scratch).
#define MAXLANES8 \
	VEXTRACTF128 $1, Y0, X1; \
	VMAXPS       X1, X0, X0; \
	VPERMILPS    $0x4e, X0, X1; \
	VMAXPS       X1, X0, X0; \
	VPERMILPS    $0xb1, X0, X1; \
	VMAXPS       X1, X0, X0; \
	MOVSS        X0, m+16(FP)
