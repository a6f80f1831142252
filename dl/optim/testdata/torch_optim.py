"""Runs torch.optim on the test problem of dl/optim/torch_test.go.

Reads a JSON list of {"opt": "sgd"|"adam"|"adamw", "kwargs": {...},
"theta": [...], "steps": n} on stdin; for each, each step sets .grad to quadGrad(theta, step) (the same formula as
reference_test.go) in float64 and calls opt.step(). Prints the list of final thetas.
"""
import json
import math
import sys

import torch


def quad_grad(theta, step):
    return [(0.5 + i % 3) * (th - (i - 2)) + 0.3 * math.sin(step * (i + 1)) for i, th in enumerate(theta)]


def run(req):
    p = torch.tensor(req["theta"], dtype=torch.float64, requires_grad=True)
    cls = {"sgd": torch.optim.SGD, "adam": torch.optim.Adam, "adamw": torch.optim.AdamW}[req["opt"]]
    opt = cls([p], **req["kwargs"])
    for s in range(req["steps"]):
        p.grad = torch.tensor(quad_grad(p.detach().tolist(), s), dtype=torch.float64)
        opt.step()
    return p.detach().tolist()


def main():
    json.dump([run(req) for req in json.load(sys.stdin)], sys.stdout)


if __name__ == "__main__":
    main()
