package data

import (
	"fmt"
	"iter"

	"github.com/dlbd/dlbd/dl"
)

// DataLoaderConfig configures a DataLoader; the zero value is torch's
// DataLoader defaults: batches of 1, in order, keeping a short last batch.
//
// BatchSize 0 means the default, 1; torch refuses batch_size=0, so no
// choice is lost.
type DataLoaderConfig struct {
	BatchSize int     // examples per batch (torch batch_size); default 1
	Shuffle   bool    // a new permutation each epoch (torch shuffle); default false
	Seed      uint64  // seed of the permutations when Shuffle is set; default 0
	DropLast  bool    // drop a last batch smaller than BatchSize (torch drop_last); default false
	Sampler   Sampler // overrides Shuffle/Seed (e.g. a distributed sampler); default nil
}

// DataLoader cuts a dataset into batches, like torch.utils.data.DataLoader
// (single-process: no worker goroutines). The order of epoch e depends only
// on the sampler and e, so runs are reproducible from the seed.
type DataLoader struct {
	ds      Dataset
	cfg     DataLoaderConfig
	sampler Sampler
}

// NewDataLoader returns a DataLoader over ds. It panics with a
// *dl.ValueError on a negative batch size.
func NewDataLoader(ds Dataset, cfg DataLoaderConfig) *DataLoader {
	if cfg.BatchSize < 0 {
		panic(&dl.ValueError{Op: "data.NewDataLoader", Reason: fmt.Sprintf("BatchSize %d", cfg.BatchSize), Fix: "use a positive BatchSize (0: the default, 1)"})
	}
	cfg.BatchSize = or(cfg.BatchSize, 1)
	s := cfg.Sampler
	switch {
	case s != nil:
	case cfg.Shuffle:
		s = RandomSampler{N: ds.Len(), Seed: cfg.Seed}
	default:
		s = SequentialSampler{N: ds.Len()}
	}
	return &DataLoader{ds: ds, cfg: cfg, sampler: s}
}

// Len returns the number of batches per epoch (len(loader) in torch).
func (l *DataLoader) Len() int {
	n, b := l.sampler.Len(), l.cfg.BatchSize
	if l.cfg.DropLast {
		return n / b
	}
	return (n + b - 1) / b
}

// Epoch returns the batches of epoch e in order. Each batch is one tensor
// per dataset field (e.g. {x, y}), with the batch along the first axis:
//
//	for batch := range loader.Epoch(e) { x, y := batch[0], batch[1] }
//
// It checks the context of dl.SetCancel before each batch (and each
// example it fetches), panicking with a *dl.CanceledError when it is done.
func (l *DataLoader) Epoch(e int) iter.Seq[[]*dl.Tensor] {
	return func(yield func([]*dl.Tensor) bool) {
		idx := l.sampler.Indices(e)
		for start := 0; start < len(idx); start += l.cfg.BatchSize {
			dl.CheckCancel("DataLoader.Epoch") // dl.SetCancel: stop between batches
			end := min(start+l.cfg.BatchSize, len(idx))
			if l.cfg.DropLast && end-start < l.cfg.BatchSize {
				return
			}
			if !yield(l.batch(idx[start:end])) {
				return
			}
		}
	}
}

// batch fetches the examples at idx, through GetBatch when the dataset has
// it, else by stacking Get results (torch's default_collate).
func (l *DataLoader) batch(idx []int) []*dl.Tensor {
	if bd, ok := l.ds.(BatchDataset); ok {
		return bd.GetBatch(idx)
	}
	var fields [][]*dl.Tensor
	for _, i := range idx {
		dl.CheckCancel("DataLoader.Epoch")
		ex := l.ds.Get(i)
		if fields == nil {
			fields = make([][]*dl.Tensor, len(ex))
		}
		for k, t := range ex {
			fields[k] = append(fields[k], t)
		}
	}
	out := make([]*dl.Tensor, len(fields))
	for k, ts := range fields {
		out[k] = dl.Stack(ts, 0)
	}
	return out
}
