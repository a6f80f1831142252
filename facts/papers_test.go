package facts

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var arxivID = regexp.MustCompile(`^([0-9]{2})([0-9]{2})\.[0-9]{4,5}$`)

func TestPapersAreAChronologicalReadingList(t *testing.T) {
	ps := Papers()
	for i, p := range ps {
		if p.Title == "" || p.Authors == "" || p.Venue == "" || p.Introduced == "" {
			t.Errorf("%s: every paper needs title, authors, venue and what it introduced: %+v", p.Title, p)
		}
		if i > 0 && p.Year < ps[i-1].Year {
			t.Errorf("%s (%d) comes after %s (%d): keep papers.csv in chronological order", p.Title, p.Year, ps[i-1].Title, ps[i-1].Year)
		}
		if p.ArXiv == "" {
			if !strings.HasPrefix(p.Source, "https://") {
				t.Errorf("%s: no arXiv id and no URL in source (%q)", p.Title, p.Source)
			}
			continue
		}
		m := arxivID.FindStringSubmatch(p.ArXiv)
		if m == nil {
			t.Errorf("%s: arXiv id %q is not of the form YYMM.NNNNN", p.Title, p.ArXiv)
			continue
		}
		// The id encodes the month of submission: the year column is that year.
		if yy, _ := strconv.Atoi(m[1]); 2000+yy != p.Year {
			t.Errorf("%s: year %d but arXiv id %s was submitted in 20%s", p.Title, p.Year, p.ArXiv, m[1])
		}
		if p.Source != "https://arxiv.org/abs/"+p.ArXiv {
			t.Errorf("%s: source %q; want the arXiv page of %s", p.Title, p.Source, p.ArXiv)
		}
	}
}

func TestPaperByArXiv(t *testing.T) {
	p, err := PaperByArXiv("1910.02054")
	if err != nil || !strings.HasPrefix(p.Title, "ZeRO") || p.Venue != "SC20" {
		t.Errorf(`PaperByArXiv("1910.02054") = %q (%s), %v; want ZeRO, SC20`, p.Title, p.Venue, err)
	}
	if _, err := PaperByArXiv("9999.99999"); err == nil || !strings.Contains(err.Error(), "2304.11277") {
		t.Errorf("unknown id: error %v; want one listing the known ids", err)
	}
}

func TestDatacenterFigures(t *testing.T) {
	var dgx, nvl72 *ClusterFact
	rows := Datacenter()
	for i, r := range rows {
		switch {
		case strings.HasPrefix(r.Entity, "NVIDIA DGX H100"):
			dgx = &rows[i]
		case strings.HasPrefix(r.Entity, "NVIDIA GB200 NVL72"):
			nvl72 = &rows[i]
		}
		if strings.HasPrefix(r.Unit, "PUE") && !(r.ValueNum >= 1) {
			t.Errorf("%s %s: PUE %v; a PUE is never below 1", r.Entity, r.Year, r.ValueNum)
		}
	}
	if dgx == nil || dgx.ValueNum != 10.2 || dgx.Unit != "kW" {
		t.Fatalf("DGX H100 system power row = %+v; want 10.2 kW", dgx)
	}
	h100, _ := AcceleratorByName("H100")
	if gpus := 8 * h100.TDPWatts / 1000; gpus >= dgx.ValueNum {
		t.Errorf("8 H100 at their TDP draw %.1f kW, not less than the %.1f kW of the whole system", gpus, dgx.ValueNum)
	}
	// The sources disagree on the NVL72 rack (README of the dataset, caveat 4).
	if nvl72 == nil || nvl72.Status != Unverified || math.IsNaN(nvl72.ValueNum) {
		t.Errorf("GB200 NVL72 rack power = %+v; want a number marked unverified", nvl72)
	}
}

func TestAddedAcceleratorsKeepLookupsUnique(t *testing.T) {
	// Names used by notebooks, dl.Sim profiles and dl/plan clusters, plus the
	// added chips: each must still name exactly one row.
	for _, q := range []string{"H100", "H200", "B200", "V100", "MI300X", "MI325X", "Gaudi 3", "TPU v4", "TPU v5e", "TPU v5p",
		"TPU v6e", "TPU7x", "Trainium", "Trainium2", "WSE-3", "Groq"} {
		if _, err := AcceleratorByName(q); err != nil {
			t.Errorf("AcceleratorByName(%q): %v", q, err)
		}
	}
	for _, a := range Accelerators() {
		if strings.Contains(a.MemoryType, "SRAM") && !(a.MemBandwidthTBs > 50) {
			t.Errorf("%s: on-chip SRAM at %v TB/s; the SRAM designs are there for their bandwidth", a.FullName(), a.MemBandwidthTBs)
		}
	}
}
