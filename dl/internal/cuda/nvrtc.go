package cuda

import (
	"crypto/sha256"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"unsafe"
)

// NVRTC (libnvrtc) compiles CUDA C++ source to GPU code inside the
// process: no nvcc, no files. It needs no GPU, only the library.
var (
	nvrtcVersion              func(major, minor *int32) int32
	nvrtcGetNumSupportedArchs func(n *int32) int32
	nvrtcGetSupportedArchs    func(archs *int32) int32
	nvrtcCreateProgram        func(prog *uintptr, src, name string, numHeaders int32, headers, includeNames *unsafe.Pointer) int32
	nvrtcCompileProgram       func(prog uintptr, numOptions int32, options *unsafe.Pointer) int32
	nvrtcGetProgramLogSize    func(prog uintptr, n *uint64) int32
	nvrtcGetProgramLog        func(prog uintptr, log *byte) int32
	nvrtcGetCUBINSize         func(prog uintptr, n *uint64) int32
	nvrtcGetCUBIN             func(prog uintptr, out *byte) int32
	nvrtcGetPTXSize           func(prog uintptr, n *uint64) int32
	nvrtcGetPTX               func(prog uintptr, out *byte) int32
	nvrtcDestroyProgram       func(prog *uintptr) int32
	nvrtcGetErrorString       func(r int32) string
)

var nvrtcSymbols = []symbol{
	sym(&nvrtcVersion, "nvrtcVersion"),
	sym(&nvrtcGetNumSupportedArchs, "nvrtcGetNumSupportedArchs"),
	sym(&nvrtcGetSupportedArchs, "nvrtcGetSupportedArchs"),
	sym(&nvrtcCreateProgram, "nvrtcCreateProgram"),
	sym(&nvrtcCompileProgram, "nvrtcCompileProgram"),
	sym(&nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize"),
	sym(&nvrtcGetProgramLog, "nvrtcGetProgramLog"),
	sym(&nvrtcGetCUBINSize, "nvrtcGetCUBINSize"),
	sym(&nvrtcGetCUBIN, "nvrtcGetCUBIN"),
	sym(&nvrtcGetPTXSize, "nvrtcGetPTXSize"),
	sym(&nvrtcGetPTX, "nvrtcGetPTX"),
	sym(&nvrtcDestroyProgram, "nvrtcDestroyProgram"),
	sym(&nvrtcGetErrorString, "nvrtcGetErrorString"),
}

var nvrtc = &library{spec: specNVRTC, syms: nvrtcSymbols}

// LoadNVRTC loads NVRTC (once); it needs no driver or GPU.
func LoadNVRTC() error { return nvrtc.load() }

// NVRTCVersion returns the compiler's CUDA version, e.g. 13, 0.
func NVRTCVersion() (major, minor int, err error) {
	if err = LoadNVRTC(); err != nil {
		return 0, 0, err
	}
	var ma, mi int32
	err = nvrtcCheck(nvrtcVersion(&ma, &mi), "nvrtcVersion", "")
	return int(ma), int(mi), err
}

// SupportedArchs returns the sm_XY numbers this NVRTC can compile for.
func SupportedArchs() ([]int, error) {
	if err := LoadNVRTC(); err != nil {
		return nil, err
	}
	var n int32
	if err := nvrtcCheck(nvrtcGetNumSupportedArchs(&n), "nvrtcGetNumSupportedArchs", ""); err != nil {
		return nil, err
	}
	a := make([]int32, n)
	if n > 0 {
		if err := nvrtcCheck(nvrtcGetSupportedArchs(&a[0]), "nvrtcGetSupportedArchs", ""); err != nil {
			return nil, err
		}
	}
	out := make([]int, n)
	for i, v := range a {
		out[i] = int(v)
	}
	return out, nil
}

// Image is compiled GPU code, ready for a module load.
type Image struct {
	Data   []byte // CUBIN (an ELF file) or NUL-terminated PTX text
	Target string // "sm_90": CUBIN for that GPU; "compute_90": PTX for the driver's JIT
	Log    string // compiler warnings, if any
}

// CompileError is source that NVRTC rejected; Log holds its diagnostics.
type CompileError struct {
	Name, Target, Log string
	Err               error // the *Error of nvrtcCompileProgram
}

// Error shows the program name, target and the compiler's log.
func (e *CompileError) Error() string {
	return fmt.Sprintf("cuda: NVRTC could not compile %s for %s:\n%s", e.Name, e.Target, strings.TrimSpace(e.Log))
}

// Unwrap returns the failed call's *Error.
func (e *CompileError) Unwrap() error { return e.Err }

var (
	compiledMu sync.Mutex
	compiled   = map[[32]byte]*Image{}
)

// Options every program is compiled with: C++17, and plain functions are
// device functions (so helpers need no __device__).
var nvrtcOptions = []string{"--std=c++17", "-default-device"}

// Compile compiles CUDA C++ source (name is used in messages) for target,
// "sm_XY" or "compute_XY" (see TargetFor). Compiling a file of many
// kernels takes seconds, and every notebook cell is a new process, so
// results are cached in memory and on disk (see cacheDir), keyed by
// (NVRTC version, options, target, source).
func Compile(src, name, target string) (*Image, error) {
	ma, mi, err := NVRTCVersion()
	if err != nil {
		return nil, err
	}
	key := sha256.Sum256([]byte(fmt.Sprintf("nvrtc %d.%d\x00%q\x00%s\x00%s", ma, mi, nvrtcOptions, target, src)))
	compiledMu.Lock()
	defer compiledMu.Unlock()
	if im := compiled[key]; im != nil {
		return im, nil
	}
	im := loadCached(key, target)
	if im == nil {
		if im, err = compile(src, name, target); err != nil {
			return nil, err
		}
		storeCached(key, im)
	}
	compiled[key] = im
	return im, nil
}

func compile(src, name, target string) (*Image, error) {
	if err := LoadNVRTC(); err != nil {
		return nil, err
	}
	var prog uintptr
	if err := nvrtcCheck(nvrtcCreateProgram(&prog, src, name, 0, nil, nil), "nvrtcCreateProgram", name); err != nil {
		return nil, err
	}
	defer nvrtcDestroyProgram(&prog)
	// NVRTC reads an array of C strings. They live in Go memory, which the
	// collector does not move; KeepAlive holds them until the call returns.
	opts := append([]string{"--gpu-architecture=" + target}, nvrtcOptions...)
	cstrs := make([][]byte, len(opts))
	ptrs := make([]unsafe.Pointer, len(opts))
	for i, o := range opts {
		cstrs[i] = append([]byte(o), 0)
		ptrs[i] = unsafe.Pointer(&cstrs[i][0])
	}
	cerr := nvrtcCheck(nvrtcCompileProgram(prog, int32(len(ptrs)), &ptrs[0]), "nvrtcCompileProgram", name+" for "+target)
	runtime.KeepAlive(cstrs)
	log := strings.TrimRight(string(programBytes(prog, nvrtcGetProgramLogSize, nvrtcGetProgramLog)), "\x00 \n")
	if cerr != nil {
		return nil, &CompileError{Name: name, Target: target, Log: log, Err: cerr}
	}
	im := &Image{Target: target, Log: log}
	if strings.HasPrefix(target, "sm_") {
		im.Data = programBytes(prog, nvrtcGetCUBINSize, nvrtcGetCUBIN)
	} else {
		im.Data = programBytes(prog, nvrtcGetPTXSize, nvrtcGetPTX) // NUL-terminated, as the driver wants
	}
	if len(im.Data) == 0 {
		return nil, fmt.Errorf("cuda: NVRTC produced no code for %s (%s)", name, target)
	}
	return im, nil
}

// programBytes reads one of a program's outputs through its size/get pair.
func programBytes(prog uintptr, size func(uintptr, *uint64) int32, get func(uintptr, *byte) int32) []byte {
	var n uint64
	if size(prog, &n) != 0 || n == 0 {
		return nil
	}
	b := make([]byte, n)
	if get(prog, &b[0]) != 0 {
		return nil
	}
	return b
}

// nvrtcCheck turns an nvrtcResult into nil or an *Error.
func nvrtcCheck(r int32, call, detail string) error {
	if r == 0 {
		return nil
	}
	name := ""
	if nvrtcGetErrorString != nil {
		name = nvrtcGetErrorString(r)
	}
	return &Error{Lib: "nvrtc", Call: call, Detail: detail, Code: int(r), Name: name}
}
