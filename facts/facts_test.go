package facts

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sharedDir is the source of the embedded copies (the course's facts dataset).
const sharedDir = "../../shared/facts"

// added lists the files that exist only in this repository's copy.
var added = []string{"datacenter.csv", "papers.csv"}

// TestEmbeddedCopiesExtendShared checks that facts/data only adds to the shared
// dataset: each shared file is a byte prefix of its copy (rows are appended at
// the end, the README gains a final section) and the only extra files are the
// added ones, each named in that section.
func TestEmbeddedCopiesExtendShared(t *testing.T) {
	entries, err := os.ReadDir(sharedDir)
	if err != nil {
		t.Skipf("no shared facts dataset at %s: %v", sharedDir, err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".csv") && name != "README.md" {
			continue
		}
		seen[name] = true
		want, err := os.ReadFile(filepath.Join(sharedDir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Raw(name)
		if err != nil {
			t.Errorf("%s is not embedded: %v (copy it into facts/data)", name, err)
			continue
		}
		if !bytes.HasPrefix(got, want) {
			t.Errorf("facts/data/%s does not start with %s/%s: copy it again and append this repository's rows after it", name, sharedDir, name)
		}
	}
	readme, _ := Raw("README.md")
	_, additions, ok := strings.Cut(string(readme), "## Additions in this repository")
	if !ok {
		t.Fatal("facts/data/README.md has no \"Additions in this repository\" section")
	}
	for _, name := range Files() {
		switch {
		case seen[name]:
		case slices.Contains(added, name):
			if !strings.Contains(additions, "`"+name+"` (new)") {
				t.Errorf("facts/data/%s is not described in the additions section of the README", name)
			}
		default:
			t.Errorf("facts/data/%s is neither in %s nor in the added files %v", name, sharedDir, added)
		}
	}
}

func TestLoadersReadEveryRow(t *testing.T) {
	// Row counts as listed in the dataset's README (shared rows + added rows).
	counts := []struct {
		file string
		got  int
		want int
	}{
		{"timeline.csv", len(Timeline()), 39},
		{"datasphere.csv", len(Datasphere()), 31},
		{"storage_cost.csv", len(StorageCost()), 238},
		{"compute_trends.csv", len(ComputeTrends()), 29},
		{"compute_growth_rates.csv", len(ComputeGrowthRates()), 13},
		{"scaling_laws.csv", len(ScalingLaws()), 77},
		{"datasets.csv", len(Datasets()), 58 + 3},
		{"accelerators.csv", len(Accelerators()), 14 + 6},
		{"interconnects.csv", len(Interconnects()), 26},
		{"clusters.csv", len(Clusters()), 50 + 7},
		{"datacenter.csv", len(Datacenter()), 5},
		{"papers.csv", len(Papers()), 15},
		{"data_sources.csv", len(DataSources()), 36},
		{"formats.csv", len(Formats()), 7},
	}
	if len(counts) != len(Files()) {
		t.Errorf("test covers %d files; %d are embedded: %v", len(counts), len(Files()), Files())
	}
	for _, c := range counts {
		if c.got != c.want {
			t.Errorf("%s: loaded %d rows; want %d", c.file, c.got, c.want)
		}
	}
}

func TestEveryRowIsCited(t *testing.T) {
	var all []Citation
	add := func(cs ...Citation) { all = append(all, cs...) }
	for _, r := range Timeline() {
		add(r.Cite())
	}
	for _, r := range Datasphere() {
		add(r.Cite())
	}
	for _, r := range StorageCost() {
		add(r.Cite())
	}
	for _, r := range ComputeTrends() {
		add(r.Cite())
	}
	for _, r := range ComputeGrowthRates() {
		add(r.Cite())
	}
	for _, r := range ScalingLaws() {
		add(r.Cite())
	}
	for _, r := range Datasets() {
		add(r.Cite())
	}
	for _, r := range Accelerators() {
		add(r.Cite())
	}
	for _, r := range Interconnects() {
		add(r.Cite())
	}
	for _, r := range Clusters() {
		add(r.Cite())
	}
	for _, r := range Datacenter() {
		add(r.Cite())
	}
	for _, r := range Papers() {
		add(r.Cite())
	}
	for _, r := range DataSources() {
		add(r.Cite())
	}
	for _, r := range Formats() {
		add(r.Cite())
	}
	for i, c := range all {
		if strings.TrimSpace(c.Source) == "" {
			t.Errorf("row %d (%+v) has no source", i, c)
		}
		if _, err := ParseStatus(string(c.Status)); err != nil {
			t.Errorf("row %d: %v", i, err)
		}
	}
}

func TestLoadersReturnCopies(t *testing.T) {
	a := Accelerators()
	a[0].Name = "changed"
	if Accelerators()[0].Name == "changed" {
		t.Error("Accelerators() returned the cached slice; want a copy")
	}
}

func TestParseStatus(t *testing.T) {
	for _, s := range []string{"verified", "secondary", "derived", "unverified"} {
		if got, err := ParseStatus(s); err != nil || string(got) != s {
			t.Errorf("ParseStatus(%q) = %q, %v", s, got, err)
		}
	}
	if _, err := ParseStatus("Verified"); err == nil || !strings.Contains(err.Error(), "facts: unknown status") {
		t.Errorf("ParseStatus(%q) error = %v; want unknown status", "Verified", err)
	}
}

func TestStatusSpanish(t *testing.T) {
	want := map[Status]string{Verified: "verificado", Derived: "calculado", Secondary: "fuente secundaria", Unverified: "SIN VERIFICAR"}
	for _, st := range statuses {
		if got := st.Spanish(); got != want[st] {
			t.Errorf("%q.Spanish() = %q; want %q", st, got, want[st])
		}
	}
	if got := Status("other").Spanish(); got != "other" {
		t.Errorf(`Status("other").Spanish() = %q; want the text itself`, got)
	}
}

func TestParseRange(t *testing.T) {
	cases := []struct {
		in     string
		lo, hi float64
		ok     bool
	}{
		{"3.4", 3.4, 3.4, true},
		{"4-5", 4, 5, true},
		{"5.2-6.0 (derived)", 5.2, 6.0, true},
		{"11.5 (derived)", 11.5, 11.5, true},
		{"~4", 4, 4, true},
		{"up to 9", 9, 9, true},
		{">2", 2, 2, true},
		{"~5 (stated); 5.5 (derived)", 5, 5, true},
		{"1,720,320", 1720320, 1720320, true},
		{"3.8e25", 3.8e25, 3.8e25, true},
		{"1e-5", 1e-5, 1e-5, true},
		{"", 0, 0, false},
		{"implausibly narrow", 0, 0, false},
	}
	for _, c := range cases {
		lo, hi, ok := ParseRange(c.in)
		if lo != c.lo || hi != c.hi || ok != c.ok {
			t.Errorf("ParseRange(%q) = %v, %v, %v; want %v, %v, %v", c.in, lo, hi, ok, c.lo, c.hi, c.ok)
		}
	}
}

func TestParseYear(t *testing.T) {
	cases := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"2019", 2019, true},
		{"2008-10", 2008.75, true},
		{"2006-01-28", 2006, true},
		{"2022-2023", 2022, true},
		{"2019-2025", 2019, true},
		{"~2019", 2019, true},
		{"~2028", 2028, true},
		{"late 2020s", 0, false},
		{"2010s", 0, false},
		{"", 0, false},
	}
	for _, c := range cases {
		got, ok := ParseYear(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseYear(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestSourcesGathersStatuses(t *testing.T) {
	var statista []DatasphereEstimate
	for _, d := range Datasphere() {
		if strings.HasPrefix(d.Series, "Statista 871513 (IDC Global DataSphere, 2021") {
			statista = append(statista, d)
		}
	}
	if len(statista) != 16 {
		t.Fatalf("Statista 2021 series has %d rows; want 16 (2010-2025)", len(statista))
	}
	refs := Sources(statista)
	if len(refs) != 1 {
		t.Fatalf("Sources(Statista series) = %d sources; want 1: %+v", len(refs), refs)
	}
	got := refs[0]
	if got.Rows != 16 || len(got.Statuses) != 2 || got.Statuses[0] != Verified || got.Statuses[1] != Secondary {
		t.Errorf("Sources(Statista series)[0] = %+v; want 16 rows, statuses [verified secondary]", got)
	}
	if got.Verified() || AllVerified(statista) {
		t.Error("the Statista series is only partly verified; Verified()/AllVerified reported true")
	}
}

func TestStorageSeriesDollars(t *testing.T) {
	for _, p := range StorageCost() {
		current := strings.Contains(p.Series, "current edition")
		if p.Real() != current {
			t.Errorf("%d %s (%s): Real() = %v; the current OWID edition is in real dollars, the others nominal", p.Year, p.Medium, p.Series, p.Real())
		}
		if !(p.PriceUSDPerGB > 0) {
			t.Errorf("%d %s: price per GB %v is not positive", p.Year, p.Medium, p.PriceUSDPerGB)
		}
	}
}

func TestDatasphereKnownValues(t *testing.T) {
	for _, d := range Datasphere() {
		if d.Year == 2016 && d.Zettabytes == 16.1 && d.Status != Unverified {
			t.Errorf("16.1 ZB for 2016 has status %q; the README says it is unverified", d.Status)
		}
		if d.Year == 2020 && strings.HasPrefix(d.Series, "Statista 871513 (IDC Global DataSphere, 2021") {
			if d.Zettabytes != 64.2 || d.Status != Verified || d.Forecast() {
				t.Errorf("2020 Statista value = %+v; want 64.2 ZB, verified estimate", d)
			}
		}
	}
}

func TestNumericEmptyCellsAreNaN(t *testing.T) {
	v5p, err := AcceleratorByName("TPU v5p")
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(v5p.FP8DenseTFLOPS) {
		t.Errorf("TPU v5p FP8 = %v; the cell is empty on purpose, want NaN", v5p.FP8DenseTFLOPS)
	}
}
