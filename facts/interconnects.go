package facts

// Interconnect is one row of interconnects.csv: a link or network generation
// (PCIe, NVLink, InfiniBand, Ethernet, RoCE) or a latency reference. Numeric
// fields are NaN where the cell is empty.
type Interconnect struct {
	Family           string  // "PCIe", "NVLink", "InfiniBand", "Ethernet", ...
	Generation       string  // "PCIe 5.0", "NDR", "400GbE (IEEE 802.3bs)", ...
	Year             int     // first year of YearText (0 when the cell is empty)
	YearText         string  // the year cell as written ("2022", "~2028", "")
	Config           string  // "x16", "4x port", "per GPU (H100/H200), 18 links x 50 GB/s", ...
	Signaling        string  // lane rate and encoding, when given
	GBsPerDirection  float64 // GB/s in one direction
	GBsBidirectional float64 // GB/s, both directions added (NVIDIA's way of quoting NVLink)
	LineRateGbits    float64 // line rate, Gbit/s
	TypicalLatency   string  // as worded in the source; empty for most rows
	Citation                 // Source, Status, Note
}

var interconnects lazy[Interconnect]

// Interconnects returns every row of interconnects.csv, in file order.
func Interconnects() []Interconnect {
	return loadRows(&interconnects, "interconnects.csv", func(r row) Interconnect {
		y, _ := ParseYear(r.str("year"))
		return Interconnect{
			Family: r.str("family"), Generation: r.str("generation"), Year: int(y), YearText: r.str("year"),
			Config: r.str("config"), Signaling: r.str("signaling"),
			GBsPerDirection: r.num("bw_per_direction_gbytes_s"), GBsBidirectional: r.num("bw_bidirectional_gbytes_s"),
			LineRateGbits: r.num("line_rate_gbit_s"), TypicalLatency: r.str("typical_latency"),
			Citation: r.cite(),
		}
	})
}

// InterconnectByName finds the row whose family and generation contain every
// word of name, ignoring case: "NVLink 4.0", "PCIe 5.0", "NDR", "400GbE".
// A name matching several rows or none is an error listing the choices.
func InterconnectByName(name string) (Interconnect, error) {
	return byName("interconnect", name, Interconnects(), func(x Interconnect) string { return x.Family + " " + x.Generation })
}
