#!/usr/bin/env python3
"""ssdsim sweep and ssdsim plot as a user meets them (docs/exploration.md): a sweep's points run
and gather into results.csv; the local pool and a Dask LocalCluster give the same file byte for
byte but for the wall-clock columns; a resumed sweep skips what finished and re-runs what failed;
a failed point is recorded and does not stop the others; a bad spec is refused naming the file,
line and key before anything runs; no more runs at once than --jobs; the plots are written.
Usage: sweep_test.py SSDSIM SOURCE_DIR"""
import csv
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

ssdsim, source = sys.argv[1], Path(sys.argv[2])
work = Path(tempfile.mkdtemp(prefix="sweep-test-"))
failures = 0


def check(name, condition, detail=""):
    global failures
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else f": {detail}"))
    failures += 0 if condition else 1


def sweep(spec, out, *extra):
    return subprocess.run([ssdsim, "sweep", str(spec), "--out", str(out), *extra],
                          capture_output=True, text=True)


def rows_without_wall_clock(path):
    rows = list(csv.reader(open(path)))
    keep = [i for i, c in enumerate(rows[0]) if c not in ("wall_s", "elapsed_s")]
    return [[row[i] for i in keep] for row in rows]


def write_spec(name, body):
    path = work / name
    path.write_text(f'[base]\nplatform = "{source}/platforms/default.toml"\n'
                    f'scenario = "{source}/scenarios/default.toml"\n' + body)
    return path


# --- a small sweep, local and on Dask --------------------------------------------------------
spec = write_spec("small.toml", '[base.set]\n"workload.requests" = 300\n\n'
                  '[sweep]\nftl = ["page", "dftl"]\n"cache.mode" = ["off", "write_back"]\n\n'
                  '[options]\nseeds = [1, 2]\n')
local = sweep(spec, work / "local", "--jobs", "2")
check("local sweep exits 0", local.returncode == 0, local.stderr)
rows = list(csv.DictReader(open(work / "local/results.csv")))
check("a row per point, in sweep order", [(r["ftl"], r["cache.mode"], r["workload.seed"])
                                          for r in rows] ==
      [(f, c, s) for f in ("page", "dftl") for c in ("off", "write_back") for s in ("1", "2")],
      rows)
check("every point ok with its report", all(r["status"] == "ok" and
      (work / "local/points" / r["point"] / "report.json").exists() for r in rows))
check("headline figures filled", all(float(r["iops"]) > 0 and r["requests"] == "300" and
                                     r["integrity_mismatches"] == "0" for r in rows))
check("the cache shows in the figures",
      all((r["cache_read_hit_ratio"] == "") == (r["cache.mode"] == "off") for r in rows))
again = sweep(spec, work / "local-again", "--jobs", "1")
check("the same spec gives the same results.csv but for wall-clock columns",
      rows_without_wall_clock(work / "local/results.csv") ==
      rows_without_wall_clock(work / "local-again/results.csv"))
dask = sweep(spec, work / "dask", "--jobs", "2", "--dask", "local")
check("Dask LocalCluster sweep exits 0", dask.returncode == 0, dask.stderr[-2000:])
check("Dask gives the local pool's results.csv but for wall-clock columns",
      (work / "dask/results.csv").exists() and
      rows_without_wall_clock(work / "local/results.csv") ==
      rows_without_wall_clock(work / "dask/results.csv"))

# --- resume -----------------------------------------------------------------------------------
stamps = {p: p.stat().st_mtime_ns for p in (work / "local/points").glob("*/status.json")}
resumed = sweep(spec, work / "local", "--jobs", "2")
check("a finished sweep resumes with nothing to run", resumed.returncode == 0 and
      "8 finished before, 0 to run" in resumed.stderr, resumed.stderr)
check("finished points are not run again",
      all(p.stat().st_mtime_ns == t for p, t in stamps.items()) and len(stamps) == 8)

# --- a failed point is recorded, the others run; resuming re-runs it only --------------------
spec = write_spec("failing.toml", '[base.set]\n"workload.requests" = 200\n'
                  '"cache.mode" = "write_back"\n\n'
                  '[sweep]\n"dram.capacity_bytes" = [67108864, 33554432]\n'
                  '"cache.capacity_bytes" = [4194304, 50331648]\n')
failing = sweep(spec, work / "failing", "--jobs", "2")
rows = list(csv.DictReader(open(work / "failing/results.csv")))
bad = [r for r in rows if r["status"] != "ok"]
check("a failed point makes the sweep exit 3", failing.returncode == 3, failing.stderr)
check("only the impossible combination failed", len(bad) == 1 and
      bad[0]["dram.capacity_bytes"] == "33554432" and bad[0]["cache.capacity_bytes"] == "50331648",
      rows)
check("its exit code and error are recorded", bad and bad[0]["exit_code"] == "1" and
      "cache.capacity_bytes" in bad[0]["error"], bad)
check("the other points finished", sum(r["status"] == "ok" for r in rows) == 3)
checked = subprocess.run([ssdsim, "sweep", str(spec), "--check"], capture_output=True,
                         text=True)
check("sweep --check checks every point: the impossible combination is refused, named",
      checked.returncode == 1 and "ssdsim refuses the point "
      "dram.capacity_bytes=33554432,cache.capacity_bytes=50331648" in checked.stderr,
      checked.stderr)
refailed = sweep(spec, work / "failing", "--jobs", "2")
check("resuming re-runs the failed point only", "3 finished before, 1 to run" in refailed.stderr,
      refailed.stderr)

# --- bad specs: refused before anything runs, naming file, line and key -----------------------
bad_specs = {
    "unknown-table": ('[sweep]\nftl = ["page"]\n[options]\nseeds = [1]\n[extra]\nx = 1\n',
                      ":8: unknown table 'extra'"),
    "unknown-key": ('[sweep]\nftl = ["page"]\n"nand.bogus" = [1, 2]\n',
                    ":6: key 'nand.bogus' = 1: ssdsim refuses the point"),
    "empty-axis": ('[sweep]\nftl = ["page"]\n"workload.queue_depth" = []\n',
                   ":6: key 'workload.queue_depth': empty axis"),
    "bad-value": ('[sweep]\n"workload.queue_depth" = [1, "many"]\n',
                  ":5: key 'workload.queue_depth' = many: ssdsim refuses the point"),
    "unknown-scheme": ('[sweep]\nftl = ["page", "nope"]\n', ":5: key 'ftl' = nope"),
    "unknown-option": ('[sweep]\nftl = ["page"]\n[options]\nparallel = 3\n',
                       ":7: unknown key 'options.parallel'"),
    "bad-base-key": ('[base.set]\n"workload.nope" = 1\n[sweep]\nftl = ["page"]\n',
                     "key 'workload.nope'"),
    "not-toml": ('[sweep\nftl = ["page"]\n', "not valid TOML"),
    "nothing": ('[base.set]\n"workload.requests" = 10\n', "nothing to sweep"),
    "repeated-value": ('[sweep]\nftl = ["page", "page"]\n', ":5: key 'ftl': a value repeats"),
    "dotted-tag": ('[[points]]\n"workload.requests" = 10\ntags = { "nand.x" = 1 }\n',
                   ":6: tag 'nand.x': a tag is a lower-case name without dots"),
    "tags-not-a-table": ('[[points]]\n"workload.requests" = 10\ntags = 3\n',
                         ":6: key 'tags': a table"),
}
for name, (body, expected) in bad_specs.items():
    path = write_spec(f"bad-{name}.toml", body)
    result = sweep(path, work / f"bad-{name}")
    check(f"bad spec {name}: refused naming file, line and key",
          result.returncode == 1 and f"ssdsim sweep: {path}" in result.stderr and
          expected in result.stderr, result.stderr)
    check(f"bad spec {name}: nothing ran", not (work / f"bad-{name}/points").exists())

# --- the committed specs stay valid as the keys evolve ----------------------------------------
for committed in sorted((source / "scenarios/sweeps").glob("*.toml")):
    result = subprocess.run([ssdsim, "sweep", str(committed), "--check"], capture_output=True,
                            text=True)
    check(f"scenarios/sweeps/{committed.name}: every point accepted by --check",
          result.returncode == 0 and "each accepted by ssdsim run --check" in result.stdout,
          result.stderr[-800:])

# --- never more runs at once than --jobs (a stand-in ssdsim that counts itself) --------------
fake = work / "fake-ssdsim"
fake.write_text("#!/bin/bash\n"
                "[ \"$2\" = --check ] && exit 0\n"
                f"d={work}/running; mkdir -p $d; touch $d/$$\n"
                f"ls $d | wc -l >> {work}/concurrency\n"
                "sleep 0.05; rm $d/$$\n"
                "out=$4; echo '{\"requests\": {\"read\": 1}}' > $out/report.json\n")
fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
spec = write_spec("wide.toml", "[options]\nseeds = [" + ", ".join(map(str, range(120))) + "]\n")
wide = subprocess.run([sys.executable, str(source / "tools/python/ssdsim_sweep.py"),
                       "--ssdsim", str(fake), str(spec), "--out", str(work / "wide"),
                       "--jobs", "3"], capture_output=True, text=True)
counts = [int(line) for line in open(work / "concurrency")] if (work / "concurrency").exists() \
    else []
check("120 points ran", wide.returncode == 0 and len(counts) == 120, wide.stderr[-500:])
check("at most --jobs runs at once", counts and max(counts) <= 3, max(counts or [0]))

# --- plots ------------------------------------------------------------------------------------
plot = subprocess.run([ssdsim, "plot", str(work / "local/results.csv"), "--out",
                       str(work / "plots")], capture_output=True, text=True)
expected = [f"{name}.{suffix}" for name in ("latency-cdf-read", "latency-cdf-write",
                                            "percentiles-read", "percentiles-write")
            for suffix in ("png", "svg")]
check("plot writes the CDFs and percentile bars as PNG and SVG", plot.returncode == 0 and
      all((work / "plots" / f).stat().st_size > 1000 for f in expected if
          (work / "plots" / f).exists()) and
      all((work / "plots" / f).exists() for f in expected), plot.stderr + plot.stdout)
check("a categorical axis gets WAF, mapping memory, IOPS and energy bars per configuration",
      all((work / "plots" / f"{m}-per-configuration.png").exists()
          for m in ("waf", "mapping_memory_bytes", "iops", "energy_per_request_uj")),
      sorted(p.name for p in (work / "plots").iterdir()))
replot = subprocess.run([ssdsim, "plot", str(work / "local/results.csv"), "--out",
                         str(work / "plots-again")], capture_output=True, text=True)
check("the same results give the same SVGs",
      all((work / "plots" / f).read_bytes() == (work / "plots-again" / f).read_bytes()
          for f in expected if f.endswith(".svg")))
spec = write_spec("numeric.toml", '[base.set]\n"workload.requests" = 300\n"cache.mode" = '
                  '"write_back"\n[sweep]\n"cache.capacity_bytes" = [1048576, 4194304]\n')
sweep(spec, work / "numeric", "--jobs", "2")
numeric = subprocess.run([ssdsim, "plot", str(work / "numeric/results.csv"), "--out",
                          str(work / "numeric-plots")], capture_output=True, text=True)
check("a numeric axis gets WAF, mapping memory, IOPS and energy against it",
      all((work / "numeric-plots" / f"{m}-vs-cache.capacity_bytes.png").exists()
          for m in ("waf", "mapping_memory_bytes", "iops", "energy_per_request_uj")),
      numeric.stderr)

# --- tags: columns of results.csv, never settings ----------------------------------------------
spec = write_spec("tagged.toml", '[base.set]\n"workload.requests" = 200\n'
                  '[sweep]\nftl = ["page", "dftl"]\n'
                  '[[points]]\n"cache.mode" = "off"\ntags = { cache = "none" }\n'
                  '[[points]]\n"cache.mode" = "write_back"\n"cache.capacity_bytes" = 1048576\n'
                  'tags = { cache = "1 MiB" }\n')
tagged = sweep(spec, work / "tagged", "--jobs", "2")
rows = list(csv.DictReader(open(work / "tagged/results.csv")))
check("tagged points run (a tag is not passed to ssdsim)", tagged.returncode == 0 and
      len(rows) == 4 and all(r["status"] == "ok" for r in rows), tagged.stderr)
check("a tag is a results.csv column before the settings",
      list(rows[0])[4:7] == ["cache", "cache.mode", "cache.capacity_bytes"] and
      [r["cache"] for r in rows] == ["none", "none", "1 MiB", "1 MiB"], rows[:1])

# --- one chosen figure: --x, --y (a column or report paths), --group, --relative-to, --reference
def drawn(folder, name):
    with open(work / folder / f"{name}.csv") as handle:
        return list(csv.DictReader(handle))


def mean(values):
    return sum(values) / len(values)


local_rows = list(csv.DictReader(open(work / "local/results.csv")))
(work / "paper.csv").write_text("ftl,cache.mode,iops\npage,write_back,2.5\n"
                                "dftl,write_back,1.5\ndftl,write_back,3.0\n")
chosen = subprocess.run([ssdsim, "plot", str(work / "local/results.csv"), "--out",
                         str(work / "chosen"), "--x", "ftl", "--group", "cache.mode",
                         "--relative-to", "cache.mode=off", "--y", "iops=IOPS",
                         "--reference", f"{work}/paper.csv=paper", "--name", "ratio"],
                        capture_output=True, text=True)
check("a chosen figure is written as PNG, SVG and the CSV of what it drew",
      chosen.returncode == 0 and all((work / "chosen" / f"ratio.{s}").exists()
                                     for s in ("png", "svg", "csv")), chosen.stderr)
if chosen.returncode == 0:
    ratio = {r["ftl"]: r for r in drawn("chosen", "ratio")}
    expected = {ftl: mean([float(r["iops"]) for r in local_rows if r["ftl"] == ftl and
                           r["cache.mode"] == "write_back"]) /
                mean([float(r["iops"]) for r in local_rows if r["ftl"] == ftl and
                      r["cache.mode"] == "off"]) for ftl in ("page", "dftl")}
    check("--relative-to: each value over its baseline's (seeds averaged); the baseline not drawn",
          sorted(ratio) == ["dftl", "page"] and
          all(r["cache.mode"] == "write_back" for r in ratio.values()) and
          all(abs(float(ratio[f]["value"]) - expected[f]) < 1e-5 for f in expected),
          (ratio, expected))
    check("--reference: one value per point, or a range",
          ratio["page"]["paper"] == "2.5" and ratio["dftl"]["paper"] == "1.5 to 3.0", ratio)
expression = subprocess.run([ssdsim, "plot", str(work / "local/results.csv"), "--out",
                             str(work / "chosen"), "--x", "ftl", "--group", "cache.mode",
                             "--where", "workload.seed=1", "--y",
                             "(nand_ops.program + nand_ops.read) * 2 - 1=operations",
                             "--name", "ops"], capture_output=True, text=True)
if expression.returncode == 0:
    import json
    ops = drawn("chosen", "ops")
    report = json.loads((work / "local/points" / next(
        r["point"] for r in local_rows if r["ftl"] == "dftl" and r["cache.mode"] == "off" and
        r["workload.seed"] == "1") / "report.json").read_text())
    want = (report["nand_ops"]["program"] + report["nand_ops"]["read"]) * 2 - 1
    got = next(float(r["value"]) for r in ops if r["ftl"] == "dftl" and r["cache.mode"] == "off")
    check("--y: an expression of report.json paths", got == want, (got, want))
else:
    check("--y: an expression of report.json paths", False, expression.stderr)
numeric_chosen = subprocess.run([ssdsim, "plot", str(work / "numeric/results.csv"), "--out",
                                 str(work / "chosen"), "--x", "cache.capacity_bytes", "--y",
                                 "waf"], capture_output=True, text=True)
check("a numeric --x draws lines", numeric_chosen.returncode == 0 and
      len(drawn("chosen", "waf-vs-cache.capacity_bytes")) == 2, numeric_chosen.stderr)
refusals = {
    "--y without --x": (["--y", "iops"], "--y draws one chosen figure: give --x too"),
    "--x without --y": (["--x", "ftl"], "give the figure to draw with --y"),
    "an unswept --x": (["--x", "nand.channels", "--y", "iops"], "'nand.channels' is not a swept"),
    "a column left to vary": (["--x", "ftl", "--y", "iops"],
                              "'cache.mode' takes several values"),
    "--relative-to a column not drawn": (["--x", "ftl", "--group", "cache.mode", "--y", "iops",
                                          "--relative-to", "workload.seed=1"],
                                         "--relative-to workload.seed: it must be --x or a"),
    "a bad expression": (["--x", "ftl", "--group", "cache.mode", "--y", "gc.erases ** 2"],
                         "is not a number, a report path or + - * / of them"),
    "a figure no run has": (["--x", "ftl", "--group", "cache.mode", "--y", "nothing.here"],
                            "--y nothing.here: no run has it"),
    "a missing reference": (["--x", "ftl", "--y", "iops", "--reference", "/nonexistent.csv"],
                            "--reference /nonexistent.csv: no such file"),
}
for name, (options, expected) in refusals.items():
    result = subprocess.run([ssdsim, "plot", str(work / "local/results.csv"), "--out",
                             str(work / "refused"), *options], capture_output=True, text=True)
    check(f"plot refuses {name}", result.returncode == 1 and expected in result.stderr,
          result.stderr)
check("a refused plot writes nothing", not any((work / "refused").glob("*.png")))
(work / "table.csv").write_text("size,structure,bytes\n1,emt,10\n2,emt,15\n1,vet,30\n"
                                "2,vet,50\n")
table = subprocess.run([ssdsim, "plot", str(work / "table.csv"), "--out", str(work / "table"),
                        "--x", "size", "--group", "structure", "--y", "bytes * 2=twice"],
                       capture_output=True, text=True)
check("a plain CSV (a bench's table) is drawn, its columns in --y expressions",
      table.returncode == 0 and [(r["structure"], r["size"], r["value"])
                                 for r in drawn("table", "bytes---2-vs-size")] ==
      [("emt", "1", "20.0"), ("emt", "2", "30.0"), ("vet", "1", "60.0"), ("vet", "2", "100.0")],
      table.stderr + str(list((work / "table").glob("*"))))
several = subprocess.run([ssdsim, "plot", str(work / "table.csv"), "--out", str(work / "table"),
                          "--x", "size", "--y", "bytes"], capture_output=True, text=True)
check("a plain CSV with several rows at one drawn point is refused",
      several.returncode == 1 and "several rows at size=1" in several.stderr, several.stderr)

(work / "not-results.csv").write_text("a,b\n1,2\n")
wrong = subprocess.run([ssdsim, "plot", str(work / "not-results.csv"), "--out",
                        str(work / "wrong")], capture_output=True, text=True)
check("a CSV that is no sweep's is refused", wrong.returncode == 1 and
      "not a sweep's results.csv" in wrong.stderr, wrong.stderr)

print(f"{failures} failed")
shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if failures else 0)
