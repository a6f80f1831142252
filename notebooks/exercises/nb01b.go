package exercises

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/dlbd/dlbd/bigdata"
)

// StoreUnitsQuery checks exercise 1 of 01b-formatos-columnares-y-sql: query,
// the student's SQL, must return one row and one column, the units that store
// T-007 sold, when db (DuckDB, with the view ventas) runs it. The expected
// value is summed row by row from the same table in CSV, sales (the notebook's
// csvVentas). db is an interface so that this package links no engine. A
// blank answer is an empty query.
func StoreUnitsQuery(ctx context.Context, db bigdata.Engine, sales, query string) Result {
	const label = "Ejercicio 1"
	if strings.TrimSpace(query) == "" {
		return blank(label, "Escribe en consulta1 una consulta SQL sobre la vista ventas (columnas tienda, unidades, importe…) que devuelva un solo número: las unidades vendidas por la tienda 'T-007'.")
	}
	want, err := nb01bTotals(sales, "T-007")
	if err != nil {
		return wrong(label, "no he podido leer la tabla de ventas en CSV: %v", err)
	}
	res, err := db.Query(ctx, query)
	if err != nil {
		return wrong(label, "la consulta falla: %v", err)
	}
	if len(res.Rows) != 1 || len(res.Columns) != 1 {
		return wrong(label, "devuelve %d filas y %d columnas; queremos un solo número: una fila y una columna (una agregación, sin GROUP BY).", len(res.Rows), len(res.Columns))
	}
	got, err := strconv.ParseFloat(fmt.Sprint(res.Rows[0][0]), 64)
	if err != nil {
		return wrong(label, "devuelve %v, que no es un número.", res.Rows[0][0])
	}
	switch got {
	case want.units:
		return correct(label, "la tienda T-007 vendió %s unidades.", thousands(int(got)))
	case want.allUnits:
		return wrong(label, "son las unidades de todas las tiendas: filtra las líneas de la tienda 'T-007' con WHERE.")
	case want.lines:
		return wrong(label, "eso cuenta las líneas de ticket de la tienda; cada línea tiene sus unidades: súmalas.")
	}
	if within(got, want.amount, 1e-6) {
		return wrong(label, "eso es el importe de la tienda; la pregunta pide las unidades.")
	}
	return wrong(label, "da %v, y no son las unidades de la tienda 'T-007': comprueba la columna que sumas (unidades) y el filtro (tienda, no producto ni región).", res.Rows[0][0])
}

// nb01bSums are the figures of one store that the hints of StoreUnitsQuery
// recognise.
type nb01bSums struct {
	units, lines, amount float64 // of the store
	allUnits             float64 // of every store
}

// nb01bTotals reads the sales table in CSV row by row (the columns found by
// name in its header) and sums the units, lines and amount of store.
func nb01bTotals(path, store string) (nb01bSums, error) {
	var s nb01bSums
	f, err := os.Open(path)
	if err != nil {
		return s, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.ReuseRecord = true
	head, err := r.Read()
	if err != nil {
		return s, err
	}
	col := map[string]int{}
	for _, name := range []string{"tienda", "unidades", "importe"} {
		if col[name] = slices.Index(head, name); col[name] < 0 {
			return s, fmt.Errorf("%s no tiene la columna %s (tiene %s)", path, name, strings.Join(head, ", "))
		}
	}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return s, nil
		}
		if err != nil {
			return s, err
		}
		units, err1 := strconv.ParseFloat(rec[col["unidades"]], 64)
		amount, err2 := strconv.ParseFloat(rec[col["importe"]], 64)
		if err := errors.Join(err1, err2); err != nil {
			return s, err
		}
		s.allUnits += units
		if rec[col["tienda"]] == store {
			s.units, s.lines, s.amount = s.units+units, s.lines+1, s.amount+amount
		}
	}
}
