#!/usr/bin/env python3
"""bench/run-sector-log's helper: the runs to make, and the tables printed from their reports.

  sector_log_tables.py runs PARTS         one line per run: NAME then its ssdsim arguments
  sector_log_tables.py spec ROOT PARTS    the same runs as a sweep spec (bench/run-sector-log
                                          pictures)
  sector_log_tables.py paper              table 2's hit ratios, the reference of its picture
  sector_log_tables.py tables DIR PARTS   the tables of docs/results/sector-log.md

Device sizing (the paper's section 5.1: "the total flash memory capacity is as large as the
block address space of each trace with 3 % of extra capacity"): blocks of 256 KiB at every page
size (platforms/sector-log.toml), 4 planes, enough blocks per plane for the workload's span plus
3 %, plus the sector log's own blocks, which the FTL lends the log out of its spare blocks; the
over-provisioning ratio is set so that the host sees exactly the span. DRAM (shared by the write
buffer and the sector map) and log sizes are the paper's divided by the workload's scale.
"""
import json
import math
import os
import sys

BLOCK = 256 * 1024
PLANES = 4
PAGE_SIZES = [4096, 8192, 16384, 32768]
LOG_MB = [0, 128, 256, 512, 1024]  # the paper's sector-log sizes (MB = MiB here)
DRAM = 64 << 20  # the paper's shared DRAM
T_READ, T_PROG, T_ERASE = 165.6, 905.8, 1500.0  # the paper's table 1, microseconds
STAND_INS = {  # name: (scenario, span bytes, scale)
    "financial": ("bench/scenarios/sector-log-financial-like.toml", 1169948672, 10),
    "tpcc": ("bench/scenarios/sector-log-tpcc-like.toml", 2949906432, 10),
    "general": ("bench/scenarios/sector-log-general-like.toml", 1830027264, 10),
}
TRACE_SPAN = 1 << 30
TRACES = {  # name: (scenario, span bytes, scale)
    "financial1": ("scenarios/trace-financial1.toml", TRACE_SPAN, 100),
    "tpcc": ("scenarios/trace-tpcc.toml", TRACE_SPAN, 100),
}
# The paper's numbers beside ours: table 2 (hit ratio %, average size), table 3 (read, write),
# tables 5 (MB) and 6, by workload and page size (KiB) and log size (MB).
PAPER_T2 = {
    "general": {4: [(0, 3.79), (65.2, 4.81), (77.5, 4.81), (99.8, 0.0), (99.8, 0.0)],
                8: [(0, 7.14), (51.0, 9.29), (63.7, 9.91), (99.8, 0.0), (99.8, 0.0)],
                16: [(0, 13.1), (42.8, 17.4), (51.2, 18.6), (65.6, 19.7), (99.8, 0.0)],
                32: [(0, 23.2), (37.7, 30.2), (43.8, 33.6), (56.3, 36.4), (68.7, 37.9)]},
    "financial": {4: [(0, 3.12), (42.3, 4.53), (49.9, 4.75), (99.6, 0.0), (99.6, 0.0)],
                  8: [(0, 4.94), (34.0, 8.09), (50.3, 8.40), (70.9, 8.07), (99.8, 0.0)],
                  16: [(0, 7.70), (34.3, 14.1), (50.2, 14.6), (58.2, 15.5), (99.9, 0.0)],
                  32: [(0, 11.3), (34.0, 23.0), (44.2, 25.6), (59.3, 27.1), (79.9, 23.4)]},
    "tpcc": {4: [(0, 2.82), (12.3, 3.02), (22.4, 3.18), (34.1, 3.39), (46.9, 3.66)],
             8: [(0, 3.47), (12.3, 3.95), (21.8, 4.30), (32.9, 4.77), (45.0, 5.40)],
             16: [(0, 3.94), (12.5, 4.94), (21.3, 5.60), (31.5, 6.54), (42.9, 7.82)],
             32: [(0, 4.23), (11.9, 6.12), (20.2, 7.32), (29.8, 9.10), (40.8, 11.6)]},
}
PAPER_T3 = {
    "general": {4: [(1.089, 0.989), (1.092, 0.984), (1.073, 0.976), (1.073, 0.967)],
                8: [(1.226, 0.986), (1.241, 0.977), (1.242, 0.956), (1.242, 0.956)],
                16: [(1.473, 0.979), (1.538, 0.967), (1.605, 0.951), (1.652, 0.919)],
                32: [(1.860, 0.965), (2.001, 0.944), (2.131, 0.919), (2.408, 0.900)]},
    "financial": {4: [(1.147, 0.979), (1.153, 0.973), (1.182, 0.937), (1.182, 0.937)],
                  8: [(1.199, 0.951), (1.221, 0.932), (1.253, 0.911), (1.290, 0.878)],
                  16: [(1.232, 0.888), (1.282, 0.861), (1.313, 0.847), (1.400, 0.786)],
                  32: [(1.244, 0.790), (1.289, 0.757), (1.362, 0.725), (1.442, 0.695)]},
    "tpcc": {4: [(1.498, 1.170), (1.651, 1.047), (1.843, 0.910), (2.031, 0.776)],
             8: [(1.482, 0.989), (1.664, 0.854), (1.903, 0.713), (2.143, 0.581)],
             16: [(1.456, 0.823), (1.648, 0.680), (1.896, 0.539), (2.136, 0.414)],
             32: [(1.415, 0.675), (1.598, 0.528), (1.851, 0.393), (2.106, 0.283)]},
}
PAPER_T5 = {"financial": [1.8, 2.7, 4.4, 6.8], "tpcc": [16.2, 20.1, 26.8, 35.4],
            "general": [4.2, 5.6, 7.6, 9.7]}
PAPER_T6 = {"financial": [1.2, 1.3, 1.4, 1.6], "tpcc": [1.9, 2.1, 2.4, 2.8],
            "general": [1.1, 1.1, 1.2, 1.4]}


def log_blocks(mb, scale):
    return round(mb * (1 << 20) / BLOCK / scale)


def device(span, page, blocks):
    """The --set arguments of a device for `span` bytes with a log of `blocks` blocks."""
    span_per_plane = math.ceil(span / BLOCK / PLANES)
    log_per_plane = math.ceil(blocks / PLANES)
    per_plane = math.ceil(span_per_plane / 0.97) + log_per_plane
    over = 1 - span_per_plane / per_plane
    args = [f"nand.page_bytes={page}", f"nand.pages_per_block={BLOCK // page}",
            f"nand.blocks_per_plane={per_plane}", f"ftl.over_provisioning={over!r}"]
    return args


def run_settings(parts):
    """Each run: (prefix, workload, page bytes, log MB, scenario, its --set settings)."""
    groups = []
    if "stand-ins" in parts:
        groups.append(("stand", STAND_INS))
    if "traces" in parts:
        groups.append(("trace", TRACES))
    for prefix, workloads in groups:
        for name, (scenario, span, scale) in workloads.items():
            for page in PAGE_SIZES:
                for mb in LOG_MB:
                    blocks = log_blocks(mb, scale)
                    sets = device(span, page, blocks) + [
                        f"ftl.write_buffer.bytes={DRAM // scale}",
                        f"ftl.sector_log.size_bytes={blocks * BLOCK}"]
                    if prefix == "trace":  # serially, twice, on a full device, as the paper
                        sets += ["workload.mode=closed", "workload.queue_depth=1",
                                 "workload.passes=2", "precondition.fill_ratio=1.0",
                                 "run.oracle=false", "run.progress=false"]
                    yield prefix, name, page, mb, scenario, sets


def runs(parts):
    for prefix, name, page, mb, scenario, sets in run_settings(parts):
        args = " ".join(f"--set {s}" for s in sets)
        print(f"{prefix}.{name}.{page // 1024}.{mb} --scenario {scenario} {args}")


def spec(root, parts):
    """The same runs as a sweep spec (docs/exploration.md), each point tagged with the paper's
    axes (workload, page KiB, log MB) that its device and log settings are derived from."""
    print(f'[base]\nplatform = "{root}/platforms/sector-log.toml"\n')
    for prefix, name, page, mb, scenario, sets in run_settings(parts):
        print(f'[[points]]\nscenario = "{root}/{scenario}"')
        for setting in sets:
            key, _, value = setting.partition("=")
            print(f'"{key}" = {toml_value(value)}')
        kind = "stand-in" if prefix == "stand" else "trace"
        print(f'[points.tags]\nkind = "{kind}"\nworkload = "{name}"\n'
              f'page_kib = {page // 1024}\nlog_mb = {mb}\n')


def toml_value(text):
    if text in ("true", "false"):
        return text
    try:
        float(text)
        return text
    except ValueError:
        return f'"{text}"'


def paper_hit_ratios():
    """Table 2's hit ratios as the reference CSV of `ssdsim plot --reference`, in our units (a
    fraction, as the report's mapping.log_hit_ratio)."""
    print("kind,workload,page_kib,log_mb,mapping.log_hit_ratio")
    for name, pages in PAPER_T2.items():
        for page_kib, cells in pages.items():
            for mb, (ratio, _) in zip(LOG_MB, cells):
                print(f"stand-in,{name},{page_kib},{mb},{round(ratio / 100, 6)!r}")


def load(out, prefix, name, page, mb):
    with open(os.path.join(out, f"{prefix}.{name}.{page // 1024}.{mb}", "report.json")) as f:
        return json.load(f)


def counts(r):
    """The operation counts behind tables 3 and figure 6 (timed run only)."""
    m, ops, gc = r["mapping"], r["nand_ops"], r["gc"]
    copies = gc["pages_copied"]
    sl_reads, sl_writes, sl_erases = m["log_page_reads"], m["log_page_programs"], m["log_erases"]
    return {
        "ftl_reads": ops["read"] - copies - sl_reads,
        "ftl_writes": ops["program"] - copies - sl_writes,
        "gc_reads": copies, "gc_writes": copies, "gc_erases": ops["erase"] - sl_erases,
        "sl_reads": sl_reads, "sl_writes": sl_writes, "sl_erases": sl_erases,
    }


def elapsed_s(c):
    """The paper's elapsed time: each operation at table 1's latency, one after another."""
    us = ((c["ftl_reads"] + c["gc_reads"] + c["sl_reads"]) * T_READ +
          (c["ftl_writes"] + c["gc_writes"] + c["sl_writes"]) * T_PROG +
          (c["gc_erases"] + c["sl_erases"]) * T_ERASE)
    return us / 1e6


def tables(out, parts):
    groups = []
    if "stand-ins" in parts:
        groups.append(("stand", STAND_INS, "stand-ins (a tenth of the paper's size)"))
    if "traces" in parts:
        groups.append(("trace", TRACES, "bundled traces (1 GiB device, 1/100 of the DRAM and logs)"))
    for prefix, workloads, title in groups:
        print(f"## {title}\n")
        print("### Table 2: sub-page hit ratio (%) / average size of evictions (sectors)\n")
        print("| page | log MB | " + " | ".join(f"{w} ours | {w} paper" for w in workloads) + " |")
        print("|---|---|" + "---|---|" * len(workloads))
        for page in PAGE_SIZES:
            for i, mb in enumerate(LOG_MB):
                cells = []
                for w in workloads:
                    m = load(out, prefix, w, page, mb)["mapping"]
                    size = m["subpage_down_sectors"] if mb == 0 else m["log_eviction_sectors"]
                    cells.append(f"{100 * m['log_hit_ratio']:.1f}% / {size:.2f}")
                    p = PAPER_T2.get(w, {}).get(page // 1024)
                    cells.append(f"{p[i][0]}% / {p[i][1]}" if p else "-")
                print(f"| {page // 1024} KiB | {mb} | " + " | ".join(cells) + " |")
        print("\n### Table 3: reads / writes (FTL and log, GC excluded), normalised to no log\n")
        print("| page | log MB | " + " | ".join(f"{w} ours | {w} paper" for w in workloads) + " |")
        print("|---|---|" + "---|---|" * len(workloads))
        for page in PAGE_SIZES:
            for i, mb in enumerate(LOG_MB[1:]):
                cells = []
                for w in workloads:
                    base = counts(load(out, prefix, w, page, 0))
                    c = counts(load(out, prefix, w, page, mb))
                    reads = (c["ftl_reads"] + c["sl_reads"]) / max(1, base["ftl_reads"])
                    writes = (c["ftl_writes"] + c["sl_writes"]) / max(1, base["ftl_writes"])
                    cells.append(f"{reads:.3f} / {writes:.3f}")
                    p = PAPER_T3.get(w, {}).get(page // 1024)
                    cells.append(f"{p[i][0]:.3f} / {p[i][1]:.3f}" if p else "-")
                print(f"| {page // 1024} KiB | {mb} | " + " | ".join(cells) + " |")
        print("\n### Figure 6: elapsed time (s) by operation, each at table 1's latency, and "
              "our timed run\n")
        print("| workload | page | log MB | FTL r | FTL w | GC r | GC w | GC e | SL r | SL w | "
              "SL e | total | vs no log | simulated s |")
        print("|---|---|---|" + "---|" * 11)
        for w in workloads:
            for page in PAGE_SIZES:
                base = elapsed_s(counts(load(out, prefix, w, page, 0)))
                for mb in LOG_MB:
                    r = load(out, prefix, w, page, mb)
                    c = counts(r)
                    total = elapsed_s(c)
                    cells = [c["ftl_reads"] * T_READ, c["ftl_writes"] * T_PROG,
                             c["gc_reads"] * T_READ, c["gc_writes"] * T_PROG,
                             c["gc_erases"] * T_ERASE, c["sl_reads"] * T_READ,
                             c["sl_writes"] * T_PROG, c["sl_erases"] * T_ERASE]
                    gain = base / total - 1 if total else 0.0
                    print(f"| {w} | {page // 1024} KiB | {mb} | " +
                          " | ".join(f"{x / 1e6:.1f}" for x in cells) +
                          f" | {total:.1f} | {100 * gain:+.0f}% | "
                          f"{r['sim']['simulated_ns'] / 1e9:.1f} |")
        print("\n### Tables 5 and 6: sector-map memory (MB, peak) and hash search length, "
              "largest log\n")
        print("| workload | " + " | ".join(f"{p // 1024} KiB ours | paper" for p in PAGE_SIZES) +
              " |")
        print("|---|" + "---|---|" * len(PAGE_SIZES))
        for w in workloads:
            mem, search = [], []
            for k, page in enumerate(PAGE_SIZES):
                m = load(out, prefix, w, page, LOG_MB[-1])["mapping"]
                mem.append(f"{m['sector_map_peak_bytes'] / 1e6:.2f}")
                mem.append(f"{PAPER_T5[w][k]}" if w in PAPER_T5 else "-")
                search.append(f"{m['hash_search_length']:.2f}")
                search.append(f"{PAPER_T6[w][k]}" if w in PAPER_T6 else "-")
            print(f"| {w} memory | " + " | ".join(mem) + " |")
            print(f"| {w} search | " + " | ".join(search) + " |")
        print()


def main():
    if sys.argv[1] == "runs":
        runs(sys.argv[2].split())
    elif sys.argv[1] == "spec":
        spec(sys.argv[2], sys.argv[3].split())
    elif sys.argv[1] == "paper":
        paper_hit_ratios()
    else:
        tables(sys.argv[2], sys.argv[3].split())


if __name__ == "__main__":
    main()
