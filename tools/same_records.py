#!/usr/bin/env python3
"""Whether two measurements of the same program hold the same records, on what does not change
from run to run: each kernel's, API call's and copy's name, NVTX range and launch number (not
times, threads or correlation ids). For comparing two builds of labbook on one program
(bench/ab_builds.sh). Prints one line a list; exits 1 when a list differs.

    tools/same_records.py A.json B.json
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measurement_records import load  # noqa: E402

COMPARED = ("kernels", "api_calls", "copies")


def keys(measurement, key):
    return collections.Counter((r.get("name"), r.get("kind"), r.get("range"), r.get("launch"))
                               for r in measurement.get(key, []))


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    loaded = []
    for path in argv[1:3]:
        try:
            loaded.append(load(path))
        except (OSError, ValueError) as e:   # json's errors are ValueErrors
            print(f"same_records.py: {path}: {e}", file=sys.stderr)
            return 2
    a, b = loaded
    same = True
    for key in COMPARED:
        ka, kb = keys(a, key), keys(b, key)
        if ka == kb:
            print(f"{key}: {sum(ka.values())} in each, the same")
            continue
        same = False
        only_a, only_b = list((ka - kb).elements())[:3], list((kb - ka).elements())[:3]
        print(f"{key}: {sum(ka.values())} against {sum(kb.values())}; only in the first: {only_a}; "
              f"only in the second: {only_b}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
