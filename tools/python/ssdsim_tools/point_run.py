"""One sweep point: an `ssdsim run` in its own folder, with what it was asked (point.json) and how
it ended (status.json) beside its report.json. The function runs wherever the engine puts it
(a local thread, a Dask worker, a Slurm array task), so it takes and returns plain data."""
import json
import os
import subprocess
import time
from pathlib import Path

FINISHED = ("ok", "mismatch")  # a report was written; any other status is run again on resume
EXIT_STATUS = {0: "ok", 2: "mismatch"}


def point_folder(out_dir, name):
    return Path(out_dir) / "points" / name


def finished(folder, values, args):
    """Whether the point in `folder` ran to a report with these values and arguments."""
    try:
        asked = json.loads((folder / "point.json").read_text())
        status = json.loads((folder / "status.json").read_text())
    except (OSError, ValueError):
        return False
    return (asked.get("values") == values and asked.get("args") == args
            and status.get("status") in FINISHED and (folder / "report.json").exists())


def run_point(ssdsim, out_dir, index, name, values, args, timeout_s=0.0):
    """Runs one point; returns its status record (also written to status.json)."""
    folder = point_folder(out_dir, name)
    folder.mkdir(parents=True, exist_ok=True)
    for stale in ("status.json", "report.json"):
        (folder / stale).unlink(missing_ok=True)
    (folder / "point.json").write_text(json.dumps(
        {"index": index, "name": name, "values": values, "args": args}, indent=1) + "\n")
    command = [ssdsim, "run", "--quiet", "--out", str(folder)] + list(args)
    started = time.monotonic()
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    with open(folder / "stdout.txt", "w") as out, open(folder / "stderr.txt", "w") as err:
        try:
            code = subprocess.run(command, stdout=out, stderr=err, env=env,
                                  timeout=timeout_s or None).returncode
            status = EXIT_STATUS.get(code, "failed")
        except subprocess.TimeoutExpired:
            code, status = -1, "timeout"
        except OSError as error:
            code, status = -1, "failed"
            err.write(f"cannot start {ssdsim}: {error.strerror}\n")
    error = ""
    if status != "ok":
        lines = [l.strip() for l in (folder / "stderr.txt").read_text().splitlines() if l.strip()]
        error = lines[-1] if lines else ""
        if status == "timeout":
            error = f"stopped after options.timeout_s = {timeout_s:g} s"
        error = error.removeprefix("ssdsim: ").replace(str(folder), "<point>")
    record = {"index": index, "name": name, "status": status, "exit_code": code,
              "error": error, "elapsed_s": round(time.monotonic() - started, 3)}
    (folder / "status.json").write_text(json.dumps(record, indent=1) + "\n")
    return record


def check_point(ssdsim, args):
    """`ssdsim run --check` with these arguments: None when accepted, else ssdsim's message."""
    result = subprocess.run([ssdsim, "run", "--check"] + list(args), capture_output=True,
                            text=True, env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    if result.returncode == 0:
        return None
    lines = [l.strip() for l in result.stderr.splitlines() if l.strip()]
    return (lines[-1] if lines else f"exit status {result.returncode}").removeprefix("ssdsim: ")
