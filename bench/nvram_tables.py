#!/usr/bin/env python3
"""The tables of docs/results/nvram.md from bench/run-nvram's reports.

Usage: nvram_tables.py OUT SIZES THRESHOLDS SPANS
       nvram_tables.py paper SIZES   figure 5's paper numbers as the reference CSV of
                                     `ssdsim plot --reference` (bench/run-nvram pictures)
  OUT         folder of runs, each OUT/<name>/report.json (names as bench/run-nvram gives them)
  SIZES       "25 50 75 100" NVRAM sizes, % of the mapping table
  THRESHOLDS  "0.0625 ..." dense thresholds of figure 3
  SPANS       "64:67108864 ..." figure 3's file-set sizes, MiB:bytes
"""
import json
import sys

# The paper's numbers, read off its text (section 4).
PAPER_FIG1 = {"fsync": 16.4, "fdatasync": 21.2}  # IOPS without map flushing / with it
PAPER_FIG4 = {"fsync": {"25": 3.90, "100": 4.22}, "fdatasync": {"25": 4.00, "100": 4.08}}
PAPER_FIG5 = {"varmail": "8.43-9.37", "oltp": "1.23-1.40"}  # over conventional, NVRAM 25-100 %
PAPER_FIG6_PCM = {"varmail": 4.23, "oltp": 1.10}  # PCM at NVRAM 25 %, over conventional


def load(out, name):
    with open(f"{out}/{name}/report.json") as f:
        return json.load(f)


def seconds(report):
    return report["sim"]["simulated_ns"] / 1e9


def data_iops(report):
    """FIO-like runs: one data write per sync (flush), so data writes = flushes; without syncs,
    every write is a data write."""
    flushes = report["requests"]["flush"]
    data = flushes if flushes else report["requests"]["write"]
    return data / seconds(report)


def paper_figure5(sizes):
    """The paper gives figure 5 as a range over NVRAM 25-100 %: both ends at each size, drawn
    as a range beside each of our NVRAM bars (scenario by its name, sync as the sweep's tags)."""
    print("scenario,sync,iops")
    for workload, span in PAPER_FIG5.items():
        for size in sizes:
            for end in span.split("-"):
                print(f"nvram-{workload}-like,nvram {size} %,{end}")


def main():
    if sys.argv[1] == "paper":
        paper_figure5(sys.argv[2].split())
        return
    out, sizes, thresholds, spans = sys.argv[1], sys.argv[2].split(), sys.argv[3].split(), \
        sys.argv[4].split()
    r = lambda name: load(out, name)

    print("## Figure 1: IOPS without map flushing over with it (FIO-like, sync after each write)\n")
    print("Data writes per second; the map flushed as the dirty segments (conventional) or as the "
          "whole table (whole, the stock Jasmine firmware's flush).\n")
    print("| sync call | conventional | whole | none (no map flushing) | none / conventional "
          "| none / whole | paper, B / A |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for call in ("fsync", "fdatasync"):
        conv, whole = data_iops(r(f"fio.{call}.conventional")), data_iops(r(f"fio.{call}.whole"))
        none = data_iops(r(f"fio.{call}.none"))
        print(f"| {call} | {conv:.1f} | {whole:.1f} | {none:.1f} | {none / conv:.2f}x | "
              f"{none / whole:.2f}x | {PAPER_FIG1[call]}x |")
    print()
    for call in ("fsync", "fdatasync"):
        req = r(f"fio.{call}.none")["requests"]
        print(f"- {call}: {req['flush']} syncs, {req['write'] - req['flush']} journal writes")

    print("\n## Figure 3: IOPS against the dense threshold (Varmail-like, NVRAM 25 %)\n")
    print("IOPS normalised to the 6.25 % threshold; in brackets the dense / sparse segments per "
          "sync.\n")
    print("| file set | " + " | ".join(f"{float(t) * 100:g} %" for t in thresholds) + " |")
    print("|---|" + "---:|" * len(thresholds))
    for span in spans:
        mib = span.split(":")[0]
        base = r(f"threshold.{mib}.{thresholds[0]}")["iops"]
        cells = []
        for t in thresholds:
            rep = r(f"threshold.{mib}.{t}")
            m = rep["mapping"]
            syncs = max(1, m["syncs"])
            dense = (m["sync_segments_dense"] + m["sync_segments_full"]) / syncs
            cells.append(f"{rep['iops'] / base:.2f} ({dense:.1f} / "
                         f"{m['sync_segments_sparse'] / syncs:.1f})")
        print(f"| {mib} MiB | " + " | ".join(cells) + " |")
    print("\nPaper: the peak at 25 %, 1.7x the IOPS of 6.25 %.")

    print("\n## Figure 4: FIO-like, IOPS normalised to the same writes without syncs\n")
    print("| sync call | whole | conventional | " + " | ".join(f"nvram {s} %" for s in sizes) +
          " | nvram / conventional | nvram / whole | paper, nvram / conventional |")
    print("|---|---:|---:|" + "---:|" * len(sizes) + "---:|---:|---|")
    async_iops = data_iops(r("fio.async"))
    rows = []
    for call in ("fsync", "fdatasync"):
        conv = data_iops(r(f"fio.{call}.conventional"))
        whole = data_iops(r(f"fio.{call}.whole"))
        nv = [data_iops(r(f"fio.{call}.nvram.{s}")) for s in sizes]
        over = lambda base: "-".join(f"{v / base:.2f}" for v in (nv[0], nv[-1])) + "x"
        paper = PAPER_FIG4[call]
        rows.append(f"| {call} | {whole / async_iops:.3f} | {conv / async_iops:.3f} | " +
                    " | ".join(f"{v / async_iops:.3f}" for v in nv) +
                    f" | {over(conv)} | {over(whole)} | {paper['25']:.2f}-{paper['100']:.2f}x |")
    print("\n".join(rows))
    print(f"\nAsynchronous: {async_iops:.1f} writes/s ({1000 / async_iops:.2f} ms a write at QD 1).")

    print("\n## Figure 5: Varmail-like and OLTP-like, IOPS over conventional\n")
    print("| workload | file set | " + " | ".join(f"nvram {s} %" for s in sizes) +
          " | none (no map flushing) | whole | paper, nvram 25-100 % |")
    print("|---|---|" + "---:|" * len(sizes) + "---:|---:|---|")
    for workload in ("varmail", "oltp"):
        for where, label in (("1024", "1 GiB"), ("all", "whole device")):
            conv = r(f"{workload}.{where}.conventional")["iops"]
            cells = [f"{r(f'{workload}.{where}.nvram.{s}')['iops'] / conv:.2f}x" for s in sizes]
            none = r(f"{workload}.{where}.none")["iops"] / conv
            whole = r(f"{workload}.{where}.whole")["iops"] / conv
            print(f"| {workload}-like | {label} | " + " | ".join(cells) +
                  f" | {none:.2f}x | {whole:.2f}x | {PAPER_FIG5[workload]}x |")

    print("\n## Figure 6: the NVRAM's kind, NVRAM 25 %, 1 GiB file set, IOPS over conventional\n")
    print("| workload | STT-MRAM 10/10 ns | PCM 20/125 ns per access | PCM a 4-byte word at a "
          "time | paper, PCM | NVRAM written per sync (KiB) |")
    print("|---|---:|---:|---:|---:|---:|")
    for workload in ("varmail", "oltp"):
        conv = r(f"{workload}.1024.conventional")["iops"]
        stt = r(f"{workload}.1024.nvram.{sizes[0]}")
        cells = [f"{r(name)['iops'] / conv:.2f}x" for name in
                 (f"{workload}.1024.nvram.{sizes[0]}", f"{workload}.1024.pcm",
                  f"{workload}.1024.pcm-words")]
        per_sync = stt["memory"]["nvram_write_bytes"] / max(1, stt["mapping"]["syncs"]) / 1024
        print(f"| {workload}-like | " + " | ".join(cells) +
              f" | {PAPER_FIG6_PCM[workload]:.2f}x | {per_sync:.0f} |")

    print("\n## What the syncs did\n")
    print("Per sync: dirty segments by state, segments written to flash, NVRAM copies (hits) and "
          "evictions; flush latency; simulated time per sync and mean write latency; units "
          "written for mapping and GC per host unit.\n")
    print("| run | syncs | sparse | dense | full | to flash | NVRAM copies (hits) | evictions "
          "| flush p50 ms | flush p99 ms | ms a sync | write mean ms | mapping / host "
          "| GC / host |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    runs = ["fio.fsync.conventional", "fio.fsync.whole", f"fio.fsync.nvram.{sizes[0]}",
            "varmail.1024.none", "varmail.1024.conventional", f"varmail.1024.nvram.{sizes[0]}",
            f"varmail.1024.nvram.{sizes[-1]}", "varmail.all.conventional",
            f"varmail.all.nvram.{sizes[0]}", "oltp.1024.conventional",
            f"oltp.1024.nvram.{sizes[0]}", f"oltp.all.nvram.{sizes[0]}"]
    for name in runs:
        rep = r(name)
        m, f, lat = rep["mapping"], rep["ftl"], rep["latency_ns"]["flush"]
        s = max(1, m["syncs"])
        host = max(1, f["host_units_written"])
        print(f"| {name} | {m['syncs']} | {m['sync_segments_sparse'] / s:.1f} | "
              f"{m['sync_segments_dense'] / s:.1f} | {m['sync_segments_full'] / s:.1f} | "
              f"{m['map_segments_to_flash_per_sync']:.1f} | {m['nvram_copies'] / s:.1f} "
              f"({m['nvram_hits'] / s:.1f}) | {m['nvram_evictions'] / s:.1f} | "
              f"{lat['p50'] / 1e6:.2f} | {lat['p99'] / 1e6:.2f} | "
              f"{rep['sim']['simulated_ns'] / max(1, rep['requests']['flush']) / 1e6:.1f} | "
              f"{rep['latency_ns']['write']['mean'] / 1e6:.2f} | "
              f"{f['mapping_units_written'] / host:.3f} | {f['gc_units_written'] / host:.3f} |")


if __name__ == "__main__":
    main()
