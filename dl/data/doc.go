// Package data feeds examples to training loops: samplers that fix the order
// of each epoch from a seed, and synthetic datasets that need no download.
//
// # Overview
//
// A [Sampler] returns the example indices of an epoch as a pure function of
// the epoch number ([SequentialSampler], [RandomSampler]), so a run resumed
// at epoch e sees the same order again, and a distributed sampler can split
// one permutation between ranks (PyTorch's DistributedSampler seeds with
// seed + epoch for the same reason). [Permutation] is the shuffle they use,
// with its algorithm fixed in this package.
//
// Comparing a run with PyTorch: the samplers follow PyTorch's rules (sizes,
// padding, which rank takes which position), but their permutations come
// from [Permutation], not from torch.randperm, so with Shuffle the same
// seed gives another order than PyTorch's and the losses of the two runs
// differ step by step (their statistics do not).  To compare step for
// step, turn Shuffle off on both sides, or feed dl the order PyTorch
// printed through a [Sampler] of your own.
//
// Synthetic tasks: spirals and Gaussian blobs (classification), noisy linear
// regression, and a [Teacher] network whose students' test loss falls as a
// power law in model size and data — the scaling-law experiment of the
// course, small enough to run live. Their numbers come from PCG with fixed
// uniform and Box–Muller algorithms: a dataset depends only on its seed.
//
// A [Dataset] returns examples by index; [TensorDataset] wraps tensors
// whose first axis indexes the examples, and also fetches whole batches with
// one gather per tensor ([BatchDataset], PyTorch's __getitems__). A
// [DataLoader] cuts an epoch into batches (batch size, seeded shuffle,
// drop_last) and takes any [Sampler], the seam for a distributed sampler.
//
// [Spirals], [Blobs], [Regression] and [Teacher.Sample] return Float32
// tensors on CPU; class labels are Int64 indices, as PyTorch's datasets
// give them (dl.CrossEntropy takes them). TestTeacherScaling trains small students to check
// that the teacher task's test loss falls with model size and with data.
//
// # Errors
//
// Misuse (a negative layer size, an input of the wrong length) panics with a
// *dl.ValueError or *dl.ShapeError naming the function and the fix.
//
// # Concepts
//
// Course: "¿Por qué el Deep Learning necesita Big Data?" and "Leyes de escala
// (Scaling Laws)".
// Paper: Sharma & Kaplan 2020 (arXiv:2004.10802) for the teacher–student
// scaling law; Kaplan et al. 2020 (arXiv:2001.08361) for L(N) and L(D).
package data
