package facts

import (
	"math"
	"strings"
	"testing"
)

func TestAcceleratorByName(t *testing.T) {
	cases := []struct {
		query           string
		name, variant   string
		memGB, bwTBs    float64
		bf16, fp16, tdp float64
	}{
		{"H100", "H100", "SXM5 80GB", 80, 3.35, 989.4, math.NaN(), math.NaN()},
		{"H100 SXM", "H100", "SXM5 80GB", 80, 3.35, 989.4, math.NaN(), math.NaN()},
		{"nvidia h200", "H200", "SXM 141GB", 141, 4.8, 989.4, math.NaN(), math.NaN()},
		{"A100 80GB", "A100", "SXM4 80GB", 80, 2.039, 312, math.NaN(), math.NaN()},
		{"V100", "V100", "SXM2", 32, 0.9, math.NaN(), 125, 300},
	}
	for _, c := range cases {
		a, err := AcceleratorByName(c.query)
		if err != nil {
			t.Errorf("AcceleratorByName(%q): %v", c.query, err)
			continue
		}
		if a.Name != c.name || a.Variant != c.variant || a.MemoryGB != c.memGB || a.MemBandwidthTBs != c.bwTBs {
			t.Errorf("AcceleratorByName(%q) = %s %s, %v GB, %v TB/s; want %s %s, %v GB, %v TB/s",
				c.query, a.Name, a.Variant, a.MemoryGB, a.MemBandwidthTBs, c.name, c.variant, c.memGB, c.bwTBs)
		}
		check := func(field string, got, want float64) {
			if !math.IsNaN(want) && got != want {
				t.Errorf("AcceleratorByName(%q).%s = %v; want %v", c.query, field, got, want)
			}
		}
		check("BF16DenseTFLOPS", a.BF16DenseTFLOPS, c.bf16)
		check("FP16DenseTFLOPS", a.FP16DenseTFLOPS, c.fp16)
		check("TDPWatts", a.TDPWatts, c.tdp)
		if a.Status != Secondary || a.Source == "" {
			t.Errorf("%s: status %q, source %q; NVIDIA figures are secondary copies of datasheets", a.FullName(), a.Status, a.Source)
		}
	}
}

func TestAcceleratorByNameErrors(t *testing.T) {
	_, err := AcceleratorByName("A100")
	if err == nil || !strings.Contains(err.Error(), "ambiguous") || !strings.Contains(err.Error(), "A100 SXM4 40GB") || !strings.Contains(err.Error(), "A100 SXM4 80GB") {
		t.Errorf(`AcceleratorByName("A100") error = %v; want ambiguous, listing both A100 rows`, err)
	}
	_, err = AcceleratorByName("RTX 4090")
	if err == nil || !strings.Contains(err.Error(), `no accelerator matches "RTX 4090"`) || !strings.Contains(err.Error(), "H100") {
		t.Errorf(`AcceleratorByName("RTX 4090") error = %v; want no match, listing known names`, err)
	}
}

func TestTPUFiguresAreVerified(t *testing.T) {
	for _, a := range Accelerators() {
		if a.Vendor == "Google" && a.Status != Verified {
			t.Errorf("%s: status %q; the Cloud TPU documentation figures are verified", a.FullName(), a.Status)
		}
	}
}

func TestInterconnectByName(t *testing.T) {
	cases := []struct {
		query    string
		dir, bi  float64
		year     int
		yearText string
	}{
		{"NVLink 4.0", 450, 900, 2022, "2022"},
		{"PCIe 5.0", 63, 126, 2019, "2019"},
		{"NDR", 50, 100, 2022, "2022"},
		{"400GbE", 50, 100, 2017, "2017"},
		{"GDR", 200, 400, 2028, "~2028"},
	}
	for _, c := range cases {
		ic, err := InterconnectByName(c.query)
		if err != nil {
			t.Errorf("InterconnectByName(%q): %v", c.query, err)
			continue
		}
		if ic.GBsPerDirection != c.dir || ic.GBsBidirectional != c.bi || ic.Year != c.year || ic.YearText != c.yearText {
			t.Errorf("InterconnectByName(%q) = %v/%v GB/s, year %d (%q); want %v/%v, %d (%q)",
				c.query, ic.GBsPerDirection, ic.GBsBidirectional, ic.Year, ic.YearText, c.dir, c.bi, c.year, c.yearText)
		}
	}
	if gdr, _ := InterconnectByName("GDR"); gdr.Status != Unverified {
		t.Errorf("GDR (roadmap) status = %q; want unverified", gdr.Status)
	}
}

func TestBidirectionalIsTwicePerDirection(t *testing.T) {
	for _, ic := range Interconnects() {
		if math.IsNaN(ic.GBsPerDirection) || math.IsNaN(ic.GBsBidirectional) {
			continue
		}
		if math.Abs(ic.GBsBidirectional-2*ic.GBsPerDirection) > 0.11 {
			t.Errorf("%s: bidirectional %v GB/s != 2 × %v", ic.Generation, ic.GBsBidirectional, ic.GBsPerDirection)
		}
	}
}

func TestFormatsMatchTheirLayout(t *testing.T) {
	for _, f := range Formats() {
		if got := math.Ldexp(1, -f.MantissaBits); f.MachineEpsilon != got {
			t.Errorf("%s: machine epsilon %v; 2^-%d = %v", f.Name, f.MachineEpsilon, f.MantissaBits, got)
		}
		if got := math.Ldexp(1, 1-f.ExponentBias); f.MinNormal != got {
			t.Errorf("%s: min normal %v; 2^(1-%d) = %v", f.Name, f.MinNormal, f.ExponentBias, got)
		}
		if got := math.Ldexp(1, 1-f.ExponentBias-f.MantissaBits); f.MinSubnormal != got {
			t.Errorf("%s: min subnormal %v; want %v", f.Name, f.MinSubnormal, got)
		}
		if f.HasInf { // IEEE-style: the top exponent is reserved for inf/NaN
			emax := (1 << (f.ExponentBits - 1)) - 1
			want := (2 - math.Ldexp(1, -f.MantissaBits)) * math.Ldexp(1, emax)
			if f.MaxFinite != want {
				t.Errorf("%s: max finite %v; (2-2^-%d)·2^%d = %v", f.Name, f.MaxFinite, f.MantissaBits, emax, want)
			}
		}
	}
	known := map[string]float64{"FP16": 65504, "half": 65504, "E4M3": 448, "FP8 E5M2": 57344, "bfloat16": 3.3895313892515355e38}
	for name, want := range known {
		f, err := FormatByName(name)
		if err != nil || f.MaxFinite != want {
			t.Errorf("FormatByName(%q).MaxFinite = %v, %v; want %v", name, f.MaxFinite, err, want)
		}
	}
	if _, err := FormatByName("FP8"); err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Errorf(`FormatByName("FP8") error = %v; want ambiguous`, err)
	}
}
