#!/usr/bin/env python3
"""Random configurations and random trace lines through the real ssdsim binary.

Each case draws platform and scenario keys (valid values mostly, some of the wrong type, out of
range or unknown, geometries that cannot be built or are too large to hold, every scheme and its
settings) and sometimes a trace of random lines, a few of them malformed. Every run must either
complete (exit 0) with a clean oracle and a report that reflects what was set, or be refused
before it starts (exit 1) with a message naming a key, a file and line, or an option, and leave
no output folder. Anything else (another exit status, a signal, a hang, a silent default) fails.

Usage: property_test.py SSDSIM SOURCE_DIR [CASES] [SEED]
"""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

SCHEMES = ["page", "block", "nftl", "fast", "dftl", "vet", "emt"]
TIMEOUT_S = 120

# Messages of a refusal name a key ('nand.channels'), a file and line (trace.txt:3:), an option
# (--fit, --out), or a file or folder that cannot be read.
NAMED = re.compile(r"key '[a-z_]+\.[a-z_.]+'|:\d+:|--[a-z-]+|No such file|not a TOML file")


def pick(rng, valid, invalid, p_invalid=0.04):
    return rng.choice(invalid) if invalid and rng.random() < p_invalid else rng.choice(valid)


def draw_platform(rng):
    """Key -> value text for --set; also the geometry the report must show."""
    keys = {}

    def maybe(key, valid, invalid=(), p=0.5):
        if rng.random() < p:
            keys[key] = str(pick(rng, list(valid), list(invalid)))

    maybe("nand.channels", [1, 2, 3, 4], [0, "two", -1])
    maybe("nand.chips_per_channel", [1, 2, 3], [0])
    maybe("nand.dies_per_chip", [1, 2], [0, 1.5])
    maybe("nand.planes_per_die", [1, 2], [0])
    maybe("nand.blocks_per_plane", [16, 32, 64, 128, 256], [1, 3, 20000000])
    maybe("nand.pages_per_block", [2, 4, 8, 16, 64], [0, 1, 70000])
    maybe("nand.page_bytes", [2048, 4096, 8192], [4000, 0, 3 << 20])
    maybe("nand.spare_bytes", [16, 64, 128], [0, 1, 2])
    maybe("nand.sector_bytes", [512], [1000, 256])
    maybe("nand.t_read_us", [25, 50.5, 100], [0, -1, "1e300", "nan"], p=0.3)
    maybe("nand.t_program_us", [200, 500], [0, "1e300"], p=0.3)
    maybe("nand.t_erase_us", [1500, 3000], [0], p=0.3)
    maybe("nand.channel_mt_s", [100, 333, 1200], [0, "1e-300"], p=0.3)
    maybe("nand.mapping_priority", ["host_read", "host_write", "gc"], ["urgent"], p=0.2)
    maybe("ftl.over_provisioning", [0.15, 0.2, 0.25, 0.3, 0.4], [0.01, 0.95, 0], p=0.6)
    maybe("ftl.gc_threshold", [0.05, 0.08, 0.1], [0, 0.6], p=0.4)
    maybe("ftl.mapping_unit_bytes", [0, 0, 1024, 2048], [1000, 3000], p=0.3)
    maybe("ftl.fast.log_blocks_ratio", [0.01, 0.03, 0.05], [0, 0.7], p=0.2)
    maybe("ftl.dftl.cache_entries", [0, 16, 256], ["many"], p=0.2)
    maybe("ftl.dftl.cache_bytes", [64, 4096, 32768], [4], p=0.2)
    maybe("ftl.extent.chunk_pages", [0, 1, 4, 16], [-4], p=0.2)
    maybe("ftl.extent.gc_relocation", ["runs", "units"], ["all"], p=0.2)
    maybe("ftl.vet.insertion", ["lis", "bis"], ["xis"], p=0.2)
    maybe("ftl.vet.layout", ["pd", "pf"], [], p=0.2)
    maybe("ftl.vet.hash", ["chaining", "cuckoo"], [], p=0.2)
    maybe("ftl.vet.hash_backend", ["software", "accelerator"], ["gpu"], p=0.2)
    maybe("controller.cpu_mhz", [100, 400, 1000], [0, "1e-300"], p=0.3)
    maybe("controller.cycles_per_hash_probe", [0, 30, 55.5], [-3, "1e300"], p=0.2)
    maybe("host.pcie_gt_s", [2.5, 8, 16], [0, "1e-300"], p=0.2)
    maybe("host.pcie_lanes", [1, 4, 8], [3], p=0.2)
    maybe("dram.bandwidth_mb_s", [1600, 6400], [0], p=0.2)
    maybe("nvram.kind", ["none", "stt-mram", "pcm"], ["flash"], p=0.2)
    if keys.get("nvram.kind") in ("stt-mram", "pcm") and rng.random() < 0.8:
        keys["nvram.capacity_bytes"] = str(rng.choice([65536, 1 << 20]))
        keys["nvram.bandwidth_mb_s"] = str(rng.choice([100, 800]))
    if rng.random() < 0.03:
        keys[rng.choice(["nand.chanels", "ftl.bogus", "ftl.fast_log_blocks_ratio"])] = "1"
    return keys


def draw_scenario(rng):
    keys = {}

    def maybe(key, valid, invalid=(), p=0.5):
        if rng.random() < p:
            keys[key] = str(pick(rng, list(valid), list(invalid)))

    keys["workload.requests"] = str(rng.randint(50, 400))
    maybe("workload.pattern", ["random", "sequential"], ["zigzag"])
    maybe("workload.read_ratio", [0, 0.3, 0.5, 0.9], [1.5, -0.1])
    maybe("workload.trim_ratio", [0, 0.05, 0.1], [2])
    maybe("workload.request_bytes", [512, 4096, 16384, 65536], [1000, 0])
    maybe("workload.align_bytes", [512, 4096], [100])
    maybe("workload.queue_depth", [1, 4, 32], [0, 5000])
    maybe("workload.mode", ["closed", "open"], ["burst"])
    maybe("workload.interarrival_us", [5, 100], [0])
    maybe("workload.arrival", ["fixed", "poisson"], [])
    maybe("workload.flush_every_writes", [0, 16], [])
    maybe("workload.seed", [1, 7, 123456789], [-1])
    maybe("precondition.fill_ratio", [0, 0.3, 0.7, 1.0], [1.5])
    maybe("precondition.overwrite_ratio", [0, 0.2, 0.5], [-1])
    maybe("workload.sync_call", ["flush", "fsync", "fdatasync"], ["sync"], p=0.3)
    if keys.get("workload.sync_call") in ("fsync", "fdatasync"):
        maybe("workload.journal_bytes", [1 << 20, 4 << 20], [1000], p=0.5)
        maybe("workload.journal_write_bytes", [4096, 8192, 12288], [0], p=0.3)
    return keys


def draw_trace(rng, path):
    """An MQSim-format trace (time_ns device lba sectors type); a few lines malformed."""
    lines = []
    t = 0
    bad = 0
    for i in range(rng.randint(1, 60)):
        t += rng.randint(0, 200000)
        lba = rng.randint(0, 1 << rng.choice([10, 16, 24]))
        line = f"{t} 0 {lba} {rng.choice([1, 8, 16, 64])} {rng.randint(0, 1)}"
        if rng.random() < 0.03:
            line = rng.choice(["garbage", f"{t} 0 {lba}", f"{t} 0 -5 8 1", f"{t} 0 {lba} 8 7"])
            bad += 1
        lines.append(line)
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")
    return bad


def expected_physical_bytes(keys):
    geometry = {"nand.channels": 2, "nand.chips_per_channel": 2, "nand.dies_per_chip": 1,
                "nand.planes_per_die": 1, "nand.blocks_per_plane": 256,
                "nand.pages_per_block": 64, "nand.page_bytes": 4096}
    product = 1
    for key, default in geometry.items():
        product *= int(keys.get(key, default))
    return product


def main():
    ssdsim, src = sys.argv[1], sys.argv[2]
    cases = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 20261124
    rng = random.Random(seed)
    work = tempfile.mkdtemp(prefix="ssdsim-property-")
    failures = []
    outcomes = {"completed": 0, "refused": 0}
    try:
        for case in range(cases):
            platform = draw_platform(rng)
            scenario = draw_scenario(rng)
            scheme = pick(rng, SCHEMES, ["nope", ""], 0.03)
            args = [ssdsim, "run", "--quiet", "--ftl", scheme]
            trace = None
            if rng.random() < 0.25:
                trace = os.path.join(work, f"case{case}.trace")
                draw_trace(rng, trace)
                args += ["--trace", trace, "--fit", rng.choice(["scale", "wrap", "error"])]
                for key in ("workload.requests", "workload.pattern", "workload.mode"):
                    scenario.pop(key, None)
            for key, value in list(platform.items()) + list(scenario.items()):
                args += ["--set", f"{key}={value}"]
            out = os.path.join(work, f"out{case}")
            args += ["--out", out]
            what = " ".join(args[2:])
            try:
                run = subprocess.run(args, cwd=src, capture_output=True, text=True,
                                     timeout=TIMEOUT_S)
            except subprocess.TimeoutExpired:
                failures.append(f"case {case}: timed out: {what}")
                continue
            message = run.stderr.strip()
            if run.returncode == 0:
                outcomes["completed"] += 1
                try:
                    report = json.load(open(os.path.join(out, "report.json")))
                except OSError as error:
                    failures.append(f"case {case}: exit 0 without a report ({error}): {what}")
                    continue
                problems = []
                integrity = report["integrity"]
                if not integrity["enabled"] or integrity["mismatches"] != 0:
                    problems.append(f"integrity {integrity}")
                if report["run"]["scheme"] != scheme:
                    problems.append(f"scheme {report['run']['scheme']} != {scheme}")
                if report["device"]["physical_bytes"] != expected_physical_bytes(platform):
                    problems.append(f"physical_bytes {report['device']['physical_bytes']}")
                if "workload.seed" in scenario and trace is None and \
                        report["run"]["seed"] != int(scenario["workload.seed"]):
                    problems.append(f"seed {report['run']['seed']}")
                if problems:
                    failures.append(f"case {case}: {'; '.join(problems)}: {what}")
            elif run.returncode == 1:
                outcomes["refused"] += 1
                if not message.startswith("ssdsim: ") or not NAMED.search(message):
                    failures.append(f"case {case}: refusal names nothing: {message!r}: {what}")
                if os.path.exists(out):
                    failures.append(f"case {case}: refused but left {out}: {what}")
            else:
                failures.append(f"case {case}: exit {run.returncode}: {message[-400:]!r}: {what}")
            shutil.rmtree(out, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{cases} cases: {outcomes['completed']} completed, {outcomes['refused']} refused, "
          f"{len(failures)} failed (seed {seed})")
    for failure in failures:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
