package facts

// NotableModel is one row of compute_trends.csv: a notable model with its
// training compute, from Epoch AI's "Notable AI Models" dataset (snapshot of
// 2025-02-24). Status Verified only means the value is the one in Epoch's
// file; EpochConfidence is Epoch's own rating of its estimate ("Confident",
// "Likely", "Speculative", "not given"). Numeric fields are NaN where empty.
type NotableModel struct {
	Model               string
	Organization        string
	PublicationDate     string  // "2012-09-30"
	Year                int     // publication year
	Domain              string  // "Vision", "Language", ...
	TrainingComputeFLOP float64 // total training compute, FLOP
	Log10Compute        float64 // log10 of TrainingComputeFLOP
	Parameters          float64
	TrainingData        string // as worded ("3.3e9 words", "~1e12 (Epoch assumption)")
	TrainingHardware    string
	HardwareQuantity    float64 // number of chips
	TrainingTimeHours   float64
	PowerDrawMW         float64 // Epoch's estimate of the training power draw, MW
	EpochConfidence     string
	EstimationMethod    string
	Citation            // Source, Status, Note
}

// Speculative reports whether Epoch rates the compute estimate "Speculative"
// (closed models whose compute was estimated from indirect evidence).
func (m NotableModel) Speculative() bool { return m.EpochConfidence == "Speculative" }

var notableModels lazy[NotableModel]

// ComputeTrends returns every row of compute_trends.csv, in file order
// (by publication date).
func ComputeTrends() []NotableModel {
	return loadRows(&notableModels, "compute_trends.csv", func(r row) NotableModel {
		return NotableModel{
			Model: r.str("model"), Organization: r.str("organization"),
			PublicationDate: r.str("publication_date"), Year: r.integer("year"), Domain: r.str("domain"),
			TrainingComputeFLOP: r.num("training_compute_flop"), Log10Compute: r.num("log10_compute"),
			Parameters: r.num("parameters"), TrainingData: r.str("training_data"),
			TrainingHardware: r.str("training_hardware"), HardwareQuantity: r.num("hardware_quantity"),
			TrainingTimeHours: r.num("training_time_hours"), PowerDrawMW: r.num("training_power_draw_mw_epoch_est"),
			EpochConfidence: r.str("epoch_confidence"), EstimationMethod: r.str("estimation_method"),
			Citation: r.cite(),
		}
	})
}

// GrowthRate is one row of compute_growth_rates.csv: a published growth rate
// of training compute (or of budgets, run length, power). GrowthPerYear and
// DoublingTimeMonths keep the source's wording ("4-5", "11.5 (derived)",
// "5.2-6.0 (derived)"); read them with GrowthRange and DoublingRange.
type GrowthRate struct {
	SourceOrg          string // "OpenAI", "Epoch AI", ...
	Publication        string
	Published          string // "2018-05-16", "2024-05", or empty
	Metric             string
	Period             string // "2012-2018", "2010-May 2024", ...
	GrowthPerYear      string // multiplier per year, as worded
	DoublingTimeMonths string // as worded
	Citation                  // Source, Status, Note
}

// GrowthRange returns the yearly multiplier's bounds (equal for a single
// value); ok is false when the cell is empty.
func (g GrowthRate) GrowthRange() (lo, hi float64, ok bool) { return ParseRange(g.GrowthPerYear) }

// DoublingRange returns the doubling time's bounds in months; ok is false
// when the cell is empty.
func (g GrowthRate) DoublingRange() (lo, hi float64, ok bool) {
	return ParseRange(g.DoublingTimeMonths)
}

var growthRates lazy[GrowthRate]

// ComputeGrowthRates returns every row of compute_growth_rates.csv.
func ComputeGrowthRates() []GrowthRate {
	return loadRows(&growthRates, "compute_growth_rates.csv", func(r row) GrowthRate {
		return GrowthRate{
			SourceOrg: r.str("source_org"), Publication: r.str("publication"), Published: r.str("published"),
			Metric: r.str("metric"), Period: r.str("period"), GrowthPerYear: r.str("growth_per_year"),
			DoublingTimeMonths: r.str("doubling_time_months"),
			Citation:           r.cite(),
		}
	})
}
