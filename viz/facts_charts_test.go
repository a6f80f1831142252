package viz

import (
	"html"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/facts"
)

// factFigures are the one-line facts charts with the data they must cite.
func factFigures() map[string]*Figure {
	return map[string]*Figure{
		"BigDataTimeline":        BigDataTimeline(),
		"BigDataVs":              BigDataVs(),
		"Datasphere":             Datasphere(),
		"StorageCost":            StorageCost(),
		"StorageCost/nominal":    StorageCost(StorageCostOptions{Nominal: true}),
		"DataSources":            DataSources(),
		"DataSources/CERN":       DataSources("CERN"),
		"MLvsDL":                 MLvsDL(),
		"KaplanLossVsParams":     KaplanLossVsParams(),
		"KaplanLossVsData":       KaplanLossVsData(),
		"KaplanLossVsCompute":    KaplanLossVsCompute(),
		"ChinchillaFrontier":     ChinchillaFrontier(),
		"ChinchillaLoss":         ChinchillaLoss(),
		"ChinchillaLoss/refit":   ChinchillaLoss(true),
		"ComputeTrends":          ComputeTrends(),
		"DatasetSizes/texto":     DatasetSizes(),
		"DatasetSizes/imagen":    DatasetSizes("imagen"),
		"DatasetSizes/audio":     DatasetSizes("audio"),
		"DatasetSizes/vídeo":     DatasetSizes("vídeo"),
		"Accelerators":           Accelerators(),
		"Accelerators/memory":    Accelerators(AcceleratorOptions{Metric: MemoryGB}),
		"Accelerators/bandwidth": Accelerators(AcceleratorOptions{Metric: BandwidthTBs}),
		"Accelerators/power":     Accelerators(AcceleratorOptions{Metric: PowerW}),
		"Accelerators/NVIDIA":    Accelerators(AcceleratorOptions{Vendors: []string{"NVIDIA"}}),
		"Interconnects":          Interconnects(),
		"Clusters":               Clusters(),
	}
}

// qualitative charts draw no dataset values, so they have notes, not sources.
var qualitative = map[string]bool{"BigDataVs": true, "MLvsDL": true}

func TestFactsChartsRenderAndRunAsJavaScript(t *testing.T) {
	for name, fig := range factFigures() {
		t.Run(name, func(t *testing.T) {
			frag, err := Fragment(fig)
			if err != nil {
				t.Fatal(err)
			}
			r := runNode(t, frag, "stub")
			if len(r.Errors) > 0 {
				t.Fatalf("JavaScript errors: %v", r.Errors)
			}
			if len(r.Charts) != 1 {
				t.Fatalf("%d charts drawn; want 1", len(r.Charts))
			}
			for _, c := range r.Charts {
				if len(c.Calls) == 0 {
					t.Error("option has no functions; want at least the tooltip formatter")
				}
				for p, out := range c.Calls {
					if strings.HasPrefix(out, "throws") {
						t.Errorf("%s(sample) %s", p, out)
					}
				}
				var points int
				for _, s := range c.Option["series"].([]any) {
					if d, ok := s.(map[string]any)["data"].([]any); ok {
						points += len(d)
					}
				}
				if points == 0 {
					t.Error("chart has no data points")
				}
			}
		})
	}
}

func TestFactsChartsPrintTheirSources(t *testing.T) {
	for name, fig := range factFigures() {
		frag, err := Fragment(fig)
		if err != nil {
			t.Fatal(err)
		}
		caption := frag[strings.Index(frag, `class="viz-caption"`):]
		if qualitative[name] {
			if len(fig.Sources) != 0 || !strings.Contains(caption, "texto del curso") && !strings.Contains(caption, "ILUSTRATIVO") {
				t.Errorf("%s: qualitative chart must say where its levels come from; caption:\n%s", name, caption)
			}
			continue
		}
		if len(fig.Sources) == 0 {
			t.Errorf("%s: no sources", name)
			continue
		}
		for _, s := range fig.Sources {
			// The source text is printed (escaped; URLs become links).
			if !strings.Contains(caption, linkify(s.Source)) || !strings.Contains(caption, html.EscapeString(s.Source[:12])) {
				t.Errorf("%s: source %.60q not printed under the chart", name, s.Source)
			}
		}
		if !strings.Contains(caption, "Fuentes (") {
			t.Errorf("%s: caption has no source list", name)
		}
	}
}

func TestUnverifiedValuesAreFlagged(t *testing.T) {
	for name, fig := range factFigures() {
		frag, _ := Fragment(fig)
		if fig.HasUnverified() != strings.Contains(frag, "SIN VERIFICAR") {
			t.Errorf("%s: HasUnverified = %v but the fragment's SIN VERIFICAR warning presence differs", name, fig.HasUnverified())
		}
	}
	// These plot an unverified value (the 16.1 ZB IDC figure; the GDR roadmap).
	for _, fig := range []*Figure{Datasphere(), Interconnects()} {
		if !fig.HasUnverified() {
			t.Errorf("%T lost its unverified row", fig.Chart)
		}
		js, _ := OptionJS(fig)
		if !strings.Contains(js, "Estado: SIN VERIFICAR") || !strings.Contains(js, "emptyTriangle") {
			t.Error("unverified point has no SIN VERIFICAR note or distinct symbol in the chart")
		}
	}
}

func TestDatasphereNeverJoinsVintages(t *testing.T) {
	fig := Datasphere()
	js, err := OptionJS(fig)
	if err != nil {
		t.Fatal(err)
	}
	// Lines only for the main series; every other vintage is unconnected points.
	main := 0
	for _, d := range facts.Datasphere() {
		if d.Series == mainDatasphere {
			main++
		}
	}
	if main != 16 {
		t.Fatalf("main series has %d rows; want 16", main)
	}
	if strings.Count(js, `"type":"line"`) != 2 {
		t.Errorf("Datasphere has %d line series; want 2 (estimate and forecast of one vintage)", strings.Count(js, `"type":"line"`))
	}
	if OnlyMain := Datasphere(DatasphereOptions{OnlyMain: true}); len(OnlyMain.Sources) != 1 {
		t.Errorf("OnlyMain cites %d sources; want 1", len(OnlyMain.Sources))
	}
}

func TestStorageCostNeverMixesDollarsSilently(t *testing.T) {
	js, _ := OptionJS(StorageCost())
	if strings.Contains(js, "nominal") {
		t.Error("default StorageCost contains nominal-dollar series")
	}
	fig := StorageCost(StorageCostOptions{Nominal: true})
	js, _ = OptionJS(fig)
	if !strings.Contains(js, "US$ nominales") || !strings.Contains(js, "US$ de 2020") {
		t.Error("with Nominal, series names must say which dollars they are in")
	}
	frag, _ := Fragment(fig)
	if !strings.Contains(frag, "no son directamente comparables") {
		t.Error("with Nominal, the caption must warn that real and nominal dollars are mixed")
	}
}

func TestIllustrativeChartSaysSo(t *testing.T) {
	frag, _ := Fragment(MLvsDL())
	if strings.Count(frag, "ILUSTRATIVO") < 2 {
		t.Error("MLvsDL must be labelled ILUSTRATIVO in the title and under the chart")
	}
}

func TestComputeTrendLines(t *testing.T) {
	js, _ := OptionJS(ComputeTrends())
	for _, want := range []string{"×2 cada 3.4 meses", "×4 por año", "×5 por año", "ley de Moore"} {
		if !strings.Contains(js, want) {
			t.Errorf("ComputeTrends lacks trend line %q", want)
		}
	}
	js, _ = OptionJS(ComputeTrends(ComputeOptions{NoTrends: true}))
	if strings.Contains(js, "por año") {
		t.Error("NoTrends still draws trend lines")
	}
}

func TestFitIntercept(t *testing.T) {
	// Points exactly on y = 10^(0.5x + 3) give intercept 3.
	xs := []float64{1, 2, 3, 10}
	ys := []float64{3162.2776601683795, 1e4, 31622.776601683792, 1e20}
	b, n := fitIntercept(xs, ys, 0.5, 0, 5)
	if n != 3 || b < 2.999999 || b > 3.000001 {
		t.Errorf("fitIntercept = %v over %d points; want 3 over 3 (x=10 is outside)", b, n)
	}
}

func TestAcceleratorsByVendorAndYear(t *testing.T) {
	js, err := OptionJS(Accelerators(AcceleratorOptions{Metric: MemoryGB, Vendors: []string{"NVIDIA", "Cerebras"}}))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js, "NVIDIA H100") || !strings.Contains(js, "Cerebras WSE-3") || strings.Contains(js, "AMD ") || strings.Contains(js, "Google ") {
		t.Error("Vendors {NVIDIA, Cerebras}: want exactly those vendors' chips in the chart")
	}
	// Rows appended to accelerators.csv out of order still chart by year.
	js, _ = OptionJS(Accelerators())
	if i, j := strings.Index(js, "AWS Trainium Trn1 (2022)"), strings.Index(js, "Intel Gaudi 3"); i < 0 || j < 0 || i > j {
		t.Errorf("Trainium (2022) at %d, Gaudi 3 (2024) at %d: want the bars in order of year", i, j)
	}
}

func TestChartMisusePanics(t *testing.T) {
	cases := map[string]func(){
		"two options":       func() { StorageCost(StorageCostOptions{}, StorageCostOptions{}) },
		"unknown modality":  func() { DatasetSizes("olfato") },
		"unknown producer":  func() { DataSources("Twitter") },
		"series lengths":    func() { Line(PlotOptions{}, Series{X: []float64{1}, Y: []float64{1, 2}}) },
		"bar categories":    func() { Bar(PlotOptions{}, []string{"a"}, Series{Y: []float64{1, 2}}) },
		"heatmap rows":      func() { Heatmap(PlotOptions{}, []string{"a"}, []string{"x", "y"}, [][]float64{{1}}) },
		"unknown acc. unit": func() { Accelerators(AcceleratorOptions{Metric: "color"}) },
		"unknown vendor":    func() { Accelerators(AcceleratorOptions{Vendors: []string{"Nvidia"}}) },
	}
	for name, f := range cases {
		func() {
			defer func() {
				r := recover()
				if err, ok := r.(error); !ok || !strings.HasPrefix(err.Error(), "viz: ") {
					t.Errorf("%s: panic %v; want an error starting with \"viz: \"", name, r)
				}
			}()
			f()
		}()
	}
}
