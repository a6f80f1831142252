package cuda

import (
	"fmt"
	"slices"
)

// TargetFor chooses what NVRTC should produce for a GPU of compute
// capability cc (90 for sm_90), given the archs NVRTC supports.
//
// CUBIN first. A CUBIN is finished machine code for one GPU family: it
// loads on any driver able to run this CUDA major version. PTX is an
// intermediate language that the driver compiles (JIT) when the module is
// loaded, and a driver only understands PTX versions up to its own: PTX
// from an NVRTC newer than the driver (13.5 compiler, 13.0 driver) fails
// with CUDA_ERROR_UNSUPPORTED_PTX_VERSION. So:
//  1. "sm_<cc>" when NVRTC knows the exact arch;
//  2. else "sm_<s>" for the highest supported s of the same major with a
//     smaller minor: a CUBIN for X.y runs on X.z for z >= y;
//  3. else "compute_<s>" (PTX) for the highest supported s <= cc, left to
//     the driver's JIT, which works only if the driver is at least as new
//     as the compiler;
//  4. else an error: this NVRTC is too new or too old for the GPU.
func TargetFor(cc int, supported []int) (string, error) {
	s := slices.Sorted(slices.Values(supported))
	if slices.Contains(s, cc) {
		return fmt.Sprintf("sm_%d", cc), nil
	}
	best := -1
	for _, a := range s {
		if a/10 == cc/10 && a < cc {
			best = a
		}
	}
	if best >= 0 {
		return fmt.Sprintf("sm_%d", best), nil
	}
	for _, a := range s {
		if a < cc {
			best = a
		}
	}
	if best >= 0 {
		return fmt.Sprintf("compute_%d", best), nil
	}
	return "", fmt.Errorf("cuda: NVRTC supports sm_%v but the GPU is sm_%d: use an NVRTC that supports it (DL_CUDA_LIB_DIRS)", s, cc)
}

// Target returns the NVRTC target for this context's device (computed once).
func (c *Context) Target() (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.target != "" {
		return c.target, nil
	}
	p, err := Device(c.Ordinal)
	if err != nil {
		return "", err
	}
	archs, err := SupportedArchs()
	if err != nil {
		return "", err
	}
	c.target, err = TargetFor(p.CC(), archs)
	return c.target, err
}
