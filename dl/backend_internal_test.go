package dl

import (
	"errors"
	"testing"
)

func TestBackendRegistry(t *testing.T) {
	for _, kind := range []DeviceKind{CPUKind, SimKind, CUDAKind} {
		t.Run("kind="+kind.String(), func(t *testing.T) {
			be := backends[kind]
			if be.mem == nil {
				t.Fatalf("no backend registered for %v", kind)
			}
			if be.k == nil || be.ik == nil {
				t.Errorf("the backend of %v has kernels %v and index kernels %v; want both", kind, be.k != nil, be.ik != nil)
			}
			if got, want := DeviceCount(kind), be.mem.deviceCount(); got != want {
				t.Errorf("DeviceCount(%v) = %d; want the backend's %d", kind, got, want)
			}
		})
	}
	if n := DeviceCount(CPUKind); n != 1 {
		t.Errorf("DeviceCount(CPUKind) = %d; want 1", n)
	}
	if n := DeviceCount(SimKind); n < defaultSimCount {
		t.Errorf("DeviceCount(SimKind) = %d; want at least %d", n, defaultSimCount)
	}
	unknown := DeviceKind(200)
	if n := DeviceCount(unknown); n != 0 {
		t.Errorf("DeviceCount(%v) = %d; want 0 for a kind no backend serves", unknown, n)
	}
	if err := Catch(func() { kernelsOf("Add", Device{kind: unknown}) }); !errors.Is(err, ErrDevice) {
		t.Errorf("kernelsOf on a kind without a backend: %v; want a *DeviceError", err)
	}
}

func TestRegisterBackendTwice(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("registerBackend(CPUKind, ...) a second time did not panic")
		}
	}()
	registerBackend(CPUKind, cpu)
}
