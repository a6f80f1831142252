package facts

import (
	"bytes"
	"embed"
	"encoding/csv"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// data holds the embedded copy of the facts dataset (../shared/facts, plus the
// rows and files this repository adds; see the end of data/README.md).
//
//go:embed data/*.csv data/README.md
var data embed.FS

// table is one parsed CSV file: its header and its records.
type table struct {
	file   string
	header []string
	rows   [][]string
}

// mustTable parses data/<file>. It panics if the embedded copy is malformed:
// the package tests parse every file, so this only happens with a broken copy.
func mustTable(file string, want ...string) table {
	raw, err := data.ReadFile("data/" + file)
	if err != nil {
		panic(fmt.Errorf("facts: embedded file %s: %w", file, err))
	}
	r := csv.NewReader(bytes.NewReader(raw))
	recs, err := r.ReadAll()
	if err != nil {
		panic(fmt.Errorf("facts: parse %s: %w", file, err))
	}
	if len(recs) == 0 {
		panic(fmt.Errorf("facts: %s is empty", file))
	}
	t := table{file: file, header: recs[0], rows: recs[1:]}
	for _, col := range want {
		if !slices.Contains(t.header, col) {
			panic(fmt.Errorf("facts: %s has no column %q (header %v)", file, col, t.header))
		}
	}
	return t
}

// each calls fn for every record of the table.
func (t table) each(fn func(r row)) {
	for i, rec := range t.rows {
		fn(row{t: &t, line: i + 2, rec: rec})
	}
}

// row is one record with typed accessors by column name.
type row struct {
	t    *table
	line int
	rec  []string
}

func (r row) str(col string) string {
	i := slices.Index(r.t.header, col)
	if i < 0 {
		panic(fmt.Errorf("facts: %s has no column %q", r.t.file, col))
	}
	return r.rec[i]
}

// num parses a plain-number cell; empty is NaN. Any other text panics.
func (r row) num(col string) float64 {
	s := strings.TrimSpace(r.str(col))
	if s == "" {
		return math.NaN()
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(fmt.Errorf("facts: %s line %d column %s: %q is not a number", r.t.file, r.line, col, s))
	}
	return f
}

// integer parses a plain integer cell. Empty or other text panics.
func (r row) integer(col string) int {
	s := strings.TrimSpace(r.str(col))
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(fmt.Errorf("facts: %s line %d column %s: %q is not an integer", r.t.file, r.line, col, s))
	}
	return n
}

// status parses the status column.
func (r row) status() Status {
	st, err := ParseStatus(r.str("status"))
	if err != nil {
		panic(fmt.Errorf("facts: %s line %d: %w", r.t.file, r.line, err))
	}
	return st
}

// cite reads the source, status and note columns.
func (r row) cite() Citation {
	return Citation{Source: r.str("source"), Status: r.status(), Note: r.str("note")}
}

// lazy parses a file once and hands out copies.
type lazy[T any] struct {
	once sync.Once
	rows []T
}

func (l *lazy[T]) get(parse func() []T) []T {
	l.once.Do(func() { l.rows = parse() })
	return slices.Clone(l.rows)
}

// Files returns the names of the embedded CSV files.
func Files() []string {
	entries, err := data.ReadDir("data")
	if err != nil {
		panic(fmt.Errorf("facts: read embedded data: %w", err))
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".csv") {
			names = append(names, e.Name())
		}
	}
	return names
}

// Raw returns the embedded bytes of one file of the dataset (a CSV file or
// README.md): the file of ../shared/facts with this repository's additions
// appended.
func Raw(file string) ([]byte, error) {
	b, err := data.ReadFile("data/" + file)
	if err != nil {
		return nil, fmt.Errorf("facts: no embedded file %q (have %v and README.md)", file, Files())
	}
	return b, nil
}

// loadRows parses file once into l, converting each record with conv, and
// returns a copy of the rows.
func loadRows[T any](l *lazy[T], file string, conv func(r row) T) []T {
	return l.get(func() []T {
		var out []T
		mustTable(file).each(func(r row) { out = append(out, conv(r)) })
		return out
	})
}
