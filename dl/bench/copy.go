package bench

import (
	"fmt"
	"slices"
	"time"

	"github.com/dlbd/dlbd/dl"
)

// CopyConfig describes a sweep of copies between the host and a device
// with Tensor.To, the hidden cost of every .to(device) in PyTorch.  The
// zero value is not valid: Device must be a Sim or CUDA device.
type CopyConfig struct {
	// Device is the other end of the copies: a Sim device (the copy is a
	// host memcpy between two accounting domains) or a CUDA device (over
	// PCIe or NVLink, from pageable Go memory).
	Device dl.Device
	// Sizes are the bytes of each copied tensor (float32, so multiples of
	// 4).  nil means 1 MiB, 16 MiB and 64 MiB.
	Sizes []int64
	// Reps is the number of timed samples per size and direction; 0 means 5.
	Reps int
	// Budget is the time one size may take (both directions and the
	// memcpy reference); the samples are fewer if they are long, at least
	// one each.  0 means 2 s.
	Budget time.Duration
}

// CopyResult is one measured direction and size of a Copy sweep.
type CopyResult struct {
	// Op is "To" for x.To(dev) copies, or "memcpy" for the reference: Go's
	// copy() between two host slices of the same size, measured in the
	// same run, the speed limit of a host-to-host copy.
	Op       string
	From, To string // devices, as Device.String prints them
	Bytes    int64  // bytes per copy
	// Seconds is the median time of one copy; GBs = Bytes / Seconds / 1e9.
	Seconds float64
	GBs     float64
	Samples []float64 // seconds per copy of each sample
	Inner   int       // copies per sample
}

// Copy measures host→device and device→host copies of float32 tensors
// with Tensor.To, interleaved with a host memcpy of the same size, and
// reports medians.  The copies are recorded in dl.TransferStats like any
// other.  Results are in order of size: host→device, device→host,
// memcpy.
func Copy(cfg CopyConfig) ([]CopyResult, error) {
	if err := checkDevice("Copy", cfg.Device); err != nil {
		return nil, err
	}
	if cfg.Device.Kind() == dl.CPUKind {
		return nil, fmt.Errorf("bench: Copy to %v: a copy from the CPU to itself moves nothing; use dl.Sim(0) or dl.CUDA(0)", cfg.Device)
	}
	sizes := orDefaultSlice(cfg.Sizes, []int64{1 << 20, 16 << 20, 64 << 20})
	if err := checkByteSizes("Copy", sizes); err != nil {
		return nil, err
	}
	reps, budget, err := repsAndBudget("Copy", cfg.Reps, cfg.Budget)
	if err != nil {
		return nil, err
	}
	sizes = slices.Clone(sizes)
	slices.Sort(sizes)
	var out []CopyResult
	for _, size := range sizes {
		out = append(out, copySize(cfg.Device, size, reps, budget)...)
	}
	return out, nil
}

// copySize measures the three copies of one size.
func copySize(dev dl.Device, size int64, reps int, budget time.Duration) []CopyResult {
	n := int(size / 4)
	host := dl.Ones(n)
	onDev := host.To(dev)
	// Write both slices first: pages never written map to one shared zero
	// page, which a copy would read from the cache at several times the
	// speed of memory (and page faults are not bandwidth either).
	src, dst := make([]float32, n), make([]float32, n)
	for i := range src {
		src[i], dst[i] = 1, 1
	}
	calls := []func(){
		func() { t := host.To(dev); synchronize(t); t.Release() },
		func() { t := onDev.To(dl.CPU); t.Release() }, // a copy to the host waits for it
		func() { copy(dst, src) },
	}
	res := []CopyResult{
		{Op: "To", From: dl.CPU.String(), To: dev.String(), Bytes: size},
		{Op: "To", From: dev.String(), To: dl.CPU.String(), Bytes: size},
		{Op: "memcpy", From: dl.CPU.String(), To: dl.CPU.String(), Bytes: size},
	}
	// Each call gets an equal share of the budget.
	share := budget / time.Duration(len(calls))
	nreps := make([]int, len(calls))
	for i, call := range calls {
		call() // warm-up: the caching allocator keeps the block for the samples
		inner, one := calibrate(call)
		res[i].Inner = inner
		nreps[i] = repsFor(share, one*float64(inner), reps)
	}
	for round := range reps {
		for i, call := range calls {
			if round < nreps[i] {
				res[i].Samples = append(res[i].Samples, sample(call, res[i].Inner))
			}
		}
	}
	for i := range res {
		res[i].Seconds = median(res[i].Samples)
		res[i].GBs = float64(size) / res[i].Seconds / 1e9
	}
	host.Release()
	onDev.Release()
	return res
}
