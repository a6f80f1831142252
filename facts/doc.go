// Package facts holds the cited facts and figures used by the course charts
// and by the hardware profiles of simulated devices, as typed Go values.
//
// # Overview
//
// The CSV files of the course's facts dataset are embedded in the binary
// (directory data/), so a notebook cell, which is compiled in a temporary
// directory, needs no file on disk. data/ is a copy of ../shared/facts that
// only adds: rows appended at the end of a file and whole new files, listed at
// the end of data/README.md; a test checks that each shared file is a prefix of
// its copy. There is one loader per file:
//
//	Accelerators() []Accelerator            accelerators.csv
//	Interconnects() []Interconnect          interconnects.csv
//	Clusters() []ClusterFact                clusters.csv
//	Datacenter() []ClusterFact              datacenter.csv
//	Papers() []Paper                        papers.csv
//	ComputeTrends() []NotableModel          compute_trends.csv
//	ComputeGrowthRates() []GrowthRate       compute_growth_rates.csv
//	Datasets() []DatasetFact                datasets.csv
//	Datasphere() []DatasphereEstimate       datasphere.csv
//	Formats() []Format                      formats.csv
//	ScalingLaws() []ScalingLawParam         scaling_laws.csv
//	StorageCost() []StoragePrice            storage_cost.csv
//	Timeline() []Milestone                  timeline.csv
//	DataSources() []DataSourceFact          data_sources.csv
//
// Each file is parsed once (on first use) and every loader returns a fresh copy,
// so callers may sort or modify the slice freely. Lookups by name:
// AcceleratorByName, InterconnectByName, FormatByName, PaperByArXiv; typed views of the
// scaling-law constants: Kaplan, Chinchilla, ChinchillaRefit.
//
// # Concepts
//
// Every row keeps the dataset's Source, Status and Note columns. Status says how
// far the value was checked (Verified, Secondary, Derived, Unverified; see
// Status). Whoever shows a number must show its source, and must say so when
// it is not verified: Cite returns the three columns of a row and Sources
// gathers the distinct sources of many rows, for the caption under a chart.
//
// Numeric cells are float64. An empty cell (value not found, or not
// applicable) is NaN, never 0: test it with math.IsNaN. Cells whose text is not
// a plain number in the source ("~750", "4-5", "11.5 (derived)") are kept as
// strings with their original wording; the long-format files also carry the
// parsed number (ValueNum), and ParseRange and ParseYear read the common
// wordings.
//
// # Errors
//
// The embedded data is checked by the package tests, so the loaders cannot
// fail at run time; a malformed embedded file (a broken copy) panics on first
// use with the file, line and column. Lookups by name return an error that
// names the query and lists the accepted names.
package facts
