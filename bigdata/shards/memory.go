package shards

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/data"
)

// LoadAll reads every shard of cfg (all ranks' shards, in order) into memory as a
// data.TensorDataset {x [N, F], y [N]}: the in-memory loader to compare a streaming Loader
// with (data.NewDataLoader over it), for datasets that fit in RAM.
func LoadAll(cfg Config) (*data.TensorDataset, error) {
	cfg.Shuffle, cfg.Rank, cfg.World, cfg.Prefetch, cfg.Interleave = false, 0, 1, -1, 1
	l, err := New(cfg)
	if err != nil {
		return nil, err
	}
	nf := len(cfg.Features)
	var xs, ys []float32
	rows := func(row []float32) bool {
		xs, ys = append(xs, row[:nf]...), append(ys, row[nf])
		return true
	}
	for i := range cfg.Paths {
		if _, err := l.interleave(context.Background(), []int{i}, rows); err != nil {
			return nil, err
		}
	}
	return data.NewTensorDataset(dl.FromSlice(xs, len(ys), nf), dl.FromSlice(ys, len(ys))), nil
}

// ReadBandwidth reads the files' bytes (and only that: no decoding) and returns the bytes
// read and the rate in bytes per second. Files read recently come from the operating
// system's page cache, not the disk: the rate is then memory bandwidth through read(2).
func ReadBandwidth(paths []string) (int64, float64, error) {
	buf := make([]byte, 1<<20)
	var n int64
	start := time.Now()
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return 0, 0, fmt.Errorf("bigdata/shards: %w", err)
		}
		m, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{f}, buf)
		f.Close()
		if err != nil {
			return 0, 0, fmt.Errorf("bigdata/shards: read %s: %w", p, err)
		}
		n += m
	}
	return n, float64(n) / time.Since(start).Seconds(), nil
}
