"""A labbook measurement file's records as dicts, whichever form the file keeps them in.

Schema version 5 writes each list of records as a table: {"columns": [...], "strings": [the
columns whose cells index the file's "strings"], "times": [the columns counted from
"time_origin_ns"], "rows": [[...], ...]}. Earlier versions wrote lists of objects, which
come back as they are. Used by the scripts that read measurements.json:

    sys.path.insert(0, "tools"); from measurement_records import load
    kernels = load("measurements.json")["kernels"]
"""
import json

RECORD_LISTS = ("ranges", "kernels", "copies", "api_calls", "memory_events")


def records(measurement, key):
    """The records under `key` as a list of dicts with the names and times of version 4."""
    value = measurement.get(key, [])
    if isinstance(value, list):
        return value
    strings, origin = measurement["strings"], measurement["time_origin_ns"]
    text, times = set(value["strings"]), set(value["times"])
    out = []
    columns = value["columns"]
    for i, row in enumerate(value["rows"]):
        if len(row) != len(columns):
            raise ValueError(f"/{key}/rows/{i}: expected a row of {len(columns)} cells, not {len(row)}")
        record = {}
        for column, cell in zip(columns, row):
            if cell is None:
                continue   # left out, as the object form leaves it out
            if column in text and isinstance(cell, int):
                cell = strings[cell]
            elif column in times:
                cell += origin
            record[column] = cell
        out.append(record)
    return out


def load(path):
    """The measurement at `path`, every list of records a list of dicts."""
    with open(path) as f:
        measurement = json.load(f)
    for key in RECORD_LISTS:
        if key in measurement:
            measurement[key] = records(measurement, key)
    return measurement
