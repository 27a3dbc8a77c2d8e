"""Where a sweep's points run. Each engine calls run_point() once per pending point and hands
every record to `done` as it arrives; none starts more runs at once than it has slots for.
- local: a pool of `jobs` threads, each waiting on one ssdsim process.
- Dask distributed: an existing scheduler (tcp://host:8786) or, with "local", a LocalCluster of
  `jobs` single-threaded workers; the workers must see the same ssdsim and output folder.
- Slurm: one job array (sbatch --wait), a task per pending point, each running this tool with
  --point N; per-task resources from the spec's [slurm] table."""
import concurrent.futures
import json
import shlex
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from .point_run import point_folder, run_point


def run_local(tasks, jobs, done):
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        pending = set()
        for task in tasks:  # never more than 2 x jobs queued: a huge sweep stays small in memory
            pending.add(pool.submit(run_point, **task))
            if len(pending) >= 2 * jobs:
                finished, pending = concurrent.futures.wait(
                    pending, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in finished:
                    done(future.result())
        for future in concurrent.futures.as_completed(pending):
            done(future.result())


def package_zip(folder):
    """This package as a zip for Dask's upload_file, so workers import the same code."""
    here = Path(__file__).parent
    path = Path(folder) / "ssdsim_tools.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for source in sorted(here.glob("*.py")):
            archive.write(source, f"ssdsim_tools/{source.name}")
    return path


def run_dask(tasks, address, jobs, done, scratch):
    from distributed import Client, LocalCluster, as_completed
    cluster = None
    if address == "local":
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(address)
    try:
        client.upload_file(str(package_zip(scratch)))
        futures = [client.submit(run_point, pure=False, **task) for task in tasks]
        for future in as_completed(futures):
            done(future.result())
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def slurm_script(spec, tool_args, indices, jobs, out_dir):
    """The job array's batch script: one task per sweep point index."""
    slurm = spec.slurm
    lines = ["#!/bin/bash", "#SBATCH --job-name=ssdsim-sweep",
             f"#SBATCH --array={','.join(map(str, indices))}%{jobs}",
             f"#SBATCH --output={out_dir}/slurm/%A_%a.out",
             f"#SBATCH --cpus-per-task={slurm.get('cpus_per_task', 1)}"]
    if "mem" in slurm:
        lines.append(f"#SBATCH --mem={slurm['mem']}")
    if "time" in slurm:
        lines.append(f"#SBATCH --time={slurm['time']}")
    if slurm.get("partition"):
        lines.append(f"#SBATCH --partition={slurm['partition']}")
    lines += [f"#SBATCH {extra}" for extra in slurm.get("extra", [])]
    command = [sys.executable] + tool_args + ["--point", "$SLURM_ARRAY_TASK_ID"]
    lines.append(" ".join(shlex.quote(a) if a != "$SLURM_ARRAY_TASK_ID" else a for a in command))
    return "\n".join(lines) + "\n"


def run_slurm(spec, tool_args, tasks, jobs, out_dir, done):
    """Submits the array and waits for it (sbatch --wait), reporting each point as its task
    leaves its status.json; a task that left none is recorded as failed."""
    tasks = list(tasks)
    if not tasks:
        return
    folder = Path(out_dir) / "slurm"
    folder.mkdir(parents=True, exist_ok=True)
    waiting = {}
    for task in tasks:  # a status left by an earlier attempt must not count as this one's
        status = point_folder(out_dir, task["name"]) / "status.json"
        status.unlink(missing_ok=True)
        waiting[task["index"]] = (task, status)
    script = folder / "array.sh"
    script.write_text(slurm_script(spec, tool_args, sorted(waiting), jobs, out_dir))
    with open(folder / "sbatch.err", "w") as errors:
        sbatch = subprocess.Popen(["sbatch", "--parsable", "--wait", str(script)],
                                  stdout=subprocess.DEVNULL, stderr=errors)

    def collect():
        for index, (task, status) in list(waiting.items()):
            try:
                record = json.loads(status.read_text())
            except (OSError, ValueError):
                continue  # not there yet, or being written
            del waiting[index]
            done(record)

    while sbatch.poll() is None:
        collect()
        time.sleep(1)
    collect()
    if sbatch.returncode != 0 and len(waiting) == len(tasks):  # no task ran: the submission failed
        lines = (folder / "sbatch.err").read_text().strip().splitlines()
        raise RuntimeError("sbatch failed: " + (lines[-1] if lines else
                                                f"exit status {sbatch.returncode}"))
    for task, _ in waiting.values():
        done({"index": task["index"], "name": task["name"], "status": "failed",
              "exit_code": -1, "error": "the Slurm task left no status (see slurm/*.out)",
              "elapsed_s": None})
