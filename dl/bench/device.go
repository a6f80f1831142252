package bench

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
)

// checkDevice returns an error if dev cannot run a benchmark here: a CUDA
// device without a usable GPU (with the driver's reason), or an index
// beyond the devices of its kind.
func checkDevice(op string, dev dl.Device) error {
	switch dev.Kind() {
	case dl.CPUKind:
		return nil
	case dl.SimKind:
		if dev.Index() >= dl.DeviceCount(dl.SimKind) {
			return fmt.Errorf("bench: %s on %v: there are %d simulated devices; configure more with dl.ConfigureSim",
				op, dev, dl.DeviceCount(dl.SimKind))
		}
		return nil
	case dl.CUDAKind:
		if err := dl.CUDAAvailable(); err != nil {
			return fmt.Errorf("bench: %s on %v: no usable GPU: %w", op, dev, err)
		}
		if n := dl.DeviceCount(dl.CUDAKind); dev.Index() >= n {
			return fmt.Errorf("bench: %s on %v: this machine has %d CUDA devices", op, dev, n)
		}
		return nil
	}
	return fmt.Errorf("bench: %s: unknown device %v", op, dev)
}

// synchronize waits until the work queued on t's device before t was
// computed has finished.  On host devices (CPU, Sim) ops run
// synchronously and it does nothing.  On a GPU kernels run
// asynchronously, like torch.cuda.synchronize is needed before reading a
// clock: reading one element of t to the host waits for the stream that
// computed it (4 bytes, recorded in dl.TransferStats).
func synchronize(t *dl.Tensor) {
	if t.Device().IsHost() || t.Numel() == 0 {
		return
	}
	// Views keep t's memory alive until released: release them now, so
	// that releasing t gives its block back to the caching allocator.
	flat := t.Reshape(-1)
	first := flat.Slice(0, 1)
	first.Item()
	first.Release()
	flat.Release()
}
