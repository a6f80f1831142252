// dl's CUDA kernels. dl/internal/cuda compiles this file at run time with
// NVRTC, for the GPU that is present (sm_90 on an H100/H200), the first time
// a CUDA tensor needs one of them.
//
// How to read a kernel: the GPU runs the function once per thread; threads
// come in blocks (here 256 threads) and blocks in a grid. A thread finds
// its element from its coordinates: blockIdx.x * blockDim.x + threadIdx.x.
// The "grid-stride loop" (FOR_EACH) lets a grid of any size cover any n:
// thread t handles t, t + G, t + 2G, ... where G is the number of threads.
// Neighbouring threads touch neighbouring elements, so a warp (32 threads)
// reads one contiguous stretch of memory: a "coalesced" access.
//
// Element types: float (f32) and double (f64) for arithmetic; float16 (f16)
// and bfloat16 (bf16) are stored as unsigned short and only converted here
// (cast_*), as dl computes them in float32. Course: "Computación eficiente
// para Deep Learning" (GPUs y CUDA).

typedef long long i64;
typedef unsigned short u16;

#define FOR_EACH(i, n) \
    for (i64 i = blockIdx.x * (i64)blockDim.x + threadIdx.x; i < (n); i += (i64)gridDim.x * blockDim.x)

// ---------------------------------------------------------------- fill --

extern "C" __global__ void fill_f32(float* y, float v, i64 n) { FOR_EACH(i, n) y[i] = v; }
extern "C" __global__ void fill_f64(double* y, double v, i64 n) { FOR_EACH(i, n) y[i] = v; }
extern "C" __global__ void fill_u16(u16* y, unsigned int bits, i64 n) { FOR_EACH(i, n) y[i] = (u16)bits; }

// ---------------------------------------------------------------- cast --
// The 16-bit formats, converted exactly as dl's CPU code does
// (dl/internal/kernels/half): round to nearest, ties to even.

// float16 <-> float32: one PTX instruction each way ("cvt"), written as
// inline assembly so that no header is needed.
__device__ float f16_to_f32(u16 h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
__device__ u16 f32_to_f16(float f) { u16 h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }

// bfloat16 is the upper half of a float32: widening is a shift.
__device__ float bf16_to_f32(u16 b) { return __uint_as_float((unsigned int)b << 16); }
// Narrowing rounds the dropped 16 bits to nearest even: add 0x7FFF plus
// the lowest kept bit, then truncate. NaN stays a (quiet) NaN.
__device__ u16 f32_to_bf16(float f) {
    unsigned int u = __float_as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (u16)((u >> 16) | 0x0040u);
    return (u16)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

// Loads and stores through float (f16, bf16, f32) or double (f64). double
// to a 16-bit format goes through float, as on the CPU.
__device__ double load(const float* p, i64 i) { return p[i]; }
__device__ double load(const double* p, i64 i) { return p[i]; }
template <int KIND> __device__ double load16(const u16* p, i64 i) { return KIND == 16 ? f16_to_f32(p[i]) : bf16_to_f32(p[i]); }
__device__ void store(float* p, i64 i, double v) { p[i] = (float)v; }
__device__ void store(double* p, i64 i, double v) { p[i] = v; }
template <int KIND> __device__ void store16(u16* p, i64 i, double v) { p[i] = KIND == 16 ? f32_to_f16((float)v) : f32_to_bf16((float)v); }

// One kernel per (source, destination) pair: cast_<src>_<dst>.
#define CAST(S, ST, D, DT, LOAD, STORE) \
    extern "C" __global__ void cast_##S##_##D(const ST* x, DT* y, i64 n) { FOR_EACH(i, n) STORE(y, i, LOAD(x, i)); }
CAST(f32, float, f64, double, load, store)
CAST(f64, double, f32, float, load, store)
CAST(f32, float, f16, u16, load, store16<16>)
CAST(f32, float, bf16, u16, load, store16<0>)
CAST(f64, double, f16, u16, load, store16<16>)
CAST(f64, double, bf16, u16, load, store16<0>)
CAST(f16, u16, f32, float, load16<16>, store)
CAST(bf16, u16, f32, float, load16<0>, store)
CAST(f16, u16, f64, double, load16<16>, store)
CAST(bf16, u16, f64, double, load16<0>, store)
CAST(f16, u16, bf16, u16, load16<16>, store16<0>)
CAST(bf16, u16, f16, u16, load16<0>, store16<16>)

// --------------------------------------------------------------- unary --
// y[i] = f(x[i]). Each op is written once as a template; UNARY makes the
// float and double kernels <name>_f32 and <name>_f64. CUDA's math library
// has float and double versions of exp, log, tanh, ... (expf for float).

#define UNARY(NAME, EXPR)                                                                     \
    template <typename T> __device__ T NAME##_op(T x) { return EXPR; }                        \
    extern "C" __global__ void NAME##_f32(const float* x, float* y, i64 n) { FOR_EACH(i, n) y[i] = NAME##_op(x[i]); } \
    extern "C" __global__ void NAME##_f64(const double* x, double* y, i64 n) { FOR_EACH(i, n) y[i] = NAME##_op(x[i]); }

// Each formula is the one of dl's CPU code (host_unary.go).
template <typename T> __device__ T sigmoid(T x) { // two branches: exp never overflows
    if (x >= T(0)) return T(1) / (T(1) + exp(-x));
    T e = exp(x);
    return e / (T(1) + e);
}
template <typename T> __device__ T gelu(T x) { return T(0.5) * x * (T(1) + erf(x * T(0.70710678118654752440))); }
template <typename T> __device__ T gelu_tanh(T x) {
    return T(0.5) * x * (T(1) + tanh(T(0.7978845608028654) * (x + T(0.044715) * x * x * x)));
}
template <typename T> __device__ T gelu_grad(T x) { // d/dx x·Φ(x) = Φ(x) + x·φ(x)
    return T(0.5) * (T(1) + erf(x * T(0.70710678118654752440))) + x * exp(T(-0.5) * x * x) * T(0.39894228040143267794);
}
template <typename T> __device__ T gelu_tanh_grad(T x) {
    T t = tanh(T(0.7978845608028654) * (x + T(0.044715) * x * x * x));
    T du = T(0.7978845608028654) * (T(1) + T(3 * 0.044715) * x * x);
    return T(0.5) * (T(1) + t) + T(0.5) * x * (T(1) - t * t) * du;
}

UNARY(neg, -x)
UNARY(exp, exp(x))
UNARY(log, log(x))
UNARY(sqrt, sqrt(x))
UNARY(rsqrt, T(1) / sqrt(x))
UNARY(tanh, tanh(x))
UNARY(sigmoid, sigmoid(x))
UNARY(relu, x > T(0) ? x : T(0))
UNARY(abs, fabs(x))
UNARY(gelu, gelu(x))            // exact GELU, like torch.nn.GELU()
UNARY(gelu_tanh, gelu_tanh(x))  // torch.nn.GELU(approximate="tanh")

// -------------------------------------------------------------- binary --
// y = f(a, b), elementwise. The plain kernels assume a, b and y have the
// same shape; the _bc ("broadcast") kernels follow PyTorch's broadcasting:
// y has shape dims[0..ndim), and a dimension where a (or b) has size 1
// gets stride 0, so the same element is read again along it. Shapes and
// strides arrive by value in a small struct (no copy to device memory).

#define MAXDIMS 8
struct Layout {
    i64 ndim;
    i64 dims[MAXDIMS];    // output shape
    i64 astride[MAXDIMS]; // a's stride along each output axis (0: broadcast)
    i64 bstride[MAXDIMS];
};

// offsets turns output index i into the element offsets in a and b, by
// peeling the multi-index off the last axis first (row-major order).
__device__ void offsets(const Layout& L, i64 i, i64* oa, i64* ob) {
    i64 a = 0, b = 0;
    for (int d = (int)L.ndim - 1; d >= 0; d--) {
        i64 k = i % L.dims[d];
        i /= L.dims[d];
        a += k * L.astride[d];
        b += k * L.bstride[d];
    }
    *oa = a;
    *ob = b;
}

#define BINARY(NAME, EXPR)                                                                               \
    template <typename T> __device__ T NAME##_op(T a, T b) { return EXPR; }                              \
    extern "C" __global__ void NAME##_f32(const float* a, const float* b, float* y, i64 n) {             \
        FOR_EACH(i, n) y[i] = NAME##_op(a[i], b[i]);                                                     \
    }                                                                                                    \
    extern "C" __global__ void NAME##_f64(const double* a, const double* b, double* y, i64 n) {          \
        FOR_EACH(i, n) y[i] = NAME##_op(a[i], b[i]);                                                     \
    }                                                                                                    \
    extern "C" __global__ void NAME##_bc_f32(const float* a, const float* b, float* y, i64 n, Layout L) { \
        FOR_EACH(i, n) { i64 oa, ob; offsets(L, i, &oa, &ob); y[i] = NAME##_op(a[oa], b[ob]); }           \
    }                                                                                                    \
    extern "C" __global__ void NAME##_bc_f64(const double* a, const double* b, double* y, i64 n, Layout L) { \
        FOR_EACH(i, n) { i64 oa, ob; offsets(L, i, &oa, &ob); y[i] = NAME##_op(a[oa], b[ob]); }           \
    }

BINARY(add, a + b)
BINARY(sub, a - b)
BINARY(mul, a * b)
BINARY(div, a / b)
BINARY(pow, pow(a, b))
BINARY(max, a > b || a != a ? a : b) // NaN wins, like torch.maximum
BINARY(min, a < b || a != a ? a : b)
BINARY(eq, a == b ? T(1) : T(0))
BINARY(gt, a > b ? T(1) : T(0))
BINARY(left, a) // a broadcast to the output's shape (b only gives the shape)
// Gradient helpers of backward passes: a is the incoming gradient g, b the
// forward's output y (or input x for GELU).
BINARY(relu_grad, b > T(0) ? a : T(0))
BINARY(sigmoid_grad, a * b * (T(1) - b))
BINARY(tanh_grad, a * (T(1) - b * b))
BINARY(gelu_grad, a * gelu_grad(b))
BINARY(gelu_tanh_grad, a * gelu_tanh_grad(b))

// -------------------------------------------------------------- scalar --
// y[i] = f(x[i], s) with s a number: x + 2, x * 0.5, x ** 3. s arrives as
// a double; arithmetic uses it rounded to T, comparisons with max/min and
// powers use the double, exactly as host_binary.go does.

#define SCALAR(NAME, EXPR)                                                                      \
    template <typename T> __device__ T NAME##_sop(T x, T s, double sd) { return EXPR; }         \
    extern "C" __global__ void NAME##_f32(const float* x, float* y, double s, i64 n) {         \
        float sf = (float)s; FOR_EACH(i, n) y[i] = NAME##_sop(x[i], sf, s);                     \
    }                                                                                           \
    extern "C" __global__ void NAME##_f64(const double* x, double* y, double s, i64 n) {       \
        FOR_EACH(i, n) y[i] = NAME##_sop(x[i], s, s);                                           \
    }

__device__ double pow_s(double x, double s) { return s == 2 ? x * x : s == 0.5 ? sqrt(x) : pow(x, s); }

SCALAR(add_s, x + s)
SCALAR(sub_s, x - s)
SCALAR(rsub_s, s - x)
SCALAR(mul_s, x * s)
SCALAR(div_s, x / s)
SCALAR(rdiv_s, s / x)
SCALAR(pow_s, (T)pow_s((double)x, sd))
SCALAR(rpow_s, (T)pow(sd, (double)x))
SCALAR(max_s, (T)((double)x > sd || x != x ? (double)x : sd))
SCALAR(min_s, (T)((double)x < sd || x != x ? (double)x : sd))
SCALAR(eq_s, x == s ? T(1) : T(0))
SCALAR(gt_s, x > s ? T(1) : T(0))
SCALAR(lt_s, x < s ? T(1) : T(0))
SCALAR(keep_s, x)
SCALAR(set_s, s)

// -------------------------------------------------------------- reduce --
// The input is seen as [outer, n, inner] and reduced over the middle axis
// into [outer, inner]: a sum over axis 1 of a [4, 5, 6] tensor is outer=4,
// n=5, inner=6. One block computes one output element:
//  1. each of the block's threads walks its share of the n inputs (thread
//     t takes t, t + blockDim, ...) and keeps a partial result;
//  2. the partials meet in shared memory (fast on-chip memory shared by the
//     block) and are combined in a tree: 256 -> 128 -> ... -> 1, halving
//     the active threads each step, with __syncthreads() between steps so
//     that no thread reads a slot before it is written.
// Partials are doubles, for float inputs too: a long float32 sum loses
// digits, and the GPU's speed here is set by memory, not arithmetic.

// inf<T>() is +infinity (no headers here, so no INFINITY macro).
template <typename T> __device__ T inf();
template <> __device__ float inf<float>() { return __int_as_float(0x7f800000); }
template <> __device__ double inf<double>() { return __longlong_as_double(0x7ff0000000000000LL); }

struct Sum {
    __device__ static double init() { return 0; }
    __device__ static double combine(double a, double b) { return a + b; }
};
struct Max {
    __device__ static double init() { return -inf<double>(); }
    __device__ static double combine(double a, double b) { return a > b || a != a ? a : b; } // NaN propagates
};

#define BLOCK 256

template <typename T, typename OP>
__device__ void reduce_block(const T* x, T* y, i64 n, i64 inner) {
    __shared__ double part[BLOCK];
    i64 o = blockIdx.x / inner, in = blockIdx.x % inner; // which output element
    const T* row = x + o * n * inner + in;               // its n inputs, inner apart
    double acc = OP::init();
    for (i64 j = threadIdx.x; j < n; j += blockDim.x) acc = OP::combine(acc, (double)row[j * inner]);
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) part[threadIdx.x] = OP::combine(part[threadIdx.x], part[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0) y[blockIdx.x] = (T)part[0];
}

// Launch with outer*inner blocks of BLOCK threads (or fewer: a power of two).
#define REDUCE(NAME, OP)                                                                                      \
    extern "C" __global__ void NAME##_f32(const float* x, float* y, i64 n, i64 inner) { reduce_block<float, OP>(x, y, n, inner); } \
    extern "C" __global__ void NAME##_f64(const double* x, double* y, i64 n, i64 inner) { reduce_block<double, OP>(x, y, n, inner); }

REDUCE(reduce_sum, Sum)
REDUCE(reduce_max, Max)

// argmax: the same tree, carrying (value, index) pairs. better() is the
// order: NaN beats any number, and of equal values the lower index wins,
// as in torch.argmax. The index is stored as a T (exact below 2^24 in f32).
template <typename T>
__device__ bool better(T v, i64 j, T w, i64 k, i64 none) {
    if (j == none) return false; // nothing to offer
    if (k == none) return true;  // nothing to beat
    bool vnan = v != v, wnan = w != w;
    if (vnan || wnan) return vnan && (!wnan || j < k);
    return v > w || (v == w && j < k);
}

template <typename T>
__device__ void argmax_block(const T* x, T* y, i64 n, i64 inner) {
    __shared__ T val[BLOCK];
    __shared__ i64 idx[BLOCK];
    i64 o = blockIdx.x / inner, in = blockIdx.x % inner;
    const T* row = x + o * n * inner + in;
    T best = T(0);
    i64 bi = n; // n means "none yet"
    for (i64 j = threadIdx.x; j < n; j += blockDim.x)
        if (better(row[j * inner], j, best, bi, n)) { best = row[j * inner]; bi = j; }
    val[threadIdx.x] = best;
    idx[threadIdx.x] = bi;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        int t = threadIdx.x;
        if (t < s && better(val[t + s], idx[t + s], val[t], idx[t], n)) { val[t] = val[t + s]; idx[t] = idx[t + s]; }
        __syncthreads();
    }
    if (threadIdx.x == 0) y[blockIdx.x] = (T)idx[0];
}

extern "C" __global__ void argmax_f32(const float* x, float* y, i64 n, i64 inner) { argmax_block<float>(x, y, n, inner); }
extern "C" __global__ void argmax_f64(const double* x, double* y, i64 n, i64 inner) { argmax_block<double>(x, y, n, inner); }

// ------------------------------------------------------------- permute --
// A strided copy: y (contiguous) is x with its axes reordered. For output
// index i we peel off its multi-index over y's shape and add up x's strides
// along the same axes. This one kernel does transpose, permute and expand
// (an expanded axis has x-stride 0). Works on any element size.

struct Strided {
    i64 ndim;
    i64 dims[MAXDIMS];    // y's shape
    i64 xstride[MAXDIMS]; // x's stride (in elements) along each of y's axes
};

__device__ i64 strided_offset(const Strided& L, i64 i) {
    i64 off = 0;
    for (int d = (int)L.ndim - 1; d >= 0; d--) {
        off += (i % L.dims[d]) * L.xstride[d];
        i /= L.dims[d];
    }
    return off;
}

extern "C" __global__ void permute_b2(const u16* x, u16* y, i64 n, Strided L) { FOR_EACH(i, n) y[i] = x[strided_offset(L, i)]; }
extern "C" __global__ void permute_b4(const float* x, float* y, i64 n, Strided L) { FOR_EACH(i, n) y[i] = x[strided_offset(L, i)]; }
extern "C" __global__ void permute_b8(const double* x, double* y, i64 n, Strided L) { FOR_EACH(i, n) y[i] = x[strided_offset(L, i)]; }

// --------------------------------------------------------------- index --
// Row gathers and scatters, for embedding lookups and their gradients.
// idx holds row numbers (copied from the host for each call).

#define INDEX_SELECT(B, T)                                                                                   \
    extern "C" __global__ void index_select_b##B(const T* x, T* y, const i64* idx, i64 rows, i64 rowLen) { \
        FOR_EACH(e, rows * rowLen) y[e] = x[idx[e / rowLen] * rowLen + e % rowLen];                         \
    }
INDEX_SELECT(2, u16)
INDEX_SELECT(4, float)
INDEX_SELECT(8, double)

// index_add: y row idx[i] += x row i. A row number may repeat, so two
// threads can add into the same element at once; atomicAdd makes each
// addition indivisible (but their order, and so the rounding, varies from
// run to run, as with PyTorch's index_add_ on a GPU).
#define INDEX_ADD(S, T)                                                                                      \
    extern "C" __global__ void index_add_##S(const T* x, T* y, const i64* idx, i64 rows, i64 rowLen) {     \
        FOR_EACH(e, rows * rowLen) atomicAdd(&y[idx[e / rowLen] * rowLen + e % rowLen], x[e]);              \
    }
INDEX_ADD(f32, float)
INDEX_ADD(f64, double)

// where: y[i] = c[i] != 0 ? a[i] : b[i], a select rather than arithmetic,
// so NaN or Inf in the branch not taken never leaks into y.
extern "C" __global__ void where_f32(const float* c, const float* a, const float* b, float* y, i64 n) {
    FOR_EACH(i, n) y[i] = c[i] != 0 ? a[i] : b[i];
}
extern "C" __global__ void where_f64(const double* c, const double* a, const double* b, double* y, i64 n) {
    FOR_EACH(i, n) y[i] = c[i] != 0 ? a[i] : b[i];
}
