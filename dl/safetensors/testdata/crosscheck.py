"""Cross-check dlbd's safetensors files against Python's `safetensors` package.

Used by TestPythonCrossCheck (dl/safetensors/python_test.go); needs
`pip install safetensors numpy`. Reads a JSON request on stdin:
  {"tensors": {name: {"dtype": "F32", "shape": [2, 3], "hex": "..."}},
   "metadata": {...} or null, "go_file": "path written by Go"}
and prints a JSON reply:
  {"python_bytes_hex": serialize(request) as hex,
   "go_file": what Python's deserialize/safe_open read back from go_file,
   "numpy": {name: list of values} for the dtypes numpy supports}
"""
import ctypes
import json
import sys

import numpy as np
import safetensors
import safetensors.numpy

PY_DTYPE = {"F64": "float64", "F32": "float32", "F16": "float16", "BF16": "bfloat16",
            "I64": "int64", "I32": "int32", "I16": "int16", "I8": "int8", "U8": "uint8",
            "U16": "uint16", "U32": "uint32", "U64": "uint64", "BOOL": "bool"}


def main():
    req = json.load(sys.stdin)
    keep = []  # keeps the ctypes buffers alive during serialize
    specs = {}
    for name, t in req["tensors"].items():
        data = bytes.fromhex(t["hex"])
        buf = ctypes.create_string_buffer(data, max(1, len(data)))
        keep.append(buf)
        specs[name] = safetensors.TensorSpec(dtype=PY_DTYPE[t["dtype"]], shape=t["shape"],
                                             data_ptr=ctypes.addressof(buf), data_len=len(data))
    out = safetensors.serialize(specs, req["metadata"])

    with open(req["go_file"], "rb") as f:
        go_bytes = f.read()
    read_back = {name: {"dtype": t["dtype"], "shape": list(t["shape"]), "hex": bytes(t["data"]).hex()}
                 for name, t in safetensors.deserialize(go_bytes)}
    with safetensors.safe_open(req["go_file"], framework="numpy") as f:
        metadata = f.metadata()
    arrays = {}
    numpy_ok = {"F64", "F32", "F16", "I64", "I32", "U8"}
    if all(t["dtype"] in numpy_ok for t in req["tensors"].values()):
        arrays = {k: v.reshape(-1).tolist() for k, v in safetensors.numpy.load(go_bytes).items()}
    json.dump({"python_bytes_hex": out.hex(),
               "go_file": {"tensors": read_back, "metadata": metadata},
               "numpy": arrays}, sys.stdout)


if __name__ == "__main__":
    main()
