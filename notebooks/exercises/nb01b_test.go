package exercises

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/bigdata/columnar"
	"github.com/dlbd/dlbd/bigdata/duck"
)

func TestStoreUnitsQuery(t *testing.T) {
	dir := t.TempDir()
	b := columnar.Sales(columnar.SalesConfig{Rows: 20_000})
	defer columnar.Release(b)
	if _, err := columnar.WriteParquet(filepath.Join(dir, "parquet"), b, columnar.ParquetOptions{ShardRows: 5_000}); err != nil {
		t.Fatal(err)
	}
	sales := filepath.Join(dir, "ventas.csv")
	if err := columnar.WriteCSV(sales, b); err != nil {
		t.Fatal(err)
	}
	db, err := duck.Open(1)
	if err != nil {
		t.Skip(err) // a build without cgo
	}
	defer db.Close()
	ctx := context.Background()
	if err := db.RegisterParquet(ctx, "ventas", filepath.Join(dir, "parquet")); err != nil {
		t.Fatal(err)
	}
	check := func(what, query, want, hint string) {
		t.Helper()
		nb01Expect(t, what, StoreUnitsQuery(ctx, db, sales, query), want, hint)
	}
	check("reference", "SELECT sum(unidades) FROM ventas WHERE tienda = 'T-007'", "right", "")
	check("every store", "SELECT sum(unidades) FROM ventas", "wrong", "todas las tiendas")
	check("lines", "SELECT count(*) FROM ventas WHERE tienda = 'T-007'", "wrong", "cuenta las líneas")
	check("amount", "SELECT sum(importe) FROM ventas WHERE tienda = 'T-007'", "wrong", "importe")
	check("grouped", "SELECT tienda, sum(unidades) FROM ventas GROUP BY tienda", "wrong", "una fila y una columna")
	check("another store", "SELECT sum(unidades) FROM ventas WHERE tienda = 'T-008'", "wrong", "comprueba la columna")
	check("not SQL", "SUM unidades", "wrong", "la consulta falla")
	check("blank", "", "blank", "la consulta falla")
	check("blank spaces", "  \n", "blank", "la consulta falla")
	nb01Expect(t, "missing CSV", StoreUnitsQuery(ctx, db, filepath.Join(dir, "no.csv"), "SELECT 1"), "wrong", "no he podido leer")
}

// TestCheckersLinkNoEngine: the checkers take the engines through interfaces
// (bigdata.Engine, stream.Broker, …), so that a notebook cell that imports
// this package links none of DuckDB, the Parquet codecs, Spark's client, Kafka's
// or NATS's.
func TestCheckersLinkNoEngine(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/dlbd/dlbd/notebooks/exercises").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, heavy := range []string{"github.com/duckdb/", "github.com/apache/arrow-go/", "github.com/apache/spark-connect-go/", "github.com/twmb/franz-go/", "github.com/nats-io/"} {
		for _, p := range strings.Fields(string(out)) {
			if strings.HasPrefix(p, heavy) {
				t.Errorf("package exercises depends on %s: take the engine as an interface (bigdata.Engine, stream.Broker) instead", p)
				break
			}
		}
	}
}
