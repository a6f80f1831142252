package cost

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/dlbd/dlbd/facts"
)

// Link is one kind of connection in the α-β model: sending m bytes over it
// takes α + m/B. Every number keeps its source.
type Link struct {
	Name string // "NVLink 4.0", "InfiniBand NDR", ...
	// Bandwidth B in bytes per second, in one direction (a ring sends one
	// way and receives the other way at the same time).
	Bandwidth float64
	// Latency α: the fixed cost of one step (one message), independent of
	// its size.
	Latency         time.Duration
	BandwidthSource facts.Citation
	LatencySource   facts.Citation
	// TypicalLatency is the latency wording of interconnects.csv for this
	// family, for display ("sub-microsecond end-to-end ..."); it is a wire
	// figure, smaller than the per-step α a collective library pays.
	TypicalLatency string
}

// String returns e.g. "NVLink 4.0 (450 GB/s, α = 3.4µs)".
func (l Link) String() string {
	return fmt.Sprintf("%s (%.4g GB/s, α = %v)", l.Name, l.Bandwidth/1e9, l.Latency)
}

// ncclTuning is where the per-step latencies come from: NCCL's own cost
// model, which it uses to choose between ring and tree.
const ncclTuning = "NVIDIA NCCL, src/graph/tuning.cc, table hwLat, Ring algorithm, Simple protocol " +
	"(https://github.com/NVIDIA/nccl/blob/b6475625fbcaa2c3c0e50eed2fa1255d7514d4a2/src/graph/tuning.cc)"

// stepLatency returns NCCL's per-step ring latency for a link family.
// NCCL has three hardware classes: NVLink, PCI and network (NET: used for
// InfiniBand, RoCE and Ethernet alike).
func stepLatency(family string) (time.Duration, facts.Citation) {
	us, class := 14.0, "NET"
	switch family {
	case "NVLink", "NVLink-C2C":
		us, class = 3.4, "NVLINK"
	case "PCIe":
		us, class = 5.7, "PCI"
	}
	return time.Duration(us * float64(time.Microsecond)), facts.Citation{
		Source: ncclTuning,
		Status: facts.Verified,
		Note: fmt.Sprintf("hwLat[NCCL_HW_%s][RING][SIMPLE] = %g µs: a constant of NCCL's tuning model (read in its source), "+
			"not a measurement; LL protocols model less (NVLink 0.6 µs), and NCCL adds a base latency per collective", class, us),
	}
}

// LinkFromFacts returns the link named name in interconnects.csv ("NVLink
// 4.0", "PCIe 5.0", "NDR", "400GbE", ...): bandwidth from the file, α
// from NCCL's tuning model for its family.
func LinkFromFacts(name string) (Link, error) {
	ic, err := facts.InterconnectByName(name)
	if err != nil {
		return Link{}, fmt.Errorf("cost: link %q: %w", name, err)
	}
	if math.IsNaN(ic.GBsPerDirection) || ic.GBsPerDirection <= 0 {
		return Link{}, fmt.Errorf("cost: link %q (%s %s) has no per-direction bandwidth in interconnects.csv", name, ic.Family, ic.Generation)
	}
	lat, latSrc := stepLatency(ic.Family)
	bwSrc := ic.Citation
	bwSrc.Note = strings.TrimSpace(fmt.Sprintf("interconnects.csv, %s %s (%s): %g GB/s per direction. %s",
		ic.Family, ic.Generation, ic.Config, ic.GBsPerDirection, ic.Note))
	l := Link{
		Name:            linkName(ic),
		Bandwidth:       ic.GBsPerDirection * 1e9,
		Latency:         lat,
		BandwidthSource: bwSrc,
		LatencySource:   latSrc,
		TypicalLatency:  typicalLatency(ic.Family),
	}
	return l, nil
}

func linkName(ic facts.Interconnect) string {
	if strings.HasPrefix(ic.Generation, ic.Family) {
		return ic.Generation
	}
	return ic.Family + " " + ic.Generation
}

// typicalLatency returns the first latency wording the file gives for the
// family (most rows leave it empty).
func typicalLatency(family string) string {
	for _, ic := range facts.Interconnects() {
		if ic.TypicalLatency != "" && (ic.Family == family || ic.Generation == family) {
			return ic.TypicalLatency
		}
	}
	return ""
}

// MustLink is LinkFromFacts for names known to be in the file; it panics
// otherwise.
func MustLink(name string) Link {
	l, err := LinkFromFacts(name)
	if err != nil {
		panic(err)
	}
	return l
}
