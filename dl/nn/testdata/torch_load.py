"""Loads a dlbd nn.Save file into the matching torch module (TestTorchLoadsSave).

Usage: torch_load.py MODEL.safetensors INPUT.safetensors
Builds nn.Sequential(Linear(4, 8), ReLU(), Linear(8, 2)), loads the state
dict with safetensors.torch.load_file and load_state_dict(strict=True), runs
the input "x" through it and prints the output as JSON.
"""
import json
import sys

import torch
from safetensors.torch import load_file

model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
model.load_state_dict(load_file(sys.argv[1]), strict=True)
x = load_file(sys.argv[2])["x"]
with torch.no_grad():
    print(json.dumps(model(x).reshape(-1).tolist()))
