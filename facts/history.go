package facts

import "strings"

// Milestone is one row of timeline.csv: an event in the history of Big Data
// and deep-learning infrastructure.
type Milestone struct {
	Year     int
	Date     string // "2003-10", "2006-01-28"; conference month when only the venue is known (see Note)
	Event    string
	Category string // "storage", "processing", "hardware", ...
	Detail   string
	Citation // Source, Status, Note
}

// DatasphereEstimate is one row of datasphere.csv: IDC's figure for the data
// created or replicated worldwide in one year, in zettabytes. Series names
// the report vintage; vintages disagree and must not be joined into one line.
type DatasphereEstimate struct {
	Year       int
	Zettabytes float64
	Kind       string // "estimate" or "forecast"
	Series     string // report vintage, e.g. "Statista 871513 (IDC Global DataSphere, 2021 edition)"
	Publisher  string
	Citation   // Source, Status, Note
}

// Forecast reports whether the value was a forecast when published.
func (d DatasphereEstimate) Forecast() bool { return d.Kind == "forecast" }

// StoragePrice is one row of storage_cost.csv: the price of one medium in one
// year. PriceUSDPerGB is the price converted to US$ per GB; Dollars says
// whether it is in constant 2020 US$ (see Real) or nominal US$. The current
// OWID series is a running minimum (the cheapest price seen up to that year).
type StoragePrice struct {
	Year          int
	Medium        string  // "hard disk drive", "solid-state drive", "flash memory", "memory (DRAM)"
	Price         float64 // in Unit
	Unit          string  // "USD per TB", "USD per MB", "USD per GB"
	Dollars       string  // "constant 2020 USD (CPI-deflated)", "nominal USD", ...
	PriceUSDPerGB float64
	Series        string
	Citation      // Source, Status, Note
}

// Real reports whether the price is in constant (inflation-adjusted) dollars.
func (p StoragePrice) Real() bool { return strings.HasPrefix(p.Dollars, "constant") }

var (
	milestones lazy[Milestone]
	datasphere lazy[DatasphereEstimate]
	storage    lazy[StoragePrice]
)

// Timeline returns every row of timeline.csv, in file order (chronological).
func Timeline() []Milestone {
	return loadRows(&milestones, "timeline.csv", func(r row) Milestone {
		return Milestone{Year: r.integer("year"), Date: r.str("date"), Event: r.str("event"),
			Category: r.str("category"), Detail: r.str("detail"), Citation: r.cite()}
	})
}

// Datasphere returns every row of datasphere.csv, in file order.
func Datasphere() []DatasphereEstimate {
	return loadRows(&datasphere, "datasphere.csv", func(r row) DatasphereEstimate {
		return DatasphereEstimate{Year: r.integer("year"), Zettabytes: r.num("zettabytes"),
			Kind: r.str("kind"), Series: r.str("series"), Publisher: r.str("publisher"),
			Citation: r.cite()}
	})
}

// StorageCost returns every row of storage_cost.csv, in file order.
func StorageCost() []StoragePrice {
	return loadRows(&storage, "storage_cost.csv", func(r row) StoragePrice {
		return StoragePrice{Year: r.integer("year"), Medium: r.str("medium"), Price: r.num("price"),
			Unit: r.str("unit"), Dollars: r.str("dollars"), PriceUSDPerGB: r.num("price_usd_per_gb"),
			Series: r.str("series"), Citation: r.cite()}
	})
}
