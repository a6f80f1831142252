package facts

// ClusterFact is one row of clusters.csv or datacenter.csv (the same long
// format): one attribute of a reference cluster, training run, system, rack or
// data centre, e.g. Entity "Llama 3.1 405B training
// run", Attribute "GPUs", Value "16,384", ValueNum 16384, Unit "NVIDIA H100
// 80GB (up to)". Value keeps the source's wording; ValueNum is NaN when the
// value is a range or a list ("38-43", "2,048 A100-80GB / ~21 days").
type ClusterFact struct {
	Entity    string
	Year      string // "2024", "2022-2023"; see ParseYear
	Attribute string
	Value     string
	ValueNum  float64
	Unit      string
	Citation  // Source, Status, Note
}

// DatasetFact is one row of datasets.csv (long format): one size metric of a
// training dataset, e.g. Dataset "FineWeb", Metric "tokens", Value "15e12",
// ValueNum 1.5e13, Unit "tokens (GPT-2 tokenizer)". Modality is "text",
// "text/web", "image", "image-text", "audio", "audio/video" or "video-text".
type DatasetFact struct {
	Dataset  string
	Modality string
	Year     string // "2024", "2010s"; see ParseYear
	Metric   string
	Value    string
	ValueNum float64
	Unit     string
	Citation // Source, Status, Note
}

// DataSourceFact is one row of data_sources.csv (long format): a figure about
// a large producer of data, e.g. Entity "YouTube", Year "2013-05", Metric
// "hours of video uploaded per minute", ValueNum 100. Category is "video",
// "communication", "web", "IoT" or "science".
type DataSourceFact struct {
	Entity   string
	Category string
	Year     string // "2008-01", "2019-2025", "late 2020s"; see ParseYear
	Metric   string
	Value    string
	ValueNum float64
	Unit     string
	Citation // Source, Status, Note
}

var (
	clusterFacts    lazy[ClusterFact]
	datacenterFacts lazy[ClusterFact]
	datasetFacts    lazy[DatasetFact]
	dataSourceFacts lazy[DataSourceFact]
)

// Clusters returns every row of clusters.csv, in file order.
func Clusters() []ClusterFact {
	return loadRows(&clusterFacts, "clusters.csv", clusterFact)
}

// Datacenter returns every row of datacenter.csv, in file order: figures at
// the level of a server, a rack or a whole data centre (power per system and
// per rack, PUE).
func Datacenter() []ClusterFact {
	return loadRows(&datacenterFacts, "datacenter.csv", clusterFact)
}

// clusterFact reads a row of clusters.csv or datacenter.csv.
func clusterFact(r row) ClusterFact {
	return ClusterFact{Entity: r.str("entity"), Year: r.str("year"), Attribute: r.str("attribute"),
		Value: r.str("value"), ValueNum: r.num("value_num"), Unit: r.str("unit"),
		Citation: r.cite()}
}

// Datasets returns every row of datasets.csv, in file order.
func Datasets() []DatasetFact {
	return loadRows(&datasetFacts, "datasets.csv", func(r row) DatasetFact {
		return DatasetFact{Dataset: r.str("dataset"), Modality: r.str("modality"), Year: r.str("year"),
			Metric: r.str("metric"), Value: r.str("value"), ValueNum: r.num("value_num"), Unit: r.str("unit"),
			Citation: r.cite()}
	})
}

// DataSources returns every row of data_sources.csv, in file order.
func DataSources() []DataSourceFact {
	return loadRows(&dataSourceFacts, "data_sources.csv", func(r row) DataSourceFact {
		return DataSourceFact{Entity: r.str("source_entity"), Category: r.str("category"),
			Year: r.str("year"), Metric: r.str("metric"), Value: r.str("value"), ValueNum: r.num("value_num"),
			Unit: r.str("unit"), Citation: r.cite()}
	})
}
