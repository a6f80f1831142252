package cuda

import "fmt"

// Props describes one GPU, as the driver reports it.
type Props struct {
	Ordinal  int    // device number, as in "cuda:0"
	Name     string // e.g. "NVIDIA H200"
	Major    int    // compute capability major (9 for Hopper)
	Minor    int    // compute capability minor (0 for H100/H200)
	SMs      int    // streaming multiprocessors
	TotalMem int64  // device memory in bytes
	L2Bytes  int    // L2 cache size in bytes
	// MemoryClockKHz and BusWidthBits give the peak memory bandwidth:
	// 2 (double data rate) × clock × width / 8 bytes per second. Newer
	// drivers may report 0 for the clock; see PeakBandwidth.
	MemoryClockKHz int
	BusWidthBits   int
	MaxThreadsPerBlock,
	WarpSize int
	DriverVersion int // 1000*major + 10*minor, e.g. 13000
}

// CC returns the compute capability as one number, 90 for 9.0: the XY in
// the compiler's sm_XY.
func (p Props) CC() int { return 10*p.Major + p.Minor }

// PeakBandwidth is the theoretical memory bandwidth in bytes/s derived
// from the clock and bus width, or 0 when the driver reports no clock.
func (p Props) PeakBandwidth() float64 {
	return 2 * float64(p.MemoryClockKHz) * 1e3 * float64(p.BusWidthBits) / 8
}

// String gives a one-line summary: "cuda:0 NVIDIA H200 (sm_90, 132 SMs, 139.8 GiB)".
func (p Props) String() string {
	return fmt.Sprintf("cuda:%d %s (sm_%d, %d SMs, %s)", p.Ordinal, p.Name, p.CC(), p.SMs, bytesString(p.TotalMem))
}

// CUdevice_attribute numbers (cuda.h); frozen in the driver ABI.
const (
	attrMaxThreadsPerBlock = 1
	attrWarpSize           = 10
	attrSMCount            = 16
	attrMemoryClockRate    = 36
	attrBusWidth           = 37
	attrL2CacheSize        = 38
	attrCCMajor            = 75
	attrCCMinor            = 76
)

// Device returns the properties of device ordinal i.
func Device(i int) (Props, error) {
	n, err := DeviceCount()
	if err != nil {
		return Props{}, err
	}
	if i < 0 || i >= n {
		return Props{}, fmt.Errorf("%w: cuda:%d asked for, but the driver reports %d device(s) (cuda:0..cuda:%d)",
			ErrNoDevice, i, n, n-1)
	}
	var d int32
	if err := drvCheck(cuDeviceGet(&d, int32(i)), "cuDeviceGet", fmt.Sprint(i)); err != nil {
		return Props{}, err
	}
	p := Props{Ordinal: i}
	name := make([]byte, 256)
	if err := drvCheck(cuDeviceGetName(&name[0], int32(len(name)), d), "cuDeviceGetName", ""); err != nil {
		return Props{}, err
	}
	p.Name = cString(name)
	var mem uint64
	if err := drvCheck(cuDeviceTotalMem(&mem, d), "cuDeviceTotalMem_v2", ""); err != nil {
		return Props{}, err
	}
	p.TotalMem = int64(mem)
	for _, a := range []struct {
		dst  *int
		attr int32
	}{
		{&p.Major, attrCCMajor}, {&p.Minor, attrCCMinor}, {&p.SMs, attrSMCount},
		{&p.L2Bytes, attrL2CacheSize}, {&p.MemoryClockKHz, attrMemoryClockRate},
		{&p.BusWidthBits, attrBusWidth}, {&p.MaxThreadsPerBlock, attrMaxThreadsPerBlock},
		{&p.WarpSize, attrWarpSize},
	} {
		var v int32
		if err := drvCheck(cuDeviceGetAttribute(&v, a.attr, d), "cuDeviceGetAttribute", fmt.Sprint(a.attr)); err != nil {
			return Props{}, err
		}
		*a.dst = int(v)
	}
	p.DriverVersion, err = DriverVersion()
	return p, err
}

// Devices returns the properties of every device.
func Devices() ([]Props, error) {
	n, err := DeviceCount()
	if err != nil {
		return nil, err
	}
	out := make([]Props, n)
	for i := range out {
		if out[i], err = Device(i); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// cString returns the bytes of b up to its first NUL.
func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}
