package data_test

import (
	"context"
	"errors"
	"testing"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/data"
)

// TestEpochCancel: cancelling during an epoch stops the loader at the
// next batch with a *dl.CanceledError.
func TestEpochCancel(t *testing.T) {
	defer dl.SetCancel(nil)
	ds := data.NewTensorDataset(dl.Arange(0, 20, 1).Reshape(10, 2))
	l := data.NewDataLoader(ds, data.DataLoaderConfig{BatchSize: 2})
	ctx, stop := context.WithCancel(context.Background())
	dl.SetCancel(ctx)
	batches := 0
	err := dl.Catch(func() {
		for range l.Epoch(0) {
			batches++
			if batches == 2 {
				stop()
				for dl.Catch(func() { dl.CheckCancel("wait") }) == nil {
				} // the AfterFunc flag is set asynchronously
			}
		}
	})
	var ce *dl.CanceledError
	if !errors.As(err, &ce) || ce.Op != "DataLoader.Epoch" {
		t.Fatalf("epoch with a cancel after batch 2: err = %v; want a *dl.CanceledError from DataLoader.Epoch", err)
	}
	if batches != 2 {
		t.Errorf("got %d batches; want 2 (stopped at the third)", batches)
	}
}
