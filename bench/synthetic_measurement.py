#!/usr/bin/env python3
"""A measurement of N short launches, made without a GPU, for timing the report step.

    bench/synthetic_measurement.py N OUT.json      (N: launches, e.g. 100000)
    bench/report_speed.sh LABBOOK_BEFORE LABBOOK_AFTER OUT.json

Like tests/programs/many_launches under `labbook profile`: one kernel launched N times from
one thread through cudaLaunchKernel, 7 us apart, each 3 us long, inside NVTX ranges of 1,000
launches. The device, the kernel's shape and the other fields come from lab 4's recording.
Written as lists of objects (schema version 4), which labbook reads; `labbook summary` writes
it again as tables (version 5), the form a trace run writes.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from measurement_records import load  # noqa: E402

RECORDING = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "labs", "04_global_memory",
                         "recorded", "h100.json")
LAUNCHES_PER_RANGE = 1000


def main():
    if len(sys.argv) != 3 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit("usage: bench/synthetic_measurement.py LAUNCHES OUT.json   (LAUNCHES: a whole number, 1 or more)")
    launches, out = int(sys.argv[1]), sys.argv[2]
    m = load(RECORDING)
    kernel, call, range_ = m["kernels"][0], m["api_calls"][0], m["ranges"][0]
    start = kernel["start_ns"]
    ranges = []
    for r in range((launches + LAUNCHES_PER_RANGE - 1) // LAUNCHES_PER_RANGE):
        name = "offsets/round=%d" % r
        begin = start + r * LAUNCHES_PER_RANGE * 7000 - 3000
        ranges.append(dict(range_, id=r + 1, name=name, path=name, depth=0, payload=None,
                           start_ns=begin, end_ns=begin + LAUNCHES_PER_RANGE * 7000))
    kernels, calls = [], []
    for i in range(launches):
        at = start + i * 7000
        kernels.append(dict(kernel, launch=i, correlation=1000 + 2 * i, start_ns=at, end_ns=at + 3000, metrics={},
                            range="offsets/round=%d" % (i // LAUNCHES_PER_RANGE)))
        calls.append(dict(call, name="cudaLaunchKernel", correlation=1000 + 2 * i, start_ns=at - 2000, end_ns=at - 500))
    m.update(schema_version=4, ranges=ranges, kernels=kernels, api_calls=calls, copies=[], memory_events=[])
    for key in ("strings", "time_origin_ns"):   # a version-5 recording's: tables only
        m.pop(key, None)
    with open(out, "w") as f:
        json.dump(m, f)


if __name__ == "__main__":
    main()
