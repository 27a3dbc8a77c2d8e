"""results.csv: a row per point, in sweep order whatever order they finished in: the swept values,
how the run ended and the report's headline figures. The wall-clock columns come last
(WALL_CLOCK), so the rest is the same byte for byte whichever engine ran the sweep."""
import csv
import json

from .point_run import point_folder

STATUS_COLUMNS = ["point", "status", "exit_code", "error"]
# (column, unit) of the headline figures, from report.json.
FIGURES = [
    ("requests", "count"), ("iops", "1/s"), ("bandwidth_mb_s", "MB/s"),
    ("read_mean_us", "us"), ("read_p50_us", "us"), ("read_p99_us", "us"), ("read_p999_us", "us"),
    ("write_mean_us", "us"), ("write_p50_us", "us"), ("write_p99_us", "us"),
    ("write_p999_us", "us"), ("waf", "ratio"), ("gc_erases", "count"),
    ("mapping_memory_bytes", "bytes"), ("mapping_cache_hit_ratio", "ratio"),
    ("cache_read_hit_ratio", "ratio"), ("energy_j", "J"), ("energy_per_request_uj", "uJ"),
    ("integrity_mismatches", "count"),
    ("simulated_s", "s"),
]
WALL_CLOCK = ["wall_s", "elapsed_s"]


def headline(report):
    """The FIGURES of one report.json (empty strings where a run has none)."""
    latency = report.get("latency_ns", {})
    row = {
        "requests": sum(report.get("requests", {}).values()),
        "iops": report.get("iops"),
        "bandwidth_mb_s": report.get("bandwidth_mb_s"),
        "waf": report.get("waf"),
        "gc_erases": report.get("gc", {}).get("erases"),
        "mapping_memory_bytes": report.get("mapping", {}).get("memory_bytes"),
        "mapping_cache_hit_ratio": report.get("mapping", {}).get("cache_hit_ratio"),
        "cache_read_hit_ratio": report.get("cache", {}).get("read_hit_ratio"),
        "energy_j": report.get("energy", {}).get("joules", {}).get("total"),
        "energy_per_request_uj": report.get("energy", {}).get("per_request_uj"),
        "integrity_mismatches": report.get("integrity", {}).get("mismatches"),
        "simulated_s": report.get("sim", {}).get("simulated_ns", 0) / 1e9,
        "wall_s": report.get("sim", {}).get("wall_s"),
    }
    for kind in ("read", "write"):
        figures = latency.get(kind, {})
        for stat, key in (("mean", "mean"), ("p50", "p50"), ("p99", "p99"), ("p999", "p999")):
            value = figures.get(key) if figures.get("count") else None
            row[f"{kind}_{stat}_us"] = None if value is None else value / 1000
    return row


def cell(value):
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(round(value, 6))
    return str(value)


def write_results(path, swept_keys, points, records, out_dir):
    """Writes results.csv: `points` in order, each with its status record (None: not run) and,
    when it finished, its report's figures."""
    columns = STATUS_COLUMNS + swept_keys + [name for name, _ in FIGURES] + WALL_CLOCK
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(columns)
        for point in points:
            record = records.get(point.index) or {"status": "not run", "exit_code": "",
                                                  "error": "", "elapsed_s": None}
            row = {"point": point.name, "status": record["status"],
                   "exit_code": record["exit_code"], "error": record["error"],
                   "elapsed_s": record.get("elapsed_s")}
            row.update(point.values)
            report = point_folder(out_dir, point.name) / "report.json"
            if record["status"] in ("ok", "mismatch") and report.exists():
                row.update(headline(json.loads(report.read_text())))
            writer.writerow([cell(row.get(column)) for column in columns])
    return columns
