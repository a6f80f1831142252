package curate

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// checkAgainstReference runs docs through Spark and through Reference and checks that
// they agree: the same rejections and exact copies, Spark's near pairs among the
// reference's with the same similarity, and every pair at 0.95 or more found.
func checkAgainstReference(t *testing.T, docs []Doc, cfg Config) (*Report, *Report) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "corpus.jsonl")
	if err := WriteJSONL(path, docs); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	got, err := Run(ctx, session(t), path, cfg)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Reference(docs, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d docs: rejected %v, %d exact, %d candidates, %d near (reference %d), kept %d; Spark filter %v exact %v signatures %v candidates %v",
		got.Docs, got.Rejected, len(got.Exact), len(got.Candidates), len(got.Near), len(want.Near), got.Kept,
		got.FilterTime, got.ExactTime, got.SignatureTime, got.CandidateTime)
	if got.Docs != len(docs) {
		t.Errorf("Spark read %d documents, wrote %d", got.Docs, len(docs))
	}
	for _, rule := range Rules {
		if got.Rejected[rule] != want.Rejected[rule] {
			t.Errorf("rule %s: Spark rejected %d documents, Go %d", rule, got.Rejected[rule], want.Rejected[rule])
		}
	}
	if !slices.Equal(got.Exact, want.Exact) {
		t.Errorf("exact duplicates: Spark %v, Go %v", got.Exact, want.Exact)
	}
	if !slices.Equal(got.Unique, want.Unique) {
		t.Errorf("documents compared by MinHash: Spark %d, Go %d", len(got.Unique), len(want.Unique))
	}
	ref := map[[2]int64]float64{}
	for _, p := range want.Near {
		ref[[2]int64{p.A, p.B}] = p.Jaccard
	}
	for _, p := range got.Near {
		j, ok := ref[[2]int64{p.A, p.B}]
		if !ok || math.Abs(j-p.Jaccard) > 1e-12 {
			t.Errorf("Spark's near pair %v: the exact comparison gives %v (found %v)", p, j, ok)
		}
		delete(ref, [2]int64{p.A, p.B})
	}
	for k, j := range ref {
		if p := Probability(j, got.Config.Bands, got.Config.Rows); p > 1-1e-6 {
			t.Errorf("pair %v with similarity %.3f missed, though MinHash finds it with probability %v", k, j, p)
		}
	}
	return got, want
}
