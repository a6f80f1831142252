//go:build !linux

package dl

// machineMemory is MachineMemory where dl cannot read the machine's
// memory: 0, so the CPU has no capacity unless ConfigureCPU sets one.
func machineMemory() int64 { return 0 }
