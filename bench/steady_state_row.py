#!/usr/bin/env python3
"""One row of bench/run-steady-state's tables, from a run's report.json.

Usage: steady_state_row.py KIND LABEL REPORT PLATFORM [--set key=value ...]

KIND is synthetic, planes, multiplane, trace, options, latency, openloop, seeds or aging. PLATFORM and the --set overrides are the run's, for the
timings of the analytic bound: the die time the run's flash work needs (every program with its
command and page transfer and tPROG, every read with its command, tR and the bytes it moved,
every spare-area read, every erase; the array time of an operation joined to a multi-plane one
counted once), shared over the dies, gives the shortest simulated time in
which that work fits; the bound is the requests over that time. A run can approach the bound
only if no die ever idles.
"""
import json
import sys
import tomllib

# config/platform_config.h defaults, for keys a platform file leaves out.
NAND_DEFAULTS = {
    "channels": 2, "chips_per_channel": 2, "dies_per_chip": 1, "page_bytes": 4096,
    "t_read_us": 50.0, "t_spare_read_us": 20.0, "t_program_us": 500.0, "t_erase_us": 3000.0,
    "channel_mt_s": 333.0, "channel_width_bytes": 1, "command_address_cycles": 7,
    "page_type_order": [],
}


def platform_nand(path, overrides):
    with open(path, "rb") as f:
        nand = dict(NAND_DEFAULTS, **tomllib.load(f).get("nand", {}))
    for item in overrides:
        key, value = item.split("=", 1)
        section, name = key.split(".", 1)
        if section == "nand" and name in NAND_DEFAULTS:
            nand[name] = tomllib.loads(f"v = {value}")["v"]
    # Per-page-type times (lists): the mean over the page-type order. Exact for programs (every
    # block is written in page order from its first page to its last), an estimate for reads.
    order = nand.get("page_type_order") or []
    for name in ("t_read_us", "t_program_us"):
        times = nand[name]
        if isinstance(times, list):
            types = order or [page % len(times) for page in range(len(times))]
            nand[name] = sum(times[t] if len(times) > 1 else times[0] for t in types) / len(types)
    return nand


def bound_iops(report, nand):
    """Requests per second if the dies did the run's flash work without ever idling."""
    byte_s = 1.0 / (nand["channel_mt_s"] * 1e6 * nand["channel_width_bytes"])
    command_s = nand["command_address_cycles"] / (nand["channel_mt_s"] * 1e6)
    ops = report["nand_ops"]
    unit_bytes = report["bytes"]["written"] / max(1, report["ftl"]["host_units_written"])
    # GC copies cross the channel, except those copied back inside the die.
    read_bytes = (report["bytes"]["read"] + report["gc"]["pages_copied"] * unit_bytes
                  - ops.get("copyback", 0) * nand["page_bytes"])
    die_s = (ops["program"] * (command_s + nand["page_bytes"] * byte_s + nand["t_program_us"] * 1e-6)
             + ops["read"] * (command_s + nand["t_read_us"] * 1e-6)
             + read_bytes * byte_s
             + ops["spare_read"] * (command_s + nand["t_spare_read_us"] * 1e-6)
             + ops["erase"] * (command_s + nand["t_erase_us"] * 1e-6)
             + ops.get("copyback", 0) * (2 * command_s + (nand["t_read_us"] + nand["t_program_us"]) * 1e-6))
    # An operation joined to another as one multi-plane operation (nand.multiplane) shares its
    # array time: only its command and data take die time of their own.
    joined = ops.get("multiplane_joined", {})
    die_s -= (joined.get("program", 0) * nand["t_program_us"] + joined.get("read", 0) * nand["t_read_us"]
              + joined.get("spare_read", 0) * nand["t_spare_read_us"]
              + joined.get("erase", 0) * nand["t_erase_us"]) * 1e-6
    dies = nand["channels"] * nand["chips_per_channel"] * nand["dies_per_chip"]
    requests = sum(report["requests"].values())
    return requests / (die_s / dies) if die_s > 0 else float("inf")


def ms(ns):
    return f"{ns / 1e6:.1f}"


def ms2(ns):
    return f"{ns / 1e6:.3f}"


def main():
    kind, label, report_path, platform = sys.argv[1:5]
    overrides = [a for a in sys.argv[5:] if a != "--set"]
    r = json.load(open(report_path))
    if r["integrity"]["mismatches"]:
        sys.exit(f"steady_state_row: {report_path}: integrity mismatches")
    nand = platform_nand(platform, overrides)
    # Operations by kind (multiplane_joined counts some of them again).
    flash_ops = sum(v for v in r["nand_ops"].values() if isinstance(v, int))
    wall = r["sim"]["wall_s"]
    waf = "-" if r["waf"] is None else f"{r['waf']:.2f}"
    write = r["latency_ns"]["write"]
    busy = f"{r['nand_busy']['die_mean']:.2f}"
    if kind == "trace":
        read = r["latency_ns"]["read"]
        print(f"| {label} | {sum(r['requests'].values())} | {waf} | {ms(read['mean'])} / "
              f"{ms(write['mean'])} | {flash_ops} | {wall:.2f} | {flash_ops / wall:,.0f} |")
        return
    if kind == "openloop":
        print(f"| {label} | {r['iops']:.0f} | {ms(write['mean'])} / {ms(write['p50'])} / "
              f"{ms(write['p99'])} / {ms(write['max'])} | {busy} |")
        return
    if kind == "latency":
        read = r["latency_ns"]["read"]
        print(f"| {label} | {ms2(read['p50'])} / {ms2(read['p99'])} | {ms2(write['p50'])} / "
              f"{ms2(write['p99'])} | {ms2(read['mean'])} / {ms2(write['mean'])} | "
              f"{r['gc']['invocations']} |")
        return
    bound = bound_iops(r, nand)
    share = f"{100 * r['iops'] / bound:.0f} %"
    if kind == "options":
        read = r["latency_ns"]["read"]
        ops = r["nand_ops"]
        print(f"| {label} | {r['iops']:.0f} | {bound:.0f} | {share} | {waf} | {ms(read['mean'])} | "
              f"{ms(write['p50'])} / {ms(write['p99'])} | {ops['read']} / {ops['program']} / "
              f"{ops['copyback']} | {r['nand_busy']['channel_mean']:.3f} |")
        return
    if kind == "aging":
        print(f"| {label} | {r['precondition']['wall_s']:.1f} | {r['iops']:.0f} | {bound:.0f} | {share} | "
              f"{waf} | {ms(write['mean'])} / {ms(write['p99'])} | {busy} |")
        return
    if kind == "seeds":
        read, flush = r["latency_ns"]["read"], r["latency_ns"]["flush"]
        die = r["nand_busy"]
        print(f"| {label} | {r['iops']:.0f} | {bound:.0f} | {share} | {waf} | "
              f"{die['die_mean']:.2f} ({die['die_min']:.2f}-{die['die_max']:.2f}) | "
              f"{ms2(read['mean']) if read['count'] else '-'} | {ms(write['p99'])} | "
              f"{ms(flush['mean']) if flush['count'] else '-'} |")
        return
    if kind == "multiplane":
        ops, joined = r["nand_ops"], r["nand_ops"]["multiplane_joined"]
        shares = " / ".join(f"{100 * joined[k] / max(1, ops[k]):.0f} %"
                            for k in ("program", "read", "erase"))
        print(f"| {label} | {r['iops']:.0f} | {bound:.0f} | {share} | {waf} | "
              f"{ms(write['mean'])} / {ms(write['p99'])} / {ms(write['max'])} | {busy} | {shares} |")
        return
    if kind == "planes":
        print(f"| {label} | {r['iops']:.0f} | {bound:.0f} | {share} | {waf} | "
              f"{ms(write['mean'])} / {ms(write['p99'])} / {ms(write['max'])} | {busy} |")
        return
    print(f"| {label} | {sum(r['requests'].values())} | {r['iops']:.0f} | {bound:.0f} | {share} | {waf} | {ms(write['p50'])} / "
          f"{ms(write['p99'])} / {ms(write['max'])} | {busy} | {r['sim']['peak_rss_mb']:.0f} | "
          f"{flash_ops / wall:,.0f} |")


if __name__ == "__main__":
    main()
