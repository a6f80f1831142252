"""PyTorch reference values for dl's convolution, pooling and batch norm
(TestConvTorchReference in dl/nn/conv_torch_test.go).

Usage: python3 conv_reference.py [OUT.json]   (default: conv_reference.json
next to this script).  Needs torch (Debian: apt-get install
python3-torch; the file in the repository was written with Debian bookworm's
python3-torch 1.13.1, whose torch.__version__ is 1.13.0a0).

Every case is computed in float64 on fixed random inputs, which are stored
with the results, so the Go test needs no random generator of torch's: for
each op the forward output and, for a stored upstream gradient gy, the
gradients of the input and of the weight and bias (y.backward(gy)).  The
"model" case is a small LeNet-like torch.nn.Sequential (Conv2d,
BatchNorm2d, ReLU, MaxPool2d, Conv2d with groups, AvgPool2d,
AdaptiveAvgPool2d, Flatten, Linear) with its full state dict (buffers
included), run once in training mode (output, parameter gradients,
running statistics after) and once in eval mode.  Floats are written with
Python's repr, which round-trips float64 exactly.
"""
import json
import os
import sys

import torch
import torch.nn.functional as F

torch.manual_seed(31)
DT = torch.float64


def t(x):
    return {"shape": list(x.shape), "data": x.detach().reshape(-1).tolist()}


def randn(*shape):
    return torch.randn(*shape, dtype=DT)


def conv_case(name, n, c, h, w, cout, k, stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1, bias=True):
    x = randn(n, c, h, w).requires_grad_()
    wt = randn(cout, c // groups, *k).requires_grad_()
    b = randn(cout).requires_grad_() if bias else None
    y = F.conv2d(x, wt, b, stride=stride, padding=padding, dilation=dilation, groups=groups)
    gy = randn(*y.shape)
    y.backward(gy)
    case = {"name": name, "op": "conv2d", "x": t(x), "w": t(wt), "stride": list(stride), "padding": list(padding),
            "dilation": list(dilation), "groups": groups, "y": t(y), "gy": t(gy), "gx": t(x.grad), "gw": t(wt.grad)}
    if b is not None:
        case["b"], case["gb"] = t(b), t(b.grad)
    return case


def pool_case(name, op, shape, **kw):
    x = randn(*shape).requires_grad_()
    if op == "max_pool2d":
        y = F.max_pool2d(x, kw["kernel"], stride=kw["stride"], padding=kw["padding"])
    elif op == "avg_pool2d":
        y = F.avg_pool2d(x, kw["kernel"], stride=kw["stride"], padding=kw["padding"])  # count_include_pad=True
    else:
        y = F.adaptive_avg_pool2d(x, kw["output"])
    gy = randn(*y.shape)
    y.backward(gy)
    return dict({"name": name, "op": op, "x": t(x), "y": t(y), "gy": t(gy), "gx": t(x.grad)}, **{k: list(v) for k, v in kw.items()})


def bn_case(name, shape, training):
    c = shape[1]
    x = randn(*shape).requires_grad_()
    w, b = randn(c).requires_grad_(), randn(c).requires_grad_()
    rm, rv = randn(c), torch.rand(c, dtype=DT) + 0.5
    rm0, rv0 = rm.clone(), rv.clone()
    y = F.batch_norm(x, rm, rv, w, b, training=training, momentum=0.1, eps=1e-5)
    gy = randn(*y.shape)
    y.backward(gy)
    return {"name": name, "op": "batch_norm", "training": training, "x": t(x), "w": t(w), "b": t(b),
            "running_mean": t(rm0), "running_var": t(rv0), "running_mean_after": t(rm), "running_var_after": t(rv),
            "y": t(y), "gy": t(gy), "gx": t(x.grad), "gw": t(w.grad), "gb": t(b.grad)}


def model_case():
    nn = torch.nn
    m = nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(4, 6, 3, groups=2), nn.AvgPool2d(2, stride=1), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(6, 3),
    ).to(DT)
    with torch.no_grad():  # non-trivial batch-norm affine and running statistics
        m[1].weight.copy_(randn(4))
        m[1].bias.copy_(randn(4))
        m[1].running_mean.copy_(randn(4))
        m[1].running_var.copy_(torch.rand(4, dtype=DT) + 0.5)
    state = {k: t(v) for k, v in m.state_dict().items()}
    keys = list(m.state_dict().keys())
    x = randn(3, 1, 10, 10)
    m.train()
    y = m(x)
    gy = randn(*y.shape)
    y.backward(gy)
    grads = {k: t(p.grad) for k, p in m.named_parameters()}
    after = {k: t(v) for k, v in m.state_dict().items() if "running" in k or "num_batches" in k}
    m.eval()
    with torch.no_grad():
        y_eval = m(x)
    return {"name": "model", "op": "model", "keys": keys, "state": state, "x": t(x), "y": t(y), "gy": t(gy),
            "grads": grads, "buffers_after": after, "y_eval": t(y_eval)}


cases = [
    conv_case("plain", 2, 3, 7, 6, 4, (3, 3)),
    conv_case("stride_padding", 2, 2, 8, 7, 3, (3, 2), stride=(2, 3), padding=(1, 2)),
    conv_case("dilation", 1, 2, 9, 9, 2, (3, 3), dilation=(2, 3), padding=(2, 1), bias=False),
    conv_case("groups", 2, 4, 5, 6, 6, (3, 3), padding=(1, 1), groups=2),
    conv_case("depthwise", 2, 3, 6, 5, 3, (3, 3), stride=(2, 1), padding=(1, 1), groups=3),
    conv_case("1x1", 3, 5, 4, 4, 2, (1, 1)),
    conv_case("odd_batch1", 1, 3, 5, 11, 2, (4, 2), stride=(3, 2), dilation=(1, 2), padding=(2, 0)),
    pool_case("max_2x2", "max_pool2d", (2, 3, 6, 7), kernel=(2, 2), stride=(2, 2), padding=(0, 0)),
    pool_case("max_3x3_s2_p1", "max_pool2d", (2, 2, 7, 6), kernel=(3, 3), stride=(2, 2), padding=(1, 1)),
    pool_case("avg_3x2_s1_p1", "avg_pool2d", (2, 2, 5, 6), kernel=(3, 2), stride=(1, 2), padding=(1, 1)),
    pool_case("adaptive_1x1", "adaptive_avg_pool2d", (2, 3, 5, 4), output=(1, 1)),
    pool_case("adaptive_3x2", "adaptive_avg_pool2d", (2, 2, 7, 5), output=(3, 2)),
    bn_case("bn_train", (4, 3, 3, 2), True),
    bn_case("bn_eval", (2, 3, 4, 3), False),
    model_case(),
]

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "conv_reference.json")
with open(out, "w") as f:
    json.dump({"torch": torch.__version__, "cases": cases}, f, separators=(",", ":"))
    f.write("\n")
