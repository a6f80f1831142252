#!/usr/bin/env python3
"""Classic-ML learning curves on MNIST for notebook 02 (¿Por qué el DL necesita Big Data?).

Reads MNIST's four IDX .gz files itself (numpy only) from the directory given as the first
argument (the notebook passes mnist.DataDir()), and for each training-set size trains, on a
random subset drawn with a fixed seed:

  logistic  sklearn LogisticRegression (lbfgs, multinomial, max_iter bounded, one BLAS thread)
  forest    sklearn RandomForestClassifier (100 trees, n_jobs = the machine's cores)

then evaluates on the test set (all 10,000 images, or a fixed random subsample with --test-n).
Prints one JSON object per line and flushes it at once, so a caller can follow the progress:

  {"size": 500, "model": "logistic", "accuracy": 0.84, "log_loss": 0.55, "seconds": 0.4, ...}

The subsets are nested: the first n of one order of the 60,000 training images, so a larger
size adds images to a smaller one. The order is a numpy permutation drawn with --seed, or, with
--order-stdin, a JSON array of training indices read from stdin: the notebook sends
data.Permutation(60000, seed, 0), the order mnist.Load(Options{N, Random, Seed}) draws from, so
the Go models and these train on the same images. Deterministic: every seed is fixed, BLAS runs
on one thread, and the forest's result does not depend on n_jobs.

Usage: mnist_sklearn.py DATA_DIR [--sizes 500,1000,2000] [--models logistic,forest]
                        [--order-stdin] [--test-n 0] [--seed 0] [--max-iter 200] [--trees 100]
                        [--jobs N]
Exit status 3, with a message on stderr, when scikit-learn is not installed.
"""
import argparse
import gzip
import json
import os
import struct
import sys
import time
import warnings

try:
    import numpy as np
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss
    from threadpoolctl import threadpool_limits
except ImportError as e:  # the notebook shows this message as it is
    print(f"mnist_sklearn: falta scikit-learn en este Python ({sys.executable}): {e}. "
          "Instálalo con scripts/setup.sh (requirements-ml.txt).", file=sys.stderr)
    sys.exit(3)

FILES = {
    "train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", 60000),
    "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz", 10000),
}


def read_idx(path):
    """Decodes a gzip-compressed IDX file of unsigned bytes into an ndarray of its shape."""
    with gzip.open(path, "rb") as f:
        data = f.read()
    zero, dtype, ndim = struct.unpack(">HBB", data[:4])
    if zero != 0 or dtype != 0x08:
        raise ValueError(f"{path}: not an IDX file of unsigned bytes (magic {data[:4].hex()})")
    shape = struct.unpack(">" + "I" * ndim, data[4:4 + 4 * ndim])
    body = np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim)
    if body.size != int(np.prod(shape)):
        raise ValueError(f"{path}: {body.size} bytes of data for shape {shape}")
    return body.reshape(shape)


def load(data_dir, split):
    """Images as float32 [n, 784] in [0, 1] (pixels / 255) and labels as int64 [n]."""
    images, labels, n = FILES[split]
    x = read_idx(os.path.join(data_dir, images))
    y = read_idx(os.path.join(data_dir, labels))
    if x.shape != (n, 28, 28) or y.shape != (n,):
        raise ValueError(f"{split}: shapes {x.shape} and {y.shape}, want ({n}, 28, 28) and ({n},)")
    return x.reshape(n, 784).astype(np.float32) / 255.0, y.astype(np.int64)


def model(name, args, seed):
    if name == "logistic":
        return LogisticRegression(solver="lbfgs", max_iter=args.max_iter, random_state=seed)
    if name == "forest":
        return RandomForestClassifier(n_estimators=args.trees, n_jobs=args.jobs, random_state=seed)
    raise SystemExit(f"mnist_sklearn: unknown model {name!r} (use logistic, forest)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("data_dir")
    p.add_argument("--sizes", default="500,1000,2000,5000,10000,20000")
    p.add_argument("--models", default="logistic,forest")
    p.add_argument("--order-stdin", action="store_true", help="read the order of the training images (JSON array) from stdin")
    p.add_argument("--test-n", type=int, default=0, help="test images, drawn with the seed (0: all 10,000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-iter", type=int, default=200)
    p.add_argument("--trees", type=int, default=100)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = p.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    names = [m for m in args.models.split(",") if m]

    x_train, y_train = load(args.data_dir, "train")
    x_test, y_test = load(args.data_dir, "test")
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(len(y_train))
    if args.order_stdin:
        order = np.asarray(json.load(sys.stdin), dtype=np.int64)
        if order.ndim != 1 or len(np.unique(order)) != len(order) or not np.all((0 <= order) & (order < len(y_train))):
            raise SystemExit("mnist_sklearn: --order-stdin wants a JSON array of distinct indices in 0..59999")
    if args.test_n:
        keep = rng.permutation(len(y_test))[:args.test_n]
        x_test, y_test = x_test[keep], y_test[keep]
    for n in sizes:
        if not 0 < n <= len(order):
            raise SystemExit(f"mnist_sklearn: size {n} outside 1..{len(order)} (the images in the order)")
        idx = order[:n]
        for name in names:
            m = model(name, args, args.seed)
            start = time.perf_counter()
            # One BLAS thread: with two cores, and the forest's n_jobs beside it, more threads
            # only contend (lbfgs measured 4x slower with 2 OpenBLAS threads on a busy machine).
            with warnings.catch_warnings(record=True) as caught, threadpool_limits(limits=1):
                warnings.simplefilter("always", ConvergenceWarning)
                m.fit(x_train[idx], y_train[idx])
            proba = m.predict_proba(x_test)
            accuracy = float(np.mean(m.classes_[proba.argmax(1)] == y_test))
            loss = float(log_loss(y_test, proba, labels=list(range(10))))
            print(json.dumps({
                "size": n, "model": name, "accuracy": round(accuracy, 6), "log_loss": round(loss, 6),
                "seconds": round(time.perf_counter() - start, 3), "test": len(y_test),
                "converged": not any(issubclass(w.category, ConvergenceWarning) for w in caught),
            }), flush=True)


if __name__ == "__main__":
    main()
