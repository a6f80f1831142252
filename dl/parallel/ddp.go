package parallel

import (
	"fmt"
	"strings"
	"time"

	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/dist"
	"github.com/dlbd/dlbd/dl/nn"
)

// DDPConfig configures NewDDP. The zero value is PyTorch's defaults.
type DDPConfig struct {
	// BucketBytes caps a gradient bucket (torch bucket_cap_mb·2²⁰); a bucket
	// closes once it reaches the cap. Default 25 MiB (DefaultBucketBytes).
	BucketBytes int64
	// FirstBucketBytes caps the first bucket (the last layers' gradients,
	// ready first); default 1 MiB (DefaultFirstBucketBytes).
	FirstBucketBytes int64
}

// DDP is PyTorch's DistributedDataParallel: data parallelism whose gradient
// all-reduce overlaps with backward. Read NaiveDDP first; DDP adds:
//
//   - buckets: gradients are views into flat buffers of about 25 MiB
//     (BucketBytes), in reverse parameter order, so one all-reduce carries
//     many tensors (one latency α per bucket, not per tensor). The
//     all-reduce is the group's algorithm, which in a local group is
//     dist.SharedMemory by default, not the ring NCCL runs between GPUs:
//     set dist.Config.AllReduce to dist.Ring to run (and record) the ring;
//   - overlap: a hook on every parameter (Tensor.RegisterPostAccumulateGradHook)
//     counts the gradients backward has finished; when a bucket is complete
//     its all-reduce starts in the background (Rank.AllReduceAsync) while
//     backward goes on with earlier layers; buckets start in index order,
//     the same on every rank, as collectives must be;
//   - synchronisation inside Backward: after the last bucket has started,
//     the hook waits for all of them, so when loss.Backward() returns every
//     rank holds the mean gradient ("DDP sincroniza gradientes
//     automáticamente", as the course says);
//   - NoSync, to accumulate gradients locally over several micro-batches
//     and all-reduce once.
//
// Every parameter must receive a gradient in every backward (PyTorch's
// find_unused_parameters=False): Forward panics if the previous backward
// left a bucket unfinished.
//
// Course: "Data Parallelism (DP)".
// Paper: Li et al. 2020, PyTorch Distributed: Experiences on Accelerating Data Parallel Training (arXiv:2006.15704).
type DDP struct {
	Module  nn.Module
	rank    *dist.Rank
	buckets []*bucket
	next    int // the next bucket to launch, in index order
	noSync  bool
	start   time.Time
	cur     SyncTrace // the backward in progress
	last    SyncTrace // the last synchronised backward
}

var _ nn.Module = (*DDP)(nil)

// SyncTrace is the timing of the last synchronised backward of a DDP:
// when each bucket's all-reduce was launched and when backward had
// finished, measured from the start of the Forward call of that step.
// Launches before BackwardDone are communication that overlapped with
// backward.
type SyncTrace struct {
	Launched     []time.Duration // per bucket, in launch (= index) order
	BackwardDone time.Duration   // the last gradient was final
	Synced       time.Duration   // every all-reduce had finished
}

// NewDDP wraps m, whose parameters must be on r's device: it broadcasts
// rank 0's parameters to every rank, assigns the gradient buckets and
// registers the hooks. Every rank of r's group must call it with the same
// model structure.
func NewDDP(m nn.Module, r *dist.Rank, cfg DDPConfig) (*DDP, error) {
	if cfg.BucketBytes <= 0 {
		cfg.BucketBytes = DefaultBucketBytes
	}
	if cfg.FirstBucketBytes <= 0 {
		cfg.FirstBucketBytes = DefaultFirstBucketBytes
	}
	if err := broadcastParams("NewDDP", m, r); err != nil {
		return nil, err
	}
	d := &DDP{Module: m, rank: r}
	nps := m.NamedParameters()
	names, params := make([]string, len(nps)), make([]*dl.Tensor, len(nps))
	for i, p := range nps {
		names[i], params[i] = p.Name, p.Tensor
	}
	for bi, idx := range assignBuckets(params, cfg.FirstBucketBytes, cfg.BucketBytes) {
		b := newBucket(names, params, idx, r.Device())
		d.buckets = append(d.buckets, b)
		for j, p := range b.params {
			p.RegisterPostAccumulateGradHook(func(*dl.Tensor) { d.gradReady(bi, j) })
		}
	}
	return d, nil
}

// Forward checks that the previous backward finished its reduction, makes
// the gradients views of the buckets again (ZeroGrad releases them), and
// runs the wrapped module.
func (d *DDP) Forward(x *dl.Tensor) *dl.Tensor {
	d.checkFinished()
	for _, b := range d.buckets {
		b.install()
	}
	d.start, d.cur = time.Now(), SyncTrace{}
	return d.Module.Forward(x)
}

// NoSync runs fn with gradient synchronisation off, like `with
// ddp.no_sync():`: backward passes inside fn accumulate gradients locally,
// and the first synchronised backward after it all-reduces the sums.
func (d *DDP) NoSync(fn func()) {
	d.noSync = true
	defer func() { d.noSync = false }()
	fn()
}

// Buckets describes the gradient buckets, in the order they are
// all-reduced.
func (d *DDP) Buckets() []BucketInfo {
	out := make([]BucketInfo, len(d.buckets))
	for i, b := range d.buckets {
		out[i] = b.info(i)
	}
	return out
}

// LastSync returns the timing of the last synchronised backward.
func (d *DDP) LastSync() SyncTrace { return d.last }

// NamedParameters returns the wrapped module's parameters prefixed with
// "module.", as PyTorch's DistributedDataParallel names them.
func (d *DDP) NamedParameters() []nn.NamedParameter { return moduleNames(d.Module) }

// SetTraining sets the wrapped module's mode.
func (d *DDP) SetTraining(training bool) { d.Module.SetTraining(training) }

// gradReady is the hook of parameter j of bucket bi: it makes sure the
// gradient lives in the bucket, counts the finished gradients and launches
// complete buckets in index order.
func (d *DDP) gradReady(bi, j int) {
	d.buckets[bi].adopt(j)
	if d.noSync {
		return
	}
	d.buckets[bi].ready++
	for d.next < len(d.buckets) {
		b := d.buckets[d.next]
		if b.ready < len(b.params) {
			return
		}
		b.ready = 0
		// The mean: sum, then divide by N. (PyTorch divides each gradient by
		// N before a sum all-reduce, because in fp16 the sum of N ranks can
		// overflow; dist's Mean divides after the sum, exact enough in
		// float32/float64.)
		b.work = d.rank.AllReduceAsync(b.flat, dist.Mean)
		d.cur.Launched = append(d.cur.Launched, time.Since(d.start))
		d.next++
	}
	d.cur.BackwardDone = time.Since(d.start)
	d.finish()
}

// finish waits for every bucket's all-reduce. It runs inside Backward (in
// the last hook), so a failure can only be reported by panicking.
func (d *DDP) finish() {
	d.next = 0
	var first error
	for i, b := range d.buckets {
		if err := b.work.Wait(); err != nil && first == nil {
			first = fmt.Errorf("parallel: DDP all-reduce of gradient bucket %d on %v: %w", i, d.rank, err)
		}
		b.work = nil
	}
	d.cur.Synced = time.Since(d.start)
	d.last, d.cur = d.cur, SyncTrace{}
	if first != nil {
		panic(first)
	}
}

// checkFinished panics if the previous backward left buckets unfinished:
// some parameter did not take part in the loss.
func (d *DDP) checkFinished() {
	if d.next == 0 && !d.anyReady() {
		return
	}
	var missing []string
	for _, b := range d.buckets {
		if b.ready == 0 && b.work == nil {
			missing = append(missing, b.names...)
		}
	}
	panic(&dl.AutogradError{Op: "parallel.DDP.Forward",
		Reason: fmt.Sprintf("on %v the previous backward finished only %d of %d gradient buckets (no gradient reached e.g. %s): "+
			"expected to have finished reduction in the prior iteration, as PyTorch says",
			d.rank, d.next, len(d.buckets), strings.Join(missing[:min(len(missing), 3)], ", ")),
		Fix: "every parameter must take part in the loss (find_unused_parameters=True is not supported)"})
}

// anyReady reports whether some bucket counted gradients of an unfinished
// backward.
func (d *DDP) anyReady() bool {
	for _, b := range d.buckets {
		if b.ready > 0 {
			return true
		}
	}
	return false
}
