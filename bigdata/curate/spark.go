package curate

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dlbd/dlbd/bigdata/spark"
)

// Config says how documents are compared.
type Config struct {
	Quality   Quality // filters applied first (Gopher() when zero)
	K         int     // words per shingle (5 when zero)
	Bands     int     // MinHash bands (16 when zero)
	Rows      int     // hashes per band (8 when zero): Bands×Rows hashes per document
	Threshold float64 // a candidate pair is a near duplicate from this Jaccard similarity on (0.8 when zero)
	View      string  // prefix of the temporary views Run creates ("curate" when empty)
}

func (c Config) withDefaults() Config {
	if c.Quality.MaxWords == 0 {
		c.Quality = Gopher()
	}
	if c.K == 0 {
		c.K = 5
	}
	if c.Bands == 0 {
		c.Bands = 16
	}
	if c.Rows == 0 {
		c.Rows = 8
	}
	if c.Threshold == 0 {
		c.Threshold = 0.8
	}
	if c.View == "" {
		c.View = "curate"
	}
	return c
}

func (c Config) check() error {
	switch {
	case c.K < 1 || c.Bands < 1 || c.Rows < 1:
		return fmt.Errorf("curate: K=%d, Bands=%d and Rows=%d must all be at least 1", c.K, c.Bands, c.Rows)
	case c.Threshold <= 0 || c.Threshold > 1:
		return fmt.Errorf("curate: Threshold=%v is a Jaccard similarity: it must be in (0, 1]", c.Threshold)
	case strings.Trim(c.View, "abcdefghijklmnopqrstuvwxyz_0123456789") != "":
		return fmt.Errorf("curate: View=%q must be lower-case letters, digits and _ (it names Spark views)", c.View)
	}
	return nil
}

// Copy is an exact duplicate: document ID has the same Tokens as the earlier document Of.
type Copy struct{ ID, Of int64 }

// Report is what curation removed and why.
type Report struct {
	Config     Config
	Docs       int          // documents read
	Rejected   map[Rule]int // documents each quality rule removed
	Exact      []Copy       // exact duplicates removed, by ID
	Unique     []int64      // documents MinHash compares: passed the rules, not exact copies
	Candidates []Pair       // pairs MinHash made candidates, with their exact similarity (nil in Reference)
	Near       []Pair       // pairs at or above Config.Threshold, by (A, B)
	Removed    []int64      // near duplicates removed: the B of every Near pair, each once
	Kept       int          // documents left

	// Spark's time per step (zero in Reference).
	FilterTime, ExactTime, SignatureTime, CandidateTime time.Duration
}

// RejectedTotal is the number of documents the quality rules removed.
func (r *Report) RejectedTotal() int {
	n := 0
	for _, v := range r.Rejected {
		n += v
	}
	return n
}

// finish fills Removed and Kept from the other fields.
func (r *Report) finish() {
	slices.SortFunc(r.Near, comparePairs)
	r.Removed = r.Removed[:0]
	for _, p := range r.Near {
		r.Removed = append(r.Removed, p.B)
	}
	slices.Sort(r.Removed)
	r.Removed = slices.Compact(r.Removed)
	r.Kept = r.Docs - r.RejectedTotal() - len(r.Exact) - len(r.Removed)
}

func comparePairs(x, y Pair) int {
	if x.A != y.A {
		return int(x.A - y.A)
	}
	return int(x.B - y.B)
}

// Reference curates docs in Go, without Spark and without hashing: the quality rules,
// exact duplicates, and every pair compared exactly (Pairs). Run must agree with it on
// Rejected and Exact, and its Near pairs must be among Reference's.
func Reference(docs []Doc, cfg Config) (*Report, error) {
	cfg = cfg.withDefaults()
	if err := cfg.check(); err != nil {
		return nil, err
	}
	r := &Report{Config: cfg, Docs: len(docs), Rejected: map[Rule]int{}}
	sorted := slices.Clone(docs)
	slices.SortFunc(sorted, func(a, b Doc) int { return int(a.ID - b.ID) })
	first := map[string]int64{}
	var unique []Doc
	for _, d := range sorted {
		if why := cfg.Quality.Reason(d.Text); why != "" {
			r.Rejected[why]++
			continue
		}
		key := strings.Join(Tokens(d.Text), " ")
		if of, ok := first[key]; ok {
			r.Exact = append(r.Exact, Copy{d.ID, of})
			continue
		}
		first[key] = d.ID
		unique = append(unique, d)
		r.Unique = append(r.Unique, d.ID)
	}
	r.Near = Pairs(unique, cfg.K, cfg.Threshold)
	r.finish()
	return r, nil
}

// Run curates the JSON-lines corpus at path (WriteJSONL's format; a path the Spark server
// can read) in Spark: quality rules (Quality.SQL), exact duplicates (a window over the
// normalised text keeps the first by ID), MinHash signatures (xxhash64 of each shingle
// seeded by the hash index, the minimum over the shingles), band keys, a self-join on
// equal keys for the candidate pairs, and their exact Jaccard similarity
// (array_intersect / array_union). It leaves temporary views named cfg.View+"_…" in the
// session and uncaches what it cached.
func Run(ctx context.Context, s *spark.Session, path string, cfg Config) (*Report, error) {
	cfg = cfg.withDefaults()
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if strings.ContainsAny(path, "`\n") {
		return nil, fmt.Errorf("curate: path %q has a backquote or a newline: Spark SQL cannot name it", path)
	}
	v := func(name string) string { return cfg.View + "_" + name }
	exec := func(step, q string) error {
		if _, err := s.Sql(ctx, q); err != nil {
			return fmt.Errorf("curate: %s: %w", step, err)
		}
		return nil
	}
	r := &Report{Config: cfg, Rejected: map[Rule]int{}}
	tokens := `filter(split(lower(text), '[^\\p{L}\\p{N}]+'), x -> x <> '')`

	start := time.Now()
	steps := []struct{ step, q string }{
		{"read " + path, fmt.Sprintf(`CREATE OR REPLACE TEMPORARY VIEW %s AS
			SELECT id, source, text, filter(split(text, '\\s+'), x -> x <> '') AS words FROM json.`+"`%s`", v("docs"), path)},
		{"quality rules", fmt.Sprintf(`CREATE OR REPLACE TEMPORARY VIEW %s AS
			SELECT id, text, %s AS reason FROM %s`, v("quality"), cfg.Quality.SQL("text", "words"), v("docs"))},
	}
	for _, st := range steps {
		if err := exec(st.step, st.q); err != nil {
			return nil, err
		}
	}
	res, err := s.Query(ctx, fmt.Sprintf(`SELECT coalesce(reason, ''), count(*) FROM %s GROUP BY reason`, v("quality")))
	if err != nil {
		return nil, fmt.Errorf("curate: quality rules: %w", err)
	}
	for _, row := range res.Rows {
		n := int(row[1].(int64))
		r.Docs += n
		if why := row[0].(string); why != "" {
			r.Rejected[Rule(why)] = n
		}
	}
	r.FilterTime = time.Since(start)

	start = time.Now()
	if err := exec("exact duplicates", fmt.Sprintf(`CREATE OR REPLACE TEMPORARY VIEW %s AS
		SELECT id, tokens, first_value(id) OVER (PARTITION BY concat_ws(' ', tokens) ORDER BY id) AS first
		FROM (SELECT id, %s AS tokens FROM %s WHERE reason IS NULL)`, v("exact"), tokens, v("quality"))); err != nil {
		return nil, err
	}
	res, err = s.Query(ctx, fmt.Sprintf(`SELECT id, first FROM %s WHERE id <> first ORDER BY id`, v("exact")))
	if err != nil {
		return nil, fmt.Errorf("curate: exact duplicates: %w", err)
	}
	for _, row := range res.Rows {
		r.Exact = append(r.Exact, Copy{row[0].(int64), row[1].(int64)})
	}
	r.ExactTime = time.Since(start)

	start = time.Now()
	sig := v("signatures")
	exec("uncache", "UNCACHE TABLE IF EXISTS "+sig)
	defer s.Sql(context.WithoutCancel(ctx), "UNCACHE TABLE IF EXISTS "+sig)
	if err := exec("MinHash signatures", fmt.Sprintf(`CACHE TABLE %[1]s AS
		SELECT id, shingles, transform(sequence(0, %[2]d), j -> array_min(transform(shingles, s -> xxhash64(s, j)))) AS sig
		FROM (SELECT id, array_distinct(CASE WHEN size(tokens) < %[3]d THEN array(concat_ws(' ', tokens))
			ELSE transform(sequence(1, size(tokens) - %[3]d + 1), i -> concat_ws(' ', slice(tokens, i, %[3]d))) END) AS shingles
			FROM %[4]s WHERE id = first)`, sig, cfg.Bands*cfg.Rows-1, cfg.K, v("exact"))); err != nil {
		return nil, err
	}
	r.SignatureTime = time.Since(start)
	if res, err = s.Query(ctx, "SELECT id FROM "+sig+" ORDER BY id"); err != nil {
		return nil, fmt.Errorf("curate: MinHash signatures: %w", err)
	}
	for _, row := range res.Rows {
		r.Unique = append(r.Unique, row[0].(int64))
	}

	start = time.Now()
	if err := exec("band keys", fmt.Sprintf(`CREATE OR REPLACE TEMPORARY VIEW %s AS
		SELECT id, b, xxhash64(b, slice(sig, b * %d + 1, %d)) AS key
		FROM %s LATERAL VIEW explode(sequence(0, %d)) t AS b`, v("bands"), cfg.Rows, cfg.Rows, sig, cfg.Bands-1)); err != nil {
		return nil, err
	}
	res, err = s.Query(ctx, fmt.Sprintf(`SELECT c.a, c.b, size(array_intersect(x.shingles, y.shingles)) / size(array_union(x.shingles, y.shingles))
		FROM (SELECT DISTINCT p.id AS a, q.id AS b FROM %[1]s p JOIN %[1]s q ON p.b = q.b AND p.key = q.key AND p.id < q.id) c
		JOIN %[2]s x ON x.id = c.a JOIN %[2]s y ON y.id = c.b ORDER BY c.a, c.b`, v("bands"), sig))
	if err != nil {
		return nil, fmt.Errorf("curate: candidate pairs: %w", err)
	}
	for _, row := range res.Rows {
		p := Pair{row[0].(int64), row[1].(int64), row[2].(float64)}
		r.Candidates = append(r.Candidates, p)
		if p.Jaccard >= cfg.Threshold {
			r.Near = append(r.Near, p)
		}
	}
	r.CandidateTime = time.Since(start)
	r.finish()
	return r, nil
}
