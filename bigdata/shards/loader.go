package shards

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/dlbd/dlbd/bigdata/columnar"
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
