package bench

import (
	"math"
	"strings"
	"testing"

	"github.com/dlbd/dlbd/dl"
)

// transferred returns the bytes and copies To recorded from one device to
// another.
func transferred(from, to dl.Device) (bytes, count int64) {
	for _, tr := range dl.TransferStats() {
		if tr.From == from && tr.To == to {
			return tr.Bytes, tr.Count
		}
	}
	return 0, 0
}

func TestCopyMeasuresRealTransfers(t *testing.T) {
	dev := dl.Sim(2)
	h2d0, _ := transferred(dl.CPU, dev)
	d2h0, _ := transferred(dev, dl.CPU)
	sizes := []int64{256 << 10, 64 << 10}
	rs, err := Copy(CopyConfig{Device: dev, Sizes: sizes, Reps: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 6 {
		t.Fatalf("Copy returned %d results; want 2 sizes × 3", len(rs))
	}
	// The bytes To recorded must be exactly the copies the samples made:
	// per size, one copy to make the device tensor, a warm-up and a
	// calibration call per direction, then Inner copies per sample.
	var wantH2D, wantD2H int64
	for i, r := range rs {
		size := []int64{64 << 10, 256 << 10}[i/3]
		op, from, to := "To", "cpu", "sim:2"
		switch i % 3 {
		case 1:
			from, to = "sim:2", "cpu"
		case 2:
			op, to = "memcpy", "cpu"
		}
		if r.Op != op || r.From != from || r.To != to || r.Bytes != size {
			t.Errorf("result %d = %s %s→%s %d bytes; want %s %s→%s %d", i, r.Op, r.From, r.To, r.Bytes, op, from, to, size)
		}
		if len(r.Samples) < 1 || len(r.Samples) > 2 || r.Inner < 1 {
			t.Errorf("result %d: %d samples of %d copies; want 1..2 samples", i, len(r.Samples), r.Inner)
		}
		if want := float64(r.Bytes) / r.Seconds / 1e9; !(r.GBs > 0) || math.Abs(r.GBs-want) > 1e-9*want {
			t.Errorf("result %d: GBs = %g; want Bytes/Seconds/1e9 = %g", i, r.GBs, want)
		}
		copies := int64(r.Inner*len(r.Samples)) + 2
		switch i % 3 {
		case 0:
			wantH2D += size * (copies + 1)
		case 1:
			wantD2H += size * copies
		}
	}
	h2d, _ := transferred(dl.CPU, dev)
	d2h, _ := transferred(dev, dl.CPU)
	if h2d-h2d0 != wantH2D || d2h-d2h0 != wantD2H {
		t.Errorf("TransferStats grew by %d bytes cpu→sim:2 and %d sim:2→cpu; want %d and %d", h2d-h2d0, d2h-d2h0, wantH2D, wantD2H)
	}
	if m := dl.MemoryStats(dev); m.Allocated != 0 {
		t.Errorf("after Copy, sim:2 holds %d bytes of tensors; want 0 (everything released)", m.Allocated)
	}
}

func TestCopyErrors(t *testing.T) {
	cases := []struct {
		name string
		cfg  CopyConfig
		want string
	}{
		{name: "dev=cpu", cfg: CopyConfig{}, want: "bench: Copy to cpu: a copy from the CPU to itself moves nothing; use dl.Sim(0) or dl.CUDA(0)"},
		{name: "size=6", cfg: CopyConfig{Device: dl.Sim(0), Sizes: []int64{6}}, want: "size 6 bytes; sizes must be positive multiples of 4"},
		{name: "size=0", cfg: CopyConfig{Device: dl.Sim(0), Sizes: []int64{0}}, want: "size 0 bytes"},
		{name: "reps=-2", cfg: CopyConfig{Device: dl.Sim(0), Reps: -2}, want: "negative Reps (-2)"},
	}
	if dl.CUDAAvailable() != nil {
		cases = append(cases, struct {
			name string
			cfg  CopyConfig
			want string
		}{name: "dev=cuda:0/no-gpu", cfg: CopyConfig{Device: dl.CUDA(0)}, want: "bench: Copy on cuda:0: no usable GPU: "})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := Copy(tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Copy(%+v) = %d results, error %v; want an error containing %q", tc.cfg, len(rs), err, tc.want)
			}
		})
	}
}
