package dl

import (
	"fmt"
	"sync"
)

// SimConfig configures a simulated device.  The zero value is an
// unlimited device without a hardware profile.
type SimConfig struct {
	// Capacity is the device memory in bytes; allocations beyond it panic
	// with *OutOfMemoryError.  0 means unlimited (host memory is the only
	// limit).  A Profile does not set it: pass e.g. 80<<30 explicitly.
	Capacity int64
	// Profile names the hardware the device stands for, e.g. "H100 SXM":
	// a row of the facts dataset, looked up by plan.SimAccelerator for
	// estimates.  dl stores only the name (see SimProfileName) and
	// computes nothing from it: no measurement is faked from a profile.
	// "" means no profile.
	Profile string
}

// defaultSimCount is the number of simulated devices that exist without
// configuration.
const defaultSimCount = 8

var (
	simMu       sync.RWMutex
	simDevices  = defaultSimCount
	simProfiles = map[int]string{}
)

func simCount() int {
	simMu.RLock()
	defer simMu.RUnlock()
	return simDevices
}

// simBackend serves Sim devices: the CPU backend's memory and kernels (a
// Sim device is a CPU with its own accounting), but its own device count.
type simBackend struct{ cpuBackend }

var (
	_ kernels      = simBackend{}
	_ indexKernels = simBackend{}
)

func init() { registerBackend(SimKind, simBackend{}) }

// deviceCount is the number of Sim devices: 8, or more after ConfigureSim.
func (simBackend) deviceCount() int { return simCount() }

// ConfigureSim sets the capacity and hardware profile name of Sim(i),
// adding simulated devices up to i if needed.  It returns an error for a
// negative index or capacity; the profile name is checked against the
// facts where it is looked up (plan.SimAccelerator).  Tensors already
// allocated stay; the capacity applies to later allocations.
func ConfigureSim(i int, cfg SimConfig) error {
	if i < 0 {
		return fmt.Errorf("dl: ConfigureSim: negative device index %d", i)
	}
	if cfg.Capacity < 0 {
		return fmt.Errorf("dl: ConfigureSim: negative capacity %d for sim:%d", cfg.Capacity, i)
	}
	simMu.Lock()
	simDevices = max(simDevices, i+1)
	if cfg.Profile != "" {
		simProfiles[i] = cfg.Profile
	} else {
		delete(simProfiles, i)
	}
	simMu.Unlock()
	m := memoryOf(Sim(i))
	m.mu.Lock()
	m.capacity = cfg.Capacity
	m.mu.Unlock()
	return nil
}

// SimProfileName returns the hardware profile name that ConfigureSim gave
// a simulated device, and whether it has one (false for other kinds).
func SimProfileName(dev Device) (string, bool) {
	if dev.kind != SimKind {
		return "", false
	}
	simMu.RLock()
	defer simMu.RUnlock()
	p, ok := simProfiles[dev.index]
	return p, ok
}
