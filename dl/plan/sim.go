package plan

import (
	"fmt"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/facts"
)

// SimAccelerator returns the hardware a simulated device stands for: the
// row of the facts dataset (facts.AcceleratorByName) named by the profile
// that dl.ConfigureSim gave it.  It returns an error if dev is not a Sim
// device with a profile, or if no single row matches the name.  The
// figures are for estimates: ops on dev still run on this machine's CPU.
func SimAccelerator(dev dl.Device) (facts.Accelerator, error) {
	name, ok := dl.SimProfileName(dev)
	if !ok {
		return facts.Accelerator{}, fmt.Errorf("plan: %v has no hardware profile; give it one with dl.ConfigureSim(i, dl.SimConfig{Profile: \"H100\"})", dev)
	}
	a, err := facts.AcceleratorByName(name)
	if err != nil {
		return facts.Accelerator{}, fmt.Errorf("plan: profile of %v: %w", dev, err)
	}
	return a, nil
}
