"""Standalone timing shared by dlbd's efficiency anchors (dl/amp,
dl/checkpoint and dl/testdata/fused_anchor.py): run a step a few times to
warm up, then time it and print one JSON line with the median and the
minimum in milliseconds next to the given fields."""
import json
import statistics
import time


def report(step, steps, warmup=3, **fields):
    """Times step() steps times after warmup calls and prints the JSON."""
    for _ in range(warmup):
        step()
    times = []
    for _ in range(steps):
        t0 = time.perf_counter()
        step()
        times.append((time.perf_counter() - t0) * 1e3)
    fields.update(median_ms=round(statistics.median(times), 3), min_ms=round(min(times), 3))
    print(json.dumps(fields))
