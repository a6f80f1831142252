package shards

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/dlbd/dlbd/bigdata/columnar"
)

// shardReader is one open shard of an interleave group.
type shardReader struct {
	f  *columnar.ParquetFile
	rr interface {
		Next() bool
		RecordBatch() arrow.RecordBatch
		Err() error
		Release()
	}
}

// interleave reads the shards of group one record batch from each in turn and pushes
// their rows; it reports false when push asked to stop.
func (l *Loader) interleave(ctx context.Context, group []int, push func([]float32) bool) (bool, error) {
	var open []*shardReader
	defer func() {
		for _, s := range open {
			s.rr.Release()
			s.f.Close()
		}
	}()
	for _, i := range group {
		p := l.cfg.Paths[i]
		f, err := columnar.OpenParquet(p, l.cfg.ReadRows)
		if err != nil {
			return false, err
		}
		idx, err := f.Columns(l.columns())
		if err != nil {
			f.Close()
			return false, err
		}
		rr, err := f.Records(ctx, idx)
		if err != nil {
			f.Close()
			return false, err
		}
		open = append(open, &shardReader{f: f, rr: rr})
	}
	for active := len(open); active > 0; {
		active = 0
		for _, s := range open {
			if s.rr == nil || !s.rr.Next() {
				continue
			}
			active++
			more, err := pushRows(s.f.Path, s.rr.RecordBatch(), push)
			if err != nil || !more {
				return false, err
			}
		}
		for _, s := range open {
			if err := s.rr.Err(); err != nil {
				return false, fmt.Errorf("bigdata/shards: %s is damaged (%v): write it again", s.f.Path, err)
			}
		}
		if err := ctx.Err(); err != nil {
			return false, err
		}
	}
	return true, nil
}

// pushRows converts a record batch (features then label, numeric) to float32 rows.
func pushRows(path string, rec arrow.RecordBatch, push func([]float32) bool) (bool, error) {
	nc, nr := int(rec.NumCols()), int(rec.NumRows())
	flat := make([]float32, nc*nr)
	for c := range nc {
		if n := rec.Column(c).NullN(); n > 0 {
			return false, fmt.Errorf("bigdata/shards: column %q of %s has %d nulls: fill or drop them when preparing the data (Spark: na.fill, na.drop)", rec.ColumnName(c), path, n)
		}
		toFloat32(rec.Column(c), flat, c, nc)
	}
	for r := range nr {
		if !push(flat[r*nc : (r+1)*nc : (r+1)*nc]) {
			return false, nil
		}
	}
	return true, nil
}

// toFloat32 writes column a into out[r*stride+col].
func toFloat32(a arrow.Array, out []float32, col, stride int) {
	switch v := a.(type) {
	case *array.Float32:
		spread(v.Float32Values(), out, col, stride)
	case *array.Float64:
		spread(v.Float64Values(), out, col, stride)
	case *array.Int64:
		spread(v.Int64Values(), out, col, stride)
	case *array.Int32:
		spread(v.Int32Values(), out, col, stride)
	case *array.Int16:
		spread(v.Int16Values(), out, col, stride)
	case *array.Int8:
		spread(v.Int8Values(), out, col, stride)
	}
}

// spread converts vals to float32 into every stride-th element of out from col.
func spread[T float32 | float64 | int64 | int32 | int16 | int8](vals []T, out []float32, col, stride int) {
	for r, x := range vals {
		out[r*stride+col] = float32(x)
	}
}
