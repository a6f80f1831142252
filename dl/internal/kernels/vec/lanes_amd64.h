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
