package cuda

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// findHeader looks for a CUDA header in $DL_CUDA_INCLUDE_DIRS, the
// toolkit (/usr/local/cuda/include) and NVIDIA's wheels (nvidia/*/include).
func findHeader(t *testing.T, name string) string {
	t.Helper()
	dirs := filepath.SplitList(os.Getenv("DL_CUDA_INCLUDE_DIRS"))
	dirs = append(dirs, "/usr/local/cuda/include", "/usr/local/cuda/targets/"+targetTriple()+"/include")
	for _, site := range append(guessSites(os.Getenv), pythonSites()...) {
		m, _ := filepath.Glob(filepath.Join(site, "nvidia", "*", "include"))
		dirs = append(dirs, m...)
	}
	for _, d := range dirs {
		if b, err := os.ReadFile(filepath.Join(d, name)); err == nil && d != "" {
			return string(b)
		}
	}
	// Headers are a build-time check of the binding, not something a GPU
	// machine must have: skip even under DL_REQUIRE_CUDA=1.
	t.Skipf("skipped: %s not found (install NVIDIA's wheels or set DL_CUDA_INCLUDE_DIRS)", name)
	return ""
}

// declaration finds "RET [API] name(params);" at the start of a line and
// returns the parameter list.
func declaration(header, name string) (params string, ok bool) {
	re := regexp.MustCompile(`(?m)^[ \t]*(?:CUBLASAPI\s+)?(?:const\s+)?\w+\s*\*?\s*(?:CUDAAPI\s+|CUBLASWINAPI\s+)?` +
		regexp.QuoteMeta(name) + `\s*\(([^;{]*?)\)\s*;`)
	m := re.FindStringSubmatch(header)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// eightByteCTypes are C parameter types that are 8 bytes wide without a
// '*': 64-bit integers and the opaque handles (pointers in a typedef).
var eightByteCTypes = map[string]bool{
	"size_t": true, "CUdeviceptr": true, "unsigned long long": true, "long long": true, "CUcontext": true,
	"CUstream": true, "CUevent": true, "CUmodule": true, "CUfunction": true, "cublasHandle_t": true,
	"ncclComm_t": true, "cudaStream_t": true, "nvrtcProgram": true,
}

// cParamKind classifies one C parameter: "ptr", "8", "4", "1" or "float".
func cParamKind(p string) string {
	p = regexp.MustCompile(`\w+\s*$`).ReplaceAllString(strings.TrimSpace(p), "") // drop the parameter name
	p = strings.TrimSpace(strings.ReplaceAll(p, "const ", ""))
	switch {
	case strings.Contains(p, "*"):
		return "ptr"
	case eightByteCTypes[p]:
		return "8"
	case p == "float":
		return "float"
	case p == "unsigned char" || p == "char":
		return "1"
	case p == "ncclUniqueId":
		return "128" // a struct of 128 bytes, passed by value
	}
	return "4" // int, unsigned int, and the enums (CUresult, cudaDataType, ncclDataType_t, ...)
}

// goParamKind classifies a Go parameter like cParamKind. A uint64 is
// "dev": a device address, which C declares as a pointer (float* A) but
// which is a number to the host. A uintptr is never accepted for a C
// pointer: that is the host-buffer trap of driver.go.
func goParamKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer, reflect.UnsafePointer, reflect.String:
		return "ptr"
	case reflect.Float32:
		return "float"
	case reflect.Uint64:
		return "dev"
	}
	return strconv.Itoa(int(t.Size()))
}

// kindsMatch compares one C and one Go parameter kind.
func kindsMatch(c, g string) bool {
	return c == g || (c == "host" && g == "ptr") || (g == "dev" && (c == "ptr" || c == "8"))
}

// TestSignaturesMatchHeaders compares every bound function's Go type with
// its C declaration: same number of parameters, and each of the same kind
// and size (pointer, 4 or 8 bytes, float). A mismatch here would corrupt
// memory at run time, on a GPU we may not have; this test needs none.
func TestSignaturesMatchHeaders(t *testing.T) {
	for _, tc := range []struct {
		header string
		table  []symbol
	}{{"cuda.h", driverSymbols}, {"nvrtc.h", nvrtcSymbols}, {"cublas_api.h", blasSymbols}, {"nccl.h", ncclSymbols}} {
		t.Run(tc.header, func(t *testing.T) {
			h := findHeader(t, tc.header)
			for _, s := range tc.table {
				name := s.names[0]
				params, ok := declaration(h, name)
				if !ok { // cuda.h declares the plain name and #defines it to _v2
					if !regexp.MustCompile(`#define\s+` + strings.TrimSuffix(name, "_v2") + `\s+` + name + `\b`).MatchString(h) {
						if !s.optional {
							t.Errorf("%s: not declared in %s", name, tc.header)
						}
						continue
					}
					params, ok = declaration(h, strings.TrimSuffix(name, "_v2"))
				}
				if !ok {
					t.Errorf("%s: no declaration found in %s", name, tc.header)
					continue
				}
				var cKinds []string
				if strings.TrimSpace(params) != "void" && strings.TrimSpace(params) != "" {
					for _, p := range strings.Split(params, ",") {
						k := cParamKind(p)
						if strings.Contains(p, "Host") && k == "ptr" {
							k = "host" // a host buffer: must be a Go pointer, never a number
						}
						cKinds = append(cKinds, k)
					}
				}
				ft := reflect.TypeOf(s.fn).Elem()
				var goKinds []string
				for i := range ft.NumIn() {
					goKinds = append(goKinds, goParamKind(ft.In(i)))
				}
				if !slices.EqualFunc(cKinds, goKinds, kindsMatch) {
					t.Errorf("%s: C (%s) is %v; Go %v is %v", name, strings.Join(strings.Fields(params), " "), cKinds, ft, goKinds)
				}
			}
		})
	}
}

// TestConstantsMatchHeaders checks the enum values this package hard-codes.
func TestConstantsMatchHeaders(t *testing.T) {
	for _, tc := range []struct {
		header string
		want   map[string]int
	}{
		{"cuda.h", map[string]int{
			"CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK": attrMaxThreadsPerBlock, "CU_DEVICE_ATTRIBUTE_WARP_SIZE": attrWarpSize,
			"CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT": attrSMCount, "CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE": attrMemoryClockRate,
			"CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH": attrBusWidth, "CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE": attrL2CacheSize,
			"CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR": attrCCMajor, "CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR": attrCCMinor,
			"CU_MEMHOSTALLOC_PORTABLE": memHostAllocPortable, "CUDA_ERROR_OUT_OF_MEMORY": cudaErrorOutOfMemory,
			"CUDA_ERROR_NOT_INITIALIZED": cudaErrorNotInit, "CUDA_ERROR_STUB_LIBRARY": cudaErrorStubLibrary,
			"CUDA_ERROR_NO_DEVICE": cudaErrorNoDevice, "CUDA_ERROR_INVALID_DEVICE": cudaErrorInvalidDevice,
			"CUDA_ERROR_SYSTEM_NOT_READY": cudaErrorSystemNotReady, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH": cudaErrorDriverMismatch,
			"CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE": cudaErrorCompat,
		}},
		{"library_types.h", map[string]int{"CUDA_R_32F": int(R32F), "CUDA_R_64F": int(R64F), "CUDA_R_16F": int(R16F), "CUDA_R_16BF": int(R16BF)}},
		{"cublas_api.h", map[string]int{
			"CUBLAS_OP_N": int(NoTrans), "CUBLAS_OP_T": int(Trans), "CUBLAS_COMPUTE_32F": int(Compute32F),
			"CUBLAS_COMPUTE_32F_PEDANTIC": int(Compute32FPedantic), "CUBLAS_COMPUTE_32F_FAST_TF32": int(Compute32FFastTF32),
			"CUBLAS_DEFAULT_MATH": int(DefaultMath), "CUBLAS_TF32_TENSOR_OP_MATH": int(TF32Math),
			"CUBLAS_GEMM_DEFAULT": gemmDefault, "CUBLAS_STATUS_ALLOC_FAILED": cublasStatusAlloc,
		}},
		{"nccl.h", map[string]int{
			"ncclInt32": int(NCCLInt32), "ncclFloat16": int(NCCLFloat16), "ncclFloat32": int(NCCLFloat32),
			"ncclFloat64": int(NCCLFloat64), "ncclBfloat16": int(NCCLBFloat16),
			"ncclSum": int(Sum), "ncclProd": int(Prod), "ncclMax": int(Max), "ncclMin": int(Min), "ncclAvg": int(Avg),
		}},
	} {
		t.Run(tc.header, func(t *testing.T) {
			h := findHeader(t, tc.header)
			for name, want := range tc.want {
				m := regexp.MustCompile(`\b` + name + `\s*=\s*(-?(?:0x[0-9a-fA-F]+|\d+))`).FindStringSubmatch(h)
				if m == nil {
					m = regexp.MustCompile(`#define\s+` + name + `\s+\(?(-?(?:0x[0-9a-fA-F]+|\d+))`).FindStringSubmatch(h)
				}
				if m == nil {
					t.Errorf("%s not found in %s", name, tc.header)
					continue
				}
				got, _ := strconv.ParseInt(m[1], 0, 64)
				if int(got) != want {
					t.Errorf("%s = %d in %s; the Go constant says %d", name, got, tc.header, want)
				}
			}
		})
	}
}
