package columnar

import (
	"fmt"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Regions are the values of the sales table's region column.
var Regions = []string{"Norte", "Sur", "Este", "Oeste", "Centro"}

// SalesSchema is the schema of the sales table.
func SalesSchema() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "fecha", Type: arrow.FixedWidthTypes.Date32},
		{Name: "tienda", Type: arrow.BinaryTypes.String},
		{Name: "region", Type: arrow.BinaryTypes.String},
		{Name: "producto", Type: arrow.BinaryTypes.String},
		{Name: "unidades", Type: arrow.PrimitiveTypes.Int32},
		{Name: "precio", Type: arrow.PrimitiveTypes.Float64},
		{Name: "importe", Type: arrow.PrimitiveTypes.Float64},
	}, nil)
}

// SalesConfig sizes the sales table; the zero value is 100,000 rows in batches of 65,536.
type SalesConfig struct {
	Rows      int    // default 100,000
	BatchRows int    // rows per Arrow record batch; default 65,536
	Seed      uint64 // default 0
}

// Sales returns the sales table as record batches (release each when done): 50 stores,
// each in one region, 500 products with fixed prices, dates in 2024, 1–10 units per line.
// The table depends only on cfg.
func Sales(cfg SalesConfig) []arrow.RecordBatch {
	if cfg.Rows == 0 {
		cfg.Rows = 100_000
	}
	if cfg.BatchRows == 0 {
		cfg.BatchRows = 1 << 16
	}
	r := rand.New(rand.NewPCG(cfg.Seed, 0x5a1e5))
	prices := make([]float64, 500)
	for i := range prices {
		prices[i] = float64(100+r.IntN(9900)) / 100
	}
	start := int32(19723) // 2024-01-01 in days since 1970-01-01
	b := array.NewRecordBuilder(memory.DefaultAllocator, SalesSchema())
	defer b.Release()
	var out []arrow.RecordBatch
	for row := 0; row < cfg.Rows; row++ {
		store := r.IntN(50)
		prod := r.IntN(500)
		units := int32(1 + r.IntN(10))
		b.Field(0).(*array.Int64Builder).Append(int64(row))
		b.Field(1).(*array.Date32Builder).Append(arrow.Date32(start + int32(r.IntN(366))))
		b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("T-%03d", store))
		b.Field(3).(*array.StringBuilder).Append(Regions[store%len(Regions)])
		b.Field(4).(*array.StringBuilder).Append(fmt.Sprintf("P-%04d", prod))
		b.Field(5).(*array.Int32Builder).Append(units)
		b.Field(6).(*array.Float64Builder).Append(prices[prod])
		b.Field(7).(*array.Float64Builder).Append(float64(units) * prices[prod])
		if (row+1)%cfg.BatchRows == 0 || row == cfg.Rows-1 {
			out = append(out, b.NewRecordBatch())
		}
	}
	return out
}

// Release releases every batch.
func Release(batches []arrow.RecordBatch) {
	for _, b := range batches {
		b.Release()
	}
}
