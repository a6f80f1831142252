package dl

import (
	"slices"
	"sync"
)

// To returns a copy of t on dev, or t itself if it is already there, like
// torch.Tensor.to(device).  The copy costs time proportional to t's bytes
// (between host and GPU it crosses PCIe or NVLink) and is recorded in
// TransferStats; between CPU and Sim devices it is a host memcpy.  To is
// differentiable: the gradient is copied back to t's device.
func (t *Tensor) To(dev Device) *Tensor {
	const op = "To"
	t.live(op)
	if dev == t.dev {
		return t
	}
	dst := newTensor(op, dev, t.dtype, t.shape)
	copyAcross(dst, t)
	if needsGrad(t) {
		src := t.dev
		record(op, dst, []*Tensor{t}, nil, func(g *Tensor) []*Tensor { return []*Tensor{g.To(src)} })
	}
	return dst
}

// copyAcross copies src's elements into dst (same dtype and length, any
// devices) and records the transfer.
func copyAcross(dst, src *Tensor) {
	if dst.n == 0 {
		return
	}
	copyView(dst.v("To"), src.v("To"))
	recordTransfer(src.dev, dst.dev, src.Bytes())
}

// AsType returns t converted to dtype dt, or t itself if it already has
// it, like torch.Tensor.to(dtype).  Conversions to Float16 and BFloat16
// round to nearest even.  AsType is differentiable.
func (t *Tensor) AsType(dt DType) *Tensor {
	const op = "AsType"
	t.live(op)
	if dt == t.dtype {
		return t
	}
	if t.dtype.isInt() || dt.isInt() {
		intOnHost(op, t)
	}
	out := newTensor(op, t.dev, dt, t.shape)
	if t.n > 0 {
		t.k(op).cast(out.v(op), t.v(op))
	}
	if needsGrad(t) && dt.IsFloat() { // an integer result has no gradient, as in PyTorch
		from := t.dtype
		record(op, out, []*Tensor{t}, nil, func(g *Tensor) []*Tensor { return []*Tensor{g.AsType(from)} })
	}
	return out
}

// Clone returns a copy of t with its own memory, like torch.Tensor.clone.
// It is differentiable.
func (t *Tensor) Clone() *Tensor {
	const op = "Clone"
	t.live(op)
	out := t.like(op, t.shape)
	if t.n > 0 {
		copyView(out.v(op), t.v(op))
	}
	if needsGrad(t) {
		record(op, out, []*Tensor{t}, nil, func(g *Tensor) []*Tensor { return []*Tensor{g.alias()} })
	}
	return out
}

// Transfer is the traffic between two devices recorded by To.
type Transfer struct {
	From, To Device
	Bytes    int64 // bytes copied
	Count    int64 // number of copies
}

var (
	transferMu sync.Mutex
	transfers  = map[[2]Device]*Transfer{}
)

func recordTransfer(from, to Device, n int64) {
	transferMu.Lock()
	tr := transfers[[2]Device{from, to}]
	if tr == nil {
		tr = &Transfer{From: from, To: to}
		transfers[[2]Device{from, to}] = tr
	}
	tr.Bytes += n
	tr.Count++
	transferMu.Unlock()
}

// TransferStats returns the bytes moved by To between each pair of
// devices since the start or ResetTransferStats, sorted by source and
// destination.
func TransferStats() []Transfer {
	transferMu.Lock()
	defer transferMu.Unlock()
	out := make([]Transfer, 0, len(transfers))
	for _, tr := range transfers {
		out = append(out, *tr)
	}
	slices.SortFunc(out, func(a, b Transfer) int {
		if c := compareDev(a.From, b.From); c != 0 {
			return c
		}
		return compareDev(a.To, b.To)
	})
	return out
}

// ResetTransferStats clears the records of TransferStats.
func ResetTransferStats() {
	transferMu.Lock()
	clear(transfers)
	transferMu.Unlock()
}

func compareDev(a, b Device) int {
	if a.kind != b.kind {
		return int(a.kind) - int(b.kind)
	}
	return a.index - b.index
}
