#!/usr/bin/env python3
"""ssdsim sweep SPEC --out DIR: runs every point of a sweep spec as its own `ssdsim run` and
gathers results.csv (docs/exploration.md). Started by `ssdsim sweep`, which passes --ssdsim."""
import argparse
import concurrent.futures
import json
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ssdsim_tools import engines, spec as spec_module  # noqa: E402
from ssdsim_tools.point_run import check_point, finished, point_folder, run_point  # noqa: E402
from ssdsim_tools.progress import Progress  # noqa: E402
from ssdsim_tools.results import write_results  # noqa: E402

EXIT_BAD_INPUT, EXIT_POINTS_FAILED, EXIT_INTERRUPTED = 1, 3, 130


def parse_arguments(argv):
    parser = argparse.ArgumentParser(prog="ssdsim sweep", description=__doc__.split("\n")[0])
    parser.add_argument("--ssdsim", required=True, help=argparse.SUPPRESS)
    parser.add_argument("spec", help="the sweep spec (TOML)")
    parser.add_argument("--out", help="the sweep's folder (created; reused to resume: finished "
                        "points are skipped)")
    parser.add_argument("--check", action="store_true", help="check the spec and every point "
                        "with ssdsim run --check, then stop (nothing run, nothing written)")
    parser.add_argument("--jobs", type=int, default=0, help="points at once (default: the "
                        "spec's options.jobs, else the core count)")
    engine = parser.add_mutually_exclusive_group()
    engine.add_argument("--dask", metavar="ADDRESS", help="run on a Dask scheduler "
                        "(tcp://host:8786), or 'local' for a LocalCluster of --jobs workers")
    engine.add_argument("--slurm", action="store_true", help="run as one Slurm job array")
    parser.add_argument("--point", type=int, help=argparse.SUPPRESS)  # a Slurm array task
    args = parser.parse_args(argv)
    if args.out is None and not args.check:
        parser.error("the following arguments are required: --out")
    return args


def fail(message, status=EXIT_BAD_INPUT):
    print(f"ssdsim sweep: {message}", file=sys.stderr)
    return status


def key_line(spec, key):
    """Where the spec sets `key`: its axis, an explicit point, or the base."""
    if key in spec.axes:
        return spec.where("sweep", key)
    if any(key in point for point in spec.explicit):
        return spec.where("points", key)
    return spec.where("base", key)


def check_points(spec, points, ssdsim, jobs, every=False):
    """Checks each swept value once, in the first point that has it (and the base with the first
    point), with `ssdsim run --check`, before anything runs; with `every`, every point (a
    combination of valid values can still be refused). Returns the first problem or None."""
    if every:
        checks = [(None, None, point) for point in points]
    else:
        firsts = {}
        for point in points:
            for key, value in point.values.items():
                if spec_module.is_tag(key):  # not passed to ssdsim
                    continue
                firsts.setdefault((key, spec_module.format_value(value)), point)
        checks = [(None, None, points[0])] + [(k, v, p) for (k, v), p in firsts.items()]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        answers = list(pool.map(lambda c: check_point(ssdsim, c[2].args), checks))
    for (key, value, point), problem in zip(checks, answers):
        if problem is None:
            continue
        named = re.search(r"key '([^']+)'", problem)
        if key is None and named:
            key = named.group(1)
            if key in point.values:
                value = spec_module.format_value(point.values[key])
        where = key_line(spec, key) if key else spec.where("base")
        setting = f"key '{key}' = {value}: " if value is not None else ""
        which = f" {point.name}" if every else ""
        return f"{where}: {setting}ssdsim refuses the point{which}: {problem}"
    return None


def task_of(spec, point, ssdsim, out_dir):
    return {"ssdsim": ssdsim, "out_dir": str(out_dir), "index": point.index, "name": point.name,
            "values": point.values, "args": point.args, "timeout_s": spec.timeout_s}


def main(argv):
    args = parse_arguments(argv)
    try:
        spec = spec_module.load(args.spec)
    except spec_module.SpecError as error:
        return fail(str(error))
    out_dir = Path(args.out or ".").resolve()
    jobs = args.jobs or spec.jobs or os.cpu_count() or 1
    if jobs < 1:
        return fail(f"--jobs {args.jobs}: must be at least 1")
    points = list(spec.points())
    names = {}
    for point in points:
        if point.name in names:
            return fail(f"{spec.path}: points {names[point.name]} and {point.index} have the "
                        f"same values ({point.name})")
        names[point.name] = point.index

    if args.point is not None:  # one Slurm array task: that point only, already checked
        if not 0 <= args.point < len(points):
            return fail(f"--point {args.point}: the sweep has points 0 to {len(points) - 1}")
        run_point(**task_of(spec, points[args.point], args.ssdsim, out_dir))
        return 0

    problem = check_points(spec, points, args.ssdsim, jobs, every=args.check)
    if problem:
        return fail(problem)
    if args.check:
        print(f"ssdsim sweep: {spec.path}: {len(points)} points, each accepted by ssdsim run "
              "--check")
        return 0
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "sweep.json").write_text(json.dumps(
            {"spec": str(Path(args.spec).resolve()), "points": len(points),
             "swept": spec.swept_keys()}, indent=1) + "\n")
    except OSError as error:
        return fail(f"--out {args.out}: {error.strerror}")

    records = {}
    pending = []
    for point in points:
        folder = point_folder(out_dir, point.name)
        if finished(folder, point.values, point.args):
            records[point.index] = json.loads((folder / "status.json").read_text())
        else:
            pending.append(point)
    print(f"ssdsim sweep: {len(points)} points, {len(records)} finished before, "
          f"{len(pending)} to run on {describe(args, jobs)}", file=sys.stderr)
    progress = Progress(len(points), len(records))

    def done(record):
        records[record["index"]] = record
        progress.update(record["status"])

    tasks = (task_of(spec, point, args.ssdsim, out_dir) for point in pending)
    status = 0
    try:
        if args.dask:
            engines.run_dask(tasks, args.dask, jobs, done, out_dir)
        elif args.slurm:
            tool = [str(Path(__file__).resolve()), "--ssdsim", args.ssdsim,
                    str(Path(args.spec).resolve()), "--out", str(out_dir)]
            engines.run_slurm(spec, tool, tasks, jobs, out_dir, done)
        else:
            engines.run_local(tasks, jobs, done)
    except KeyboardInterrupt:
        status = fail("interrupted: finished points are kept; run the same command to resume",
                      EXIT_INTERRUPTED)
    except Exception as error:  # the engine itself failed (scheduler unreachable, sbatch)
        status = fail(f"the sweep's engine failed: {error}", EXIT_POINTS_FAILED)
    results = out_dir / "results.csv"
    write_results(str(results) + ".tmp", spec.swept_keys(), points, records, out_dir)
    os.replace(str(results) + ".tmp", results)
    failed = sum(r["status"] != "ok" for r in records.values())
    not_run = len(points) - len(records)
    print(f"results: {results} ({len(records) - failed} ok, {failed} failed or with mismatches, "
          f"{not_run} not run)")
    if status == 0 and (failed or not_run):
        status = EXIT_POINTS_FAILED
    return status


def describe(args, jobs):
    if args.dask:
        return f"Dask ({args.dask})"
    if args.slurm:
        return f"Slurm (at most {jobs} tasks at once)"
    return f"{jobs} local jobs"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
