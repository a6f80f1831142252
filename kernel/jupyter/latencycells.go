package jupyter

import "fmt"

// LatencyCell is a cell whose latency `dlbd cell-latency` and the kernel's
// benchmarks measure: Setup runs once (it makes the values the cell uses,
// as an earlier cell of a notebook does), then Code runs changed each time
// (its %d is the run's number), so that every run compiles and links it:
// the case a student hits when editing a cell, not the rerun of an
// unchanged one.
type LatencyCell struct {
	// Key names the cell in benchmarks (cell=Key).
	Key string
	// Name says what the cell uses.
	Name string
	// Setup is run once before the cell; "" means nothing.
	Setup string
	// Code is a format with one %d (the run); "%%%%" is the cell's "%%" line.
	Code string
}

// Numbered returns the cell's code for run i.
func (c LatencyCell) Numbered(i int) string { return fmt.Sprintf(c.Code, i) }

// LatencyCells are the measured cells: nothing, dl (the anchor of the Big
// Data cells: a cell of the deep-learning half), and the Big Data engines,
// each on a value made by an earlier cell where the engine has one.
var LatencyCells = []LatencyCell{
	{Key: "trivial", Name: "fmt only", Code: "%%%%\n" + `fmt.Println("run", %d)`},
	{Key: "dl", Name: "dl (a tensor)", Code: `import "github.com/dlbd/dlbd/dl"
%%%%
fmt.Println("run", %d, dl.Ones(2, 2).Sum().Item())`},
	{Key: "duckdb", Name: "DuckDB: a query on a connection made earlier",
		Setup: `import (
	"context"

	"github.com/dlbd/dlbd/bigdata/duck"
	"github.com/dlbd/dlbd/kernel"
)

var db = kernel.Must(duck.Open(1))
var ctx = context.Background()`,
		Code: "%%%%\n" + `res := kernel.Must(db.Query(ctx, "SELECT %d AS n"))
fmt.Println("run", res.Rows[0][0])`},
	{Key: "arrow", Name: "arrow-go: Arrow batches made earlier",
		Setup: `import "github.com/dlbd/dlbd/bigdata/columnar"

var ventas = columnar.Sales(columnar.SalesConfig{Rows: 10_000})`,
		Code: "%%%%\n" + `fmt.Println("run", %d, ventas[0].NumRows(), ventas[0].Schema().Field(3).Name)`},
	{Key: "kafka", Name: "franz-go: bigdata/kafka",
		Setup: `import "github.com/dlbd/dlbd/bigdata/kafka"

var cfgKafka = kafka.Config{}`,
		Code: "%%%%\n" + `_, running := kafka.Running(cfgKafka)
fmt.Println("run", %d, running)`},
	{Key: "nats", Name: "NATS: a broker started earlier",
		Setup: `import (
	"os"

	"github.com/dlbd/dlbd/bigdata/natsbroker"
	"github.com/dlbd/dlbd/kernel"
)

var nb = kernel.Must(natsbroker.Start(kernel.Must(os.MkdirTemp("", "latency-nats"))))`,
		Code: "%%%%\n" + `fmt.Println("run", %d, nb.Name())`},
	{Key: "spark", Name: "Spark Connect client (gRPC)", Code: `import "github.com/dlbd/dlbd/bigdata/spark"
%%%%
fmt.Println("run", %d, spark.DefaultPort)`},
}
