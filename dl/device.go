package dl

import (
	"fmt"
	"strconv"
)

// DeviceKind is the kind of a Device: CPU, a simulated device, or a CUDA
// GPU, like torch.device.type.
type DeviceKind uint8

// The device kinds.
const (
	CPUKind  DeviceKind = iota // the host processor and its memory
	SimKind                    // a simulated accelerator in host memory
	CUDAKind                   // an NVIDIA GPU (needs the CUDA backend and a GPU at run time)
)

// String returns "cpu", "sim" or "cuda".
func (k DeviceKind) String() string {
	switch k {
	case CPUKind:
		return "cpu"
	case SimKind:
		return "sim"
	case CUDAKind:
		return "cuda"
	}
	return "DeviceKind(" + strconv.Itoa(int(k)) + ")"
}

// Device says where a tensor's memory lives and where its ops run, like
// torch.device.  It is a small comparable value; the zero value is CPU.
//
// A Sim device is host memory with its own memory accounting, an optional
// capacity and a hardware profile name (see ConfigureSim): it lets one
// machine show what happens on several accelerators without faking any
// measurement.  Arithmetic on Sim runs on the CPU.
//
// Course: "Devices en TensorFlow y PyTorch".
type Device struct {
	kind  DeviceKind
	index int
}

// CPU is the host device (the zero Device).
var CPU = Device{}

// Sim returns simulated device i (i >= 0); see ConfigureSim.
func Sim(i int) Device { return Device{kind: SimKind, index: i} }

// CUDA returns CUDA device i.  Using it needs the CUDA backend and a GPU
// at run time; otherwise ops panic with a *DeviceError.
func CUDA(i int) Device { return Device{kind: CUDAKind, index: i} }

// Kind returns the device's kind.
func (d Device) Kind() DeviceKind { return d.kind }

// Index returns the device's index (0 for CPU).
func (d Device) Index() int { return d.index }

// String returns "cpu", "sim:0", "cuda:1", ... as torch.device prints.
func (d Device) String() string {
	if d.kind == CPUKind {
		return "cpu"
	}
	return d.kind.String() + ":" + strconv.Itoa(d.index)
}

// IsHost reports whether the device's memory is host memory (CPU and
// Sim), so that Float32Data and Float64Data can view it without a copy.
func (d Device) IsHost() bool { return d.kind == CPUKind || d.kind == SimKind }

// DeviceCount returns how many devices of a kind exist, as the kind's
// backend counts them: 1 for CPUKind, the number of simulated devices for
// SimKind (8 unless ConfigureSim configured a higher index), and the
// number of GPUs the CUDA backend finds for CUDAKind (0 without a driver
// or GPU), like torch.cuda.device_count.  A kind no backend serves has 0.
func DeviceCount(kind DeviceKind) int {
	if be := backends[kind].mem; be != nil {
		return be.deviceCount()
	}
	return 0
}

// DefaultDevice returns the first CUDA device if there is one, else CPU:
// the device-agnostic choice of
// `torch.device("cuda" if torch.cuda.is_available() else "cpu")`.
func DefaultDevice() Device {
	if DeviceCount(CUDAKind) > 0 {
		return CUDA(0)
	}
	return CPU
}

// check panics with a *DeviceError if d does not exist.
func (d Device) check(op string) {
	if d.kind == CPUKind && d.index == 0 {
		return
	}
	n := DeviceCount(d.kind)
	if d.index >= 0 && d.index < n {
		return
	}
	reason := fmt.Sprintf("device %v does not exist (%d %s device(s))", d, n, d.kind)
	fix := "use an index below dl.DeviceCount"
	switch {
	case d.kind == CUDAKind && n == 0:
		reason = fmt.Sprintf("device %v is not available: no CUDA driver or GPU found", d)
		fix = "use dl.DefaultDevice() for device-agnostic code, or dl.Sim(i) to simulate a GPU"
	case d.kind == SimKind:
		fix = "call dl.ConfigureSim(i, dl.SimConfig{}) to add simulated devices"
	}
	panic(&DeviceError{Op: op, Devices: []Device{d}, Reason: reason, Fix: fix})
}

// sameDevice panics with a *DeviceError naming both devices and the fix
// unless a and b are on the same device.
func sameDevice(op string, a, b *Tensor) {
	if a.dev == b.dev {
		return
	}
	panic(&DeviceError{
		Op: op, Devices: []Device{a.dev, b.dev},
		Reason: fmt.Sprintf("expected all tensors on the same device, got %v and %v", a.dev, b.dev),
		Fix:    fmt.Sprintf("move one with .To(dev), e.g. b.To(dl.%s)", devGo(a.dev)),
	})
}

// devGo spells a device as Go code: CPU, Sim(1), CUDA(0).
func devGo(d Device) string {
	switch d.kind {
	case SimKind:
		return fmt.Sprintf("Sim(%d)", d.index)
	case CUDAKind:
		return fmt.Sprintf("CUDA(%d)", d.index)
	}
	return "CPU"
}
