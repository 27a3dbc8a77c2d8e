"""Pictures of a sweep's results.csv (matplotlib, Agg): latency CDFs per run, p50/p99/p99.9 bars
per configuration, WAF, mapping memory, IOPS and energy per request as bars per configuration
and against each numeric swept parameter. Each
figure is written as PNG and SVG; the SVGs carry no date and a fixed hash salt, so the same
results give the same files."""
import csv
import json
import statistics
from collections import OrderedDict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .results import FIGURES, STATUS_COLUMNS, WALL_CLOCK  # noqa: E402

plt.rcParams["svg.hashsalt"] = "ssdsim"
LABELS = {"waf": "write amplification", "mapping_memory_bytes": "mapping memory (bytes)",
          "iops": "IOPS (requests per simulated second)",
          "energy_per_request_uj": "energy per request (uJ)",
          "mapping_cache_hit_ratio": "mapping cache hit ratio",
          "read_p99_us": "read latency p99 (us)", "write_p99_us": "write latency p99 (us)"}
# Drawn as bars per configuration (the latencies have their own percentile bars).
BAR_COLUMNS = ["waf", "mapping_memory_bytes", "iops", "energy_per_request_uj"]
PERCENTILES = [(0.5, "p50"), (0.9, "p90"), (0.99, "p99"), (0.999, "p999")]
SEED = "workload.seed"


def load(results_csv, where=(), plain=False):
    """The finished rows (those matching every KEY=VALUE of `where`) and the swept columns; a
    column `where` fixes is no longer told apart. With `plain`, a CSV that is no sweep's (a
    bench's table: a row per run) is taken whole, every column a candidate for an axis."""
    with open(results_csv, newline="") as handle:
        rows = list(csv.DictReader(handle))
    if not rows:
        return [], []
    is_sweep = all(column in rows[0] for column in STATUS_COLUMNS)
    if not is_sweep and not plain:
        raise KeyError(next(c for c in STATUS_COLUMNS if c not in rows[0]))
    known = set(STATUS_COLUMNS) | {name for name, _ in FIGURES} | set(WALL_CLOCK)
    swept = [c for c in rows[0] if c not in known] if is_sweep else list(rows[0])
    for condition in where:
        key, _, value = condition.partition("=")
        if key not in swept:
            raise ValueError(f"--where {condition}: '{key}' is not a swept column "
                             f"({', '.join(swept)})")
        # A file (platform, scenario, trace) also matches by its name without folder and suffix.
        rows = [r for r in rows if value in (r[key], Path(r[key]).stem)]
        swept.remove(key)
    if not is_sweep:
        return rows, swept
    return [r for r in rows if r["status"] in ("ok", "mismatch")], swept


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def label_of(row, keys):
    return named(keys, [row[k] for k in keys]) or row["point"]


def named(keys, values):
    """KEY=VALUE pairs of the keys a configuration sets (an explicit point may leave some unset)."""
    return ", ".join(f"{k}={v}" for k, v in zip(keys, values) if v != "")


def values_of(values):
    """The values a configuration sets, for a tick label."""
    return ", ".join(str(v) for v in values if v != "")


def save(figure, out_dir, name, written):
    for suffix in ("png", "svg"):
        path = Path(out_dir) / f"{name}.{suffix}"
        figure.savefig(path, dpi=120, bbox_inches="tight",
                       metadata={"Date": None} if suffix == "svg" else None)
        written.append(path)
    plt.close(figure)


def latency_samples(point_dir, kind):
    """Every latency (us) of `kind` from the run's request log, or None without one."""
    log = point_dir / "requests.csv"
    if not log.exists():
        return None
    with open(log, newline="") as handle:
        return sorted(int(r["latency_ns"]) / 1000 for r in csv.DictReader(handle)
                      if r["kind"] == kind)


def cdf_figure(rows, swept, points_dir, kind, out_dir, written):
    figure, axes = plt.subplots(figsize=(7, 4.5))
    from_percentiles = False
    for row in rows:
        samples = latency_samples(points_dir / row["point"], kind)
        if samples:
            n = len(samples)
            axes.step(samples, [(i + 1) / n for i in range(n)], where="post",
                      label=label_of(row, swept))
            continue
        report = json.loads((points_dir / row["point"] / "report.json").read_text())
        figures = report.get("latency_ns", {}).get(kind, {})
        if not figures.get("count"):
            continue
        from_percentiles = True
        xs = [figures[key] / 1000 for _, key in PERCENTILES] + [figures["max"] / 1000]
        ys = [share for share, _ in PERCENTILES] + [1.0]
        axes.plot(xs, ys, marker="o", label=label_of(row, swept))
    if not axes.lines:
        plt.close(figure)
        return
    axes.set_xscale("log")
    axes.set_xlabel(f"{kind} latency (us, log scale)")
    axes.set_ylabel("share of requests")
    title = f"{kind} latency CDF per run"
    if from_percentiles:
        title += " (dots: the report's p50/p90/p99/p99.9/max; run.request_log=true for all)"
    axes.set_title(title, fontsize=9)
    axes.grid(True, which="both", alpha=0.3)
    if len(axes.lines) <= 16:
        axes.legend(fontsize=7)
    save(figure, out_dir, f"latency-cdf-{kind}", written)


def grouped(rows, keys):
    """Rows grouped by the values of `keys` (seeds averaged), in first-seen order."""
    groups = OrderedDict()
    for row in rows:
        groups.setdefault(tuple(row[k] for k in keys), []).append(row)
    return groups


def mean_of(rows, column):
    values = [number(r[column]) for r in rows if number(r[column]) is not None]
    return statistics.fmean(values) if values else None


def percentile_figure(rows, swept, kind, out_dir, written):
    keys = [k for k in swept if k != SEED]
    groups = grouped(rows, keys)
    stats = [("p50", "p50"), ("p99", "p99"), ("p999", "p99.9")]
    bars = {name: [mean_of(g, f"{kind}_{name}_us") for g in groups.values()] for name, _ in stats}
    if all(v is None for values in bars.values() for v in values):
        return
    figure, axes = plt.subplots(figsize=(max(6, 0.9 * len(groups) + 2), 4.5))
    width = 0.8 / len(stats)
    for i, (name, label) in enumerate(stats):
        xs = [g + (i - 1) * width for g in range(len(groups))]
        axes.bar(xs, [v or 0 for v in bars[name]], width, label=label)
    axes.set_xticks(range(len(groups)))
    axes.set_xticklabels([values_of(k) or "base" for k in groups], rotation=30,
                         ha="right", fontsize=7)
    axes.set_yscale("log")
    axes.set_ylabel(f"{kind} latency (us, log scale)")
    axes.set_xlabel(", ".join(keys) or "run")
    seeds = " (mean over seeds)" if SEED in swept else ""
    axes.set_title(f"{kind} latency percentiles{seeds}", fontsize=9)
    axes.legend(fontsize=7)
    save(figure, out_dir, f"percentiles-{kind}", written)


def bar_figures(rows, swept, out_dir, written):
    """One bar per configuration (seeds averaged) for each of BAR_COLUMNS the runs have: what a
    categorical axis (scheme, platform, trace) is compared by."""
    keys = [k for k in swept if k != SEED]
    groups = grouped(rows, keys)
    if len(groups) < 2:
        return
    for column in BAR_COLUMNS:
        values = [mean_of(g, column) for g in groups.values()]
        if all(v is None for v in values):
            continue
        label = LABELS[column]
        figure, axes = plt.subplots(figsize=(max(6, 0.6 * len(groups) + 2), 4.5))
        axes.bar(range(len(groups)), [v or 0 for v in values], 0.6)
        axes.set_xticks(range(len(groups)))
        axes.set_xticklabels([values_of(k) for k in groups], rotation=30, ha="right",
                             fontsize=7)
        present = [v for v in values if v]
        if present and max(present) > 100 * min(present):  # spans decades: a log scale
            axes.set_yscale("log")
            label = label.replace(")", ", log scale)") if ")" in label else label + " (log scale)"
        axes.set_ylabel(label)
        axes.set_xlabel(", ".join(keys))
        axes.set_title(f"{LABELS[column]} per configuration" +
                       (" (mean over seeds)" if SEED in swept else ""), fontsize=9)
        axes.grid(True, axis="y", alpha=0.3)
        save(figure, out_dir, f"{column}-per-configuration", written)


def follows(rows, column, axis):
    """Whether `column` takes one value for each value of `axis` (an explicit point's key set
    with the axis, such as a request count that goes with the device size): not a line of its
    own."""
    seen = {}
    return all(seen.setdefault(r[axis], r[column]) == r[column] for r in rows)


def against_figures(rows, swept, out_dir, written):
    numeric = [k for k in swept if k != SEED and all(number(r[k]) is not None for r in rows)]
    for axis in numeric:
        others = [k for k in swept if k not in (axis, SEED) and not follows(rows, k, axis)]
        for column, label in LABELS.items():
            figure, axes = plt.subplots(figsize=(7, 4.5))
            for key, group in grouped(rows, others).items():
                by_x = grouped(group, [axis])
                xs = sorted(by_x, key=lambda x: number(x[0]))
                ys = [mean_of(by_x[x], column) for x in xs]
                points = [(number(x[0]), y) for x, y in zip(xs, ys) if y is not None]
                if points:
                    axes.plot(*zip(*points), marker="o",
                              label=named(others, key) or None)
            if not axes.lines:
                plt.close(figure)
                continue
            axes.set_xlabel(axis)
            axes.set_ylabel(label)
            # Latencies span decades from one setting to the next; other figures may too.
            ys = [y for line in axes.lines for y in line.get_ydata() if y and y > 0]
            if column.endswith("_us") or (ys and max(ys) > 10 * min(ys)):
                axes.set_yscale("log")
                axes.set_ylabel(label.replace(")", ", log scale)") if label.endswith(")")
                                else label + " (log scale)")
            xs = {number(r[axis]) for r in rows}
            if len(xs) > 2 and min(xs) > 0 and max(xs) > 10 * min(xs):
                axes.set_xscale("log")
            axes.set_title(f"{label} against {axis}" +
                           (" (mean over seeds)" if SEED in swept else ""), fontsize=9)
            axes.grid(True, alpha=0.3)
            if others:
                axes.legend(fontsize=7)
            save(figure, out_dir, f"{column}-vs-{axis}", written)


def plot(results_csv, out_dir, where=(), layout=None):
    """Writes every figure the results allow, or only the one `layout` chooses
    (chosen_figure.py); returns the files written."""
    rows, swept = load(results_csv, where, plain=layout is not None)
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    written = []
    if not rows:
        return written
    points_dir = Path(results_csv).resolve().parent / "points"
    if layout is not None:
        from .chosen_figure import chosen_figures
        plain = "point" not in rows[0]
        chosen_figures(rows, swept, None if plain else points_dir, layout, where, out_dir,
                       written)
        return written
    for kind in ("read", "write"):
        cdf_figure(rows, swept, points_dir, kind, out_dir, written)
        percentile_figure(rows, swept, kind, out_dir, written)
    bar_figures(rows, swept, out_dir, written)
    against_figures(rows, swept, out_dir, written)
    return written
