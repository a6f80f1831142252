package dl

import (
	"fmt"
	"sync"

	"github.com/dlbd/dlbd/facts"
)

// SimConfig configures a simulated device.  The zero value is an
// unlimited device without a hardware profile.
type SimConfig struct {
	// Capacity is the device memory in bytes; allocations beyond it panic
	// with *OutOfMemoryError.  0 means unlimited (host memory is the only
	// limit).  A Profile does not set it: pass e.g. 80<<30 explicitly.
	Capacity int64
	// Profile names a row of the facts dataset (facts.AcceleratorByName,
	// e.g. "H100 SXM"): the hardware the device stands for.  Estimates
	// (dl/plan, notebooks) read it with SimProfile; dl never uses it to
	// fake a measurement.  "" means no profile.
	Profile string
}

// defaultSimCount is the number of simulated devices that exist without
// configuration.
const defaultSimCount = 8

var (
	simMu       sync.RWMutex
	simDevices  = defaultSimCount
	simProfiles = map[int]facts.Accelerator{}
)

func simCount() int {
	simMu.RLock()
	defer simMu.RUnlock()
	return simDevices
}

// simBackend serves Sim devices: host memory and the host's kernels (a
// Sim device is a CPU with its own accounting), but its own device count.
type simBackend struct{ hostBackend }

var (
	_ kernels      = simBackend{}
	_ indexKernels = simBackend{}
)

func init() { registerBackend(SimKind, simBackend{}) }

// deviceCount is the number of Sim devices: 8, or more after ConfigureSim.
func (simBackend) deviceCount() int { return simCount() }

// ConfigureSim sets the capacity and hardware profile of Sim(i), adding
// simulated devices up to i if needed.  It returns an error if the profile
// is not in the facts dataset.  Tensors already allocated stay; the
// capacity applies to later allocations.
func ConfigureSim(i int, cfg SimConfig) error {
	if i < 0 {
		return fmt.Errorf("dl: ConfigureSim: negative device index %d", i)
	}
	if cfg.Capacity < 0 {
		return fmt.Errorf("dl: ConfigureSim: negative capacity %d for sim:%d", cfg.Capacity, i)
	}
	var prof facts.Accelerator
	if cfg.Profile != "" {
		var err error
		if prof, err = facts.AcceleratorByName(cfg.Profile); err != nil {
			return fmt.Errorf("dl: ConfigureSim: profile of sim:%d: %w", i, err)
		}
	}
	simMu.Lock()
	simDevices = max(simDevices, i+1)
	if cfg.Profile != "" {
		simProfiles[i] = prof
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

// SimProfile returns the hardware profile of a simulated device and
// whether it has one.
func SimProfile(dev Device) (facts.Accelerator, bool) {
	if dev.kind != SimKind {
		return facts.Accelerator{}, false
	}
	simMu.RLock()
	defer simMu.RUnlock()
	p, ok := simProfiles[dev.index]
	return p, ok
}
