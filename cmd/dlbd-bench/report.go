package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"

	"github.com/dlbd/dlbd/dl/bench"
)

// result is one row of build/bench.json (bench.Report, the format the
// notebooks read with bench.ReadReports) and what the table shows besides.
type result struct {
	bench.Report

	spread string  // min..max of ours over rounds, for the table
	paired float64 // median over rounds of that round's ours/anchor ratio (0: none)
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// results reduces the samples: medians over rounds, and for anchors with
// several environment variants the better median.
func (r *runner) results(entries []entry) []result {
	var out []result
	for _, e := range entries {
		xs := r.ours[e.Name]
		if len(xs) == 0 {
			continue
		}
		res := result{Report: bench.Report{Name: e.Name, Value: median(xs), Unit: e.Unit},
			spread: fmt.Sprintf("%.3g..%.3g", slices.Min(xs), slices.Max(xs))}
		if e.Anchor != nil {
			res.Anchor = e.Anchor.Label
			best, bestName, found := 0.0, "", false
			for name, vs := range r.anchors[e.Name] {
				m := median(vs)
				if !found || (e.Higher && m > best) || (!e.Higher && m < best) {
					best, bestName, found = m, name, true
				}
			}
			if found {
				if bestName != "" {
					res.Anchor += " [" + bestName + "]"
				}
				ratio := res.Value / best
				if !e.Higher {
					ratio = best / res.Value
				}
				res.AnchorValue, res.Ratio = &best, &ratio
				res.paired = pairedRatio(xs, r.anchors[e.Name][bestName], e.Higher)
			}
		}
		out = append(out, res)
	}
	return out
}

// pairedRatio is the median over rounds of ours/anchor within the round
// (anchor/ours for times): each pair ran back to back, so a load that
// comes and goes between rounds cancels out.  0 if the rounds do not pair.
func pairedRatio(ours, anchor []float64, higher bool) float64 {
	if len(ours) != len(anchor) || len(ours) == 0 {
		return 0
	}
	rs := make([]float64, len(ours))
	for i := range ours {
		rs[i] = ours[i] / anchor[i]
		if !higher {
			rs[i] = anchor[i] / ours[i]
		}
	}
	return median(rs)
}

func printTable(w io.Writer, rs []result, anchors []string) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "name\tours\tunit\tanchor\tanchor value\tratio\tpaired\tours min..max\t")
	for _, r := range rs {
		av, ratio, paired := "-", "-", "-"
		if r.AnchorValue != nil {
			av, ratio = fmt.Sprintf("%.4g", *r.AnchorValue), fmt.Sprintf("%.2f", *r.Ratio)
		}
		if r.paired > 0 {
			paired = fmt.Sprintf("%.2f", r.paired)
		}
		fmt.Fprintf(tw, "%s\t%.4g\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Name, r.Value, r.Unit, r.Anchor, av, ratio, paired, r.spread)
	}
	fmt.Fprintln(w, "ratio: median ours / median anchor (as in bench.json); paired: median over rounds of the round's ratio")
	tw.Flush()
	for _, a := range anchors {
		fmt.Fprintln(w, "anchor", a)
	}
}

// writeJSON writes the results atomically (temp file + rename).
func writeJSON(path string, rs []result) error {
	for _, r := range rs {
		if math.IsNaN(r.Value) || math.IsInf(r.Value, 0) {
			return fmt.Errorf("dlbd-bench: %s: value %v is not finite", r.Name, r.Value)
		}
	}
	data, err := json.MarshalIndent(rs, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".bench-*.json")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
