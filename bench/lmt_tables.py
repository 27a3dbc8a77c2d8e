#!/usr/bin/env python3
"""The tables of docs/results/lmt.md from bench/run-lmt's reports.

Usage: lmt_tables.py OUT PLATFORM THRESHOLDS_KB CACHES TRACE...
  OUT           folder of runs, each OUT/<trace>.<cache>.<fanout>.<kb>/report.json and
                OUT/<trace>.none/report.json
  PLATFORM      the platform file (for the spare-area read time and the firmware prices)
  THRESHOLDS_KB "16 32 ..." memory thresholds in KB
  CACHES        "lmt-wr:9 ... lru:9" cache kinds with their fan-out
"""
import json
import sys
import tomllib

# The paper's table 1: hit ratio of its one-week trace, thresholds 16 KB .. 8 MB.
PAPER_TABLE1 = {
    "lmt-wr:9": [0.121, 0.126, 0.143, 0.173, 0.219, 0.278, 0.342, 0.401, 0.524, 0.603],
    "lmt-scwr:9": [0.122, 0.126, 0.146, 0.173, 0.223, 0.282, 0.349, 0.41, 0.53, 0.61],
    "lmt-wr:19": [0.162, 0.17, 0.182, 0.22, 0.262, 0.298, 0.335, 0.465, 0.51, 0.577],
    "lmt-scwr:19": [0.153, 0.161, 0.178, 0.218, 0.263, 0.299, 0.34, 0.455, 0.527, 0.584],
    "lmt-wr:41": [0.202, 0.213, 0.224, 0.241, 0.268, 0.308, 0.41, 0.452, 0.482, 0.562],
    "lmt-scwr:41": [0.197, 0.211, 0.222, 0.238, 0.266, 0.295, 0.398, 0.452, 0.501, 0.562],
    "lru:9": [0.195, 0.22, 0.233, 0.244, 0.253, 0.265, 0.281, 0.314, 0.445, 0.679],
}
# The paper's table 3: average search and insertion time (us) on its prototype's CPU.
PAPER_TABLE3 = {
    "lmt-wr:9": ([1.36, 1.39, 1.44, 1.53, 1.54, 1.59, 1.59, 1.7, 2.1, 4.45],
                 [6.31, 8.52, 9.42, 10.53, 10.7, 11.71, 15.22, 18.27, 20.4, 34.05]),
    "lmt-scwr:9": ([1.31, 1.36, 1.42, 1.49, 1.52, 1.94, 1.61, 1.76, 1.84, 5.1],
                   [6.44, 8.15, 9.11, 10.61, 10.94, 12.75, 23.71, 31.85, 38.94, 52.77]),
    "lmt-wr:19": ([1.33, 1.43, 1.53, 1.54, 1.56, 1.64, 1.66, 1.75, 5.15, 5.47],
                  [7.41, 9.13, 10.49, 10.57, 10.73, 10.84, 10.95, 11.43, 32.22, 35.76]),
    "lmt-scwr:19": ([1.38, 1.42, 1.47, 1.5, 1.6, 1.6, 1.67, 1.74, 4, 6.15],
                    [7.59, 9.52, 10.49, 10.77, 10.99, 11.09, 11.75, 13.66, 28.16, 41.4]),
    "lmt-wr:41": ([1.45, 1.53, 1.58, 1.53, 1.58, 1.6, 1.67, 3.79, 3.65, 5.29],
                  [9.95, 10.23, 10.57, 10.62, 10.71, 10.95, 11.07, 23.83, 23.29, 34.81]),
    "lmt-scwr:41": ([1.44, 1.51, 1.51, 1.54, 1.57, 1.28, 1.67, 1.87, 2.6, 6.07],
                    [9.96, 10.26, 10.64, 10.71, 10.87, 11.1, 11.6, 13.12, 17.28, 38.94]),
    "lru:9": ([1.16, 1.13, 1.12, 1.05, 1.19, 1.51, 2.34, 3.4, 4.65, 2.4],
              [3.29, 3.27, 4.45, 3.94, 4.77, 5.18, 6.97, 10.5, 15.51, 16.98]),
}


def label(cache):
    kind, fanout = cache.split(":")
    if kind == "lru":
        return "LRU"
    return f"{'WR' if kind == 'lmt-wr' else 'SCWR'} (FANOUT = {fanout})"


def load(out, name):
    with open(f"{out}/{name}/report.json") as f:
        return json.load(f)


def translation_us(report, platform):
    """Address-translation time of a run: every spare area its searches read (tR of the spare
    area plus the firmware's list step over it) and every cache lookup's CPU time."""
    m = report["mapping"]
    controller = platform["controller"]
    step_us = controller.get("cycles_per_list_step", 8) / controller.get("cpu_mhz", 400)
    spare_us = platform["nand"]["t_spare_read_us"] + step_us
    return m["search_spare_reads"] * spare_us + m["cache_lookups"] * m["cache_lookup_us_mean"]


def row(cells):
    return "| " + " | ".join(cells) + " |"


def main():
    out, platform_path, thresholds, caches = sys.argv[1:5]
    traces = sys.argv[5:]
    thresholds = thresholds.split()
    caches = caches.split()
    with open(platform_path, "rb") as f:
        platform = tomllib.load(f)
    header = row(["threshold (KB)"] + thresholds)
    rule = row(["---"] * (len(thresholds) + 1))

    print("### Lookups per trace (no cache)")
    print()
    print(row(["trace", "requests", "reads", "lookups", "spare areas searched",
               "searched per lookup", "read mean (ms)"]))
    print(row(["---"] * 7))
    for trace in traces:
        r = load(out, f"{trace}.none")
        m = r["mapping"]
        lookups = m["searches"]
        total = sum(r["requests"].values())
        print(row([trace, str(total), str(r["requests"]["read"]),
                   str(lookups), str(m["search_spare_reads"]),
                   f"{m['search_spare_reads'] / lookups:.1f}" if lookups else "-",
                   f"{r['latency_ns']['read']['mean'] / 1e6:.2f}"]))
    print()

    print("### Table 1 of the paper: hit ratio, one-week desktop trace")
    print()
    print(header)
    print(rule)
    for cache in caches:
        print(row([label(cache)] + [f"{v:.3f}" for v in PAPER_TABLE1[cache]]))
    print()

    # Only workloads whose searches read spare areas have a translation time to improve.
    measured = [t for t in traces
                if load(out, f"{t}.none")["mapping"]["search_spare_reads"] > 0]
    for trace in measured:
        print(f"### Table 1, {trace}: hit ratio")
        print()
        print(header)
        print(rule)
        for cache in caches:
            kind, fanout = cache.split(":")
            cells = []
            for kb in thresholds:
                ratio = load(out, f"{trace}.{kind}.{fanout}.{kb}")["mapping"]["cache_hit_ratio"]
                cells.append("-" if ratio is None else f"{ratio:.3f}")
            print(row([label(cache)] + cells))
        print()

        base = translation_us(load(out, f"{trace}.none"), platform)
        print(f"### Figure 7, {trace}: address-translation time saved against NFTL "
              f"({base / 1e3:.1f} ms without a cache)")
        print()
        print(header)
        print(rule)
        for cache in caches:
            kind, fanout = cache.split(":")
            cells = []
            for kb in thresholds:
                t = translation_us(load(out, f"{trace}.{kind}.{fanout}.{kb}"), platform)
                cells.append(f"{100 * (1 - t / base):.1f} %")
            print(row([label(cache)] + cells))
        print()

        print(f"### Read latency at 512 KB, {trace}")
        print()
        print(row(["cache", "read mean (ms)", "read p99 (ms)", "spare areas searched",
                   "hit ratio"]))
        print(row(["---"] * 5))
        none = load(out, f"{trace}.none")
        print(row(["none (NFTL)", f"{none['latency_ns']['read']['mean'] / 1e6:.2f}",
                   f"{none['latency_ns']['read']['p99'] / 1e6:.2f}",
                   str(none["mapping"]["search_spare_reads"]), "-"]))
        for cache in caches:
            kind, fanout = cache.split(":")
            r = load(out, f"{trace}.{kind}.{fanout}.512")
            print(row([label(cache), f"{r['latency_ns']['read']['mean'] / 1e6:.2f}",
                       f"{r['latency_ns']['read']['p99'] / 1e6:.2f}",
                       str(r["mapping"]["search_spare_reads"]),
                       f"{r['mapping']['cache_hit_ratio']:.3f}"]))
        print()

        print(f"### Table 3, {trace}: mean search / insertion time (us, our FTL processor)")
        print()
        print(header)
        print(rule)
        for cache in caches:
            kind, fanout = cache.split(":")
            search, insert = [], []
            for kb in thresholds:
                m = load(out, f"{trace}.{kind}.{fanout}.{kb}")["mapping"]
                search.append(f"{m['cache_lookup_us_mean']:.2f}")
                insert.append(f"{m['cache_insertion_us_mean']:.2f}")
            print(row([f"{label(cache)} search"] + search))
            print(row([f"{label(cache)} insertion"] + insert))
        print()

    for trace in traces:
        try:
            load(out, f"{trace}.lru.9.512.forget")
        except FileNotFoundError:
            continue
        print(f"### What a fold tells the cache, {trace}, 512 KB")
        print()
        print(row(["cache", "hit ratio (update)", "hit ratio (forget)",
                   "spare areas searched (update)", "spare areas searched (forget)"]))
        print(row(["---"] * 5))
        for cache in caches:
            kind, fanout = cache.split(":")
            update = load(out, f"{trace}.{kind}.{fanout}.512")["mapping"]
            forget = load(out, f"{trace}.{kind}.{fanout}.512.forget")["mapping"]
            print(row([label(cache), f"{update['cache_hit_ratio']:.3f}",
                       f"{forget['cache_hit_ratio']:.3f}", str(update["search_spare_reads"]),
                       str(forget["search_spare_reads"])]))
        print()

    print("### Table 3 of the paper: mean search / insertion time (us, its prototype's CPU)")
    print()
    print(header)
    print(rule)
    for cache in caches:
        search, insert = PAPER_TABLE3[cache]
        print(row([f"{label(cache)} search"] + [f"{v:.2f}" for v in search]))
        print(row([f"{label(cache)} insertion"] + [f"{v:.2f}" for v in insert]))
    print()


if __name__ == "__main__":
    main()
