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
}
for name, (body, expected) in bad_specs.items():
    path = write_spec(f"bad-{name}.toml", body)
    result = sweep(path, work / f"bad-{name}")
    check(f"bad spec {name}: refused naming file, line and key",
          result.returncode == 1 and f"ssdsim sweep: {path}" in result.stderr and
          expected in result.stderr, result.stderr)
    check(f"bad spec {name}: nothing ran", not (work / f"bad-{name}/points").exists())

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
(work / "not-results.csv").write_text("a,b\n1,2\n")
wrong = subprocess.run([ssdsim, "plot", str(work / "not-results.csv"), "--out",
                        str(work / "wrong")], capture_output=True, text=True)
check("a CSV that is no sweep's is refused", wrong.returncode == 1 and
      "not a sweep's results.csv" in wrong.stderr, wrong.stderr)

print(f"{failures} failed")
shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if failures else 0)
