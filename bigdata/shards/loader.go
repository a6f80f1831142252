package shards

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/dlbd/dlbd/bigdata/columnar"
	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/data"
)

// Config configures a Loader. Paths, Features and Label are required; the zero value of the
// rest is batches of 64 in shard order, one rank, 4 batches prefetched.
type Config struct {
	Paths         []string // the shards (columnar.Shards lists a directory)
	Features      []string // numeric columns that form x, in order
	Label         string   // numeric column that forms y
	BatchSize     int      // rows per batch (torch batch_size); default 64
	Shuffle       bool     // new shard order each epoch and a shuffle buffer (torch shuffle); default false
	Seed          uint64   // seed of the shuffles, the same on every rank; default 0
	ShuffleBuffer int      // rows in the shuffle buffer when Shuffle is set; default 4096
	Interleave    int      // shards read at once; default 4 when Shuffle is set, else 1
	Prefetch      int      // batches a goroutine prepares ahead; default 4; negative: none (read in the loop)
	ReadRows      int      // rows per Arrow record batch read from a shard; default 8192
	Rank, World   int      // this rank and the number of ranks (DDP); default 0 of 1
}

// Stats is what the last epoch measured.
type Stats struct {
	Batches  int           // batches yielded
	Rows     int           // rows yielded
	Wait     time.Duration // time the loop spent waiting for a batch (the data stall)
	Elapsed  time.Duration // from the first request to the end of the epoch
	Produced int64         // batches the producer had made (ahead of the loop with prefetch)
}

// Loader streams shards into batches of tensors; see the package overview.
type Loader struct {
	cfg      Config
	rows     []int64 // per shard
	steps    int
	stats    Stats
	produced atomic.Int64
	err      error
}

// New checks every shard (footer, columns and types) and returns a Loader.
func New(cfg Config) (*Loader, error) {
	if len(cfg.Paths) == 0 || len(cfg.Features) == 0 || cfg.Label == "" {
		return nil, errors.New("bigdata/shards: Config needs Paths, Features and Label (columnar.Shards(dir) lists a dataset's files)")
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = 64
	}
	if cfg.ShuffleBuffer == 0 {
		cfg.ShuffleBuffer = 4096
	}
	if cfg.Interleave == 0 {
		cfg.Interleave = 1
		if cfg.Shuffle {
			cfg.Interleave = 4
		}
	}
	if cfg.Prefetch == 0 {
		cfg.Prefetch = 4
	}
	if cfg.ReadRows == 0 {
		cfg.ReadRows = 8192
	}
	if cfg.World == 0 {
		cfg.World = 1
	}
	if cfg.BatchSize < 0 || cfg.Rank < 0 || cfg.Rank >= cfg.World {
		return nil, fmt.Errorf("bigdata/shards: Config{BatchSize: %d, Rank: %d, World: %d}: want BatchSize ≥ 1 and 0 ≤ Rank < World", cfg.BatchSize, cfg.Rank, cfg.World)
	}
	l := &Loader{cfg: cfg}
	var want *arrow.Schema
	for _, p := range cfg.Paths {
		f, err := columnar.OpenParquet(p, cfg.ReadRows)
		if err != nil {
			return nil, err
		}
		idx, err := f.Columns(l.columns())
		if err == nil {
			sub := subSchema(f.Schema, idx)
			if want == nil {
				want, err = sub, checkNumeric(p, sub)
			} else {
				err = columnar.CheckSchema(p, sub, want)
			}
		}
		l.rows = append(l.rows, f.Rows)
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	// Every rank gets ⌈N/R⌉ shards; the smallest shards bound the rows any rank can have.
	per := (len(l.rows) + cfg.World - 1) / cfg.World
	sorted := slices.Clone(l.rows)
	slices.Sort(sorted)
	var least int64
	for _, n := range sorted[:per] {
		least += n
	}
	l.steps = int(least) / cfg.BatchSize
	if l.steps == 0 {
		return nil, fmt.Errorf("bigdata/shards: a rank may get only %d rows, less than one batch of %d: use smaller batches or fewer ranks", least, cfg.BatchSize)
	}
	return l, nil
}

func (l *Loader) columns() []string { return append(slices.Clone(l.cfg.Features), l.cfg.Label) }

func subSchema(s *arrow.Schema, idx []int) *arrow.Schema {
	fs := make([]arrow.Field, len(idx))
	for i, j := range idx {
		fs[i] = s.Field(j)
		fs[i].Metadata = arrow.Metadata{}
	}
	return arrow.NewSchema(fs, nil)
}

func checkNumeric(path string, s *arrow.Schema) error {
	for _, f := range s.Fields() {
		switch f.Type.ID() {
		case arrow.FLOAT32, arrow.FLOAT64, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		default:
			return fmt.Errorf("bigdata/shards: column %q of %s is %s: features and labels must be numeric; encode it when preparing the data (Spark: StringIndexer or a CASE expression)", f.Name, path, f.Type)
		}
	}
	return nil
}

// Len returns the batches of every epoch on every rank.
func (l *Loader) Len() int { return l.steps }

// Rows returns the row count of each shard, from the footers.
func (l *Loader) Rows() []int64 { return slices.Clone(l.rows) }

// Shards returns the shard indices rank Rank reads in epoch e, in reading order.
func (l *Loader) Shards(e int) []int {
	return data.DistributedSampler{N: len(l.rows), NumReplicas: l.cfg.World, Rank: l.cfg.Rank,
		Shuffle: l.cfg.Shuffle, Seed: l.cfg.Seed}.Indices(e)
}

// Stats returns what the last (or current) epoch measured.
func (l *Loader) Stats() Stats {
	s := l.stats
	s.Produced = l.produced.Load()
	return s
}

// Err returns the error that ended the last epoch early, or nil.
func (l *Loader) Err() error { return l.err }

// Epoch returns the Len() batches of epoch e, each {x [B, F], y [B]} in float32 on CPU.
func (l *Loader) Epoch(e int) iter.Seq[[]*dl.Tensor] {
	return func(yield func([]*dl.Tensor) bool) {
		l.stats, l.err = Stats{}, nil
		l.produced.Store(0)
		start := time.Now()
		defer func() { l.stats.Elapsed = time.Since(start) }()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		if l.cfg.Prefetch < 0 { // no goroutine: the loop waits for every read
			last := start
			l.err = l.produce(ctx, e, func(b []*dl.Tensor) bool {
				l.stats.Wait += time.Since(last)
				ok := l.deliver(b, yield)
				last = time.Now()
				return ok
			})
			return
		}
		ch := make(chan []*dl.Tensor, l.cfg.Prefetch)
		var perr error
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { // exits at the end of the epoch or when ctx is cancelled
			defer wg.Done()
			defer close(ch)
			perr = l.produce(ctx, e, func(b []*dl.Tensor) bool {
				select {
				case ch <- b:
					return true
				case <-ctx.Done():
					return false
				}
			})
		}()
		for {
			t := time.Now()
			b, ok := <-ch
			l.stats.Wait += time.Since(t)
			if !ok || !l.deliver(b, yield) {
				break
			}
		}
		cancel()
		for range ch { // let the producer see the cancellation and exit
		}
		wg.Wait()
		l.err = perr
	}
}

// deliver yields one batch and counts it.
func (l *Loader) deliver(b []*dl.Tensor, yield func([]*dl.Tensor) bool) bool {
	l.stats.Batches++
	l.stats.Rows += b[0].Size(0)
	return yield(b)
}

// produce reads this rank's shards of epoch e and sends Len() batches to send.
func (l *Loader) produce(ctx context.Context, e int, send func([]*dl.Tensor) bool) error {
	nf := len(l.cfg.Features)
	rng := rand.New(rand.NewPCG(l.cfg.Seed, uint64(e)<<16|uint64(l.cfg.Rank)))
	var buf [][]float32 // shuffle buffer of rows (features then label)
	var xs, ys []float32
	made := 0
	emit := func(row []float32) bool {
		xs, ys = append(xs, row[:nf]...), append(ys, row[nf])
		if len(ys) < l.cfg.BatchSize {
			return true
		}
		b := []*dl.Tensor{dl.FromSlice(xs, len(ys), nf), dl.FromSlice(ys, len(ys))}
		xs, ys = nil, nil
		made++
		l.produced.Add(1)
		return send(b) && made < l.steps
	}
	push := func(row []float32) bool {
		if !l.cfg.Shuffle {
			return emit(row)
		}
		if len(buf) < l.cfg.ShuffleBuffer {
			buf = append(buf, row)
			return true
		}
		i := rng.IntN(len(buf))
		out := buf[i]
		buf[i] = row
		return emit(out)
	}
	order := l.Shards(e)
	for g := 0; g < len(order); g += l.cfg.Interleave {
		group := order[g:min(g+l.cfg.Interleave, len(order))]
		more, err := l.interleave(ctx, group, push)
		if err != nil {
			return err
		}
		if !more {
			return ctx.Err()
		}
	}
	rng.Shuffle(len(buf), func(i, j int) { buf[i], buf[j] = buf[j], buf[i] })
	for _, row := range buf {
		if !emit(row) {
			break
		}
	}
	return nil
}

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
		rr, err := f.Reader.GetRecordReader(ctx, idx, nil)
		if err != nil {
			f.Close()
			return false, fmt.Errorf("bigdata/shards: %s: %w", p, err)
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
