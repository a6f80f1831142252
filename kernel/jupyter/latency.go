package jupyter

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// LatencyOptions configures [Client.MeasureLatency]. The zero value times
// five executions with no warm-up.
type LatencyOptions struct {
	// Runs is the number of timed executions; 0 means 5.
	Runs int
	// Warmup is the number of untimed executions before them; 0 means none.
	// One warm-up run leaves Go's build cache and GoNB's temporary module
	// in their steady state, so the timed runs measure a warm cell.
	Warmup int
	// Edit, when not nil, changes the cell before every execution, warm-up
	// runs included: run i (counting from 0) executes Edit(code, i). A
	// changed cell is compiled and linked again, as when a student edits
	// it; nil executes code unchanged every time.
	Edit func(code string, run int) string
}

// Latency summarises repeated executions of one cell, each timed from
// sending execute_request to having both the reply and the idle status.
type Latency struct {
	// Code is the cell that was run.
	Code string
	// Samples are the timed executions in the order they ran.
	Samples []time.Duration
	// Median is the middle sample (the mean of the two middle ones for an
	// even count): unlike the mean, one slow outlier does not move it.
	Median time.Duration
	// Min is the fastest sample.
	Min time.Duration
	// Max is the slowest sample.
	Max time.Duration
}

// String returns "median 120ms (min 110ms, max 300ms, 5 runs)".
func (l Latency) String() string {
	return fmt.Sprintf("median %v (min %v, max %v, %d runs)", l.Median.Round(time.Millisecond),
		l.Min.Round(time.Millisecond), l.Max.Round(time.Millisecond), len(l.Samples))
}

// MeasureLatency executes code o.Warmup times untimed, then o.Runs times
// timed (each run edited by o.Edit when set), and returns the samples and
// their median. Every execution must succeed: the first failure is
// returned with the run it happened in.
func (c *Client) MeasureLatency(ctx context.Context, code string, o LatencyOptions) (Latency, error) {
	runs := o.Runs
	if runs <= 0 {
		runs = 5
	}
	l := Latency{Code: code}
	for i := 0; i < o.Warmup+runs; i++ {
		cell := code
		if o.Edit != nil {
			cell = o.Edit(code, i)
		}
		ex, err := c.Execute(ctx, cell)
		if err != nil {
			return l, fmt.Errorf("jupyter: measure latency: run %d of %d: %w", i+1, o.Warmup+runs, err)
		}
		if i >= o.Warmup {
			l.Samples = append(l.Samples, ex.Elapsed)
		}
	}
	sorted := slices.Clone(l.Samples)
	slices.Sort(sorted)
	l.Min, l.Max = sorted[0], sorted[len(sorted)-1]
	if n := len(sorted); n%2 == 1 {
		l.Median = sorted[n/2]
	} else {
		l.Median = (sorted[n/2-1] + sorted[n/2]) / 2
	}
	return l, nil
}
