#!/usr/bin/env python3
"""Prints the tables of docs/results/superblock-lsb.md from bench/run-superblock-lsb's reports.

Usage: superblock_lsb_tables.py OUT_DIR PARTS WORKLOADS FREE SIZES ENTRIES TRACES (space-separated
lists; PARTS: any of stand-ins, traces and full-size).
       superblock_lsb_tables.py paper   figure 9's one number in the paper's text as the
                                        reference CSV of `ssdsim plot --reference`
GC overhead is the LSB paper's: erases x tBERS + pages copied x (tR + tPROG), the MIW copies
among the copies; address translation is spare-area reads x tSPARE (platforms/k9k4g08-80gb.toml).
A victim's space utilisation is its programmed pages over the 64 of a block. A write's response
time increment (figure 14) is its latency less the fastest write of the same size in either FTL's
run of the workload: what the FTL's overhead (GC, map loads) added to it.
"""
import csv
import json
import os
import sys

T_ERASE_US, T_READ_US, T_PROG_US, T_SPARE_US = 2000.0, 88.0, 263.0, 28.0
PAGES_PER_BLOCK = 64
# Figure 11's CDF: victims erased with more than this many never-programmed pages (utilisation
# below 50, 75, 87.5 and 100 %; the paper quotes "more than eight free pages").
FREE_PAGE_BOUNDS = (32, 16, 8, 0)
# Figure 14's CDF: increments at most this many ms.
INCREMENT_MS = (1, 5, 10, 20, 50, 100)
# The paper's section 5 on figure 9: "when 3 % of the total physical blocks are initially kept
# as free blocks, LSB reduces the GC overhead by 70 % to 89 % under the traces".
PAPER_FIG9_FREE, PAPER_FIG9_CUT = 0.03, (0.70, 0.89)
NAMES = {"linuxpc": "LinuxPC", "winpc": "WinPC", "wproxy": "Wproxy", "iozone": "IOzone"}


def report(out, name):
    with open(os.path.join(out, name, "report.json")) as f:
        return json.load(f)


def parts(r):
    """(erase s, copy s, MIW s) of GC overhead."""
    miw = r["mapping"].get("miw_writes", 0)
    copy = r["gc"]["pages_copied"]
    return (r["gc"]["erases"] * T_ERASE_US / 1e6, copy * (T_READ_US + T_PROG_US) / 1e6,
            miw * (T_READ_US + T_PROG_US) / 1e6)


def gc_s(r):
    return sum(parts(r))


def translation_s(r):
    return r["mapping"]["map_spare_reads"] * T_SPARE_US / 1e6


def victim_cdf(r):
    """[victims, share with utilisation below each bound of FREE_PAGE_BOUNDS]."""
    counts = r["mapping"]["victim_free_pages"]
    victims = sum(counts)
    shares = [sum(counts[bound + 1:]) / victims if victims else 0 for bound in FREE_PAGE_BOUNDS]
    return [str(victims)] + [f"{share:.1%}" for share in shares]


VICTIM_HEADER = ["victims"] + [f"utilisation < {1 - b / PAGES_PER_BLOCK:.1%}"
                               for b in FREE_PAGE_BOUNDS]


def write_latencies(out, name):
    """(sectors, latency ns) of each write in a run's requests.csv."""
    with open(os.path.join(out, name, "requests.csv")) as f:
        return [(int(row["sectors"]), int(row["latency_ns"])) for row in csv.DictReader(f)
                if row["kind"] == "write"]


def increment_rows(out, label, names):
    """Figure 14's CDF rows for runs of one workload (names: FTL -> run)."""
    runs = {ftl: write_latencies(out, name) for ftl, name in names.items()}
    fastest = {}
    for writes in runs.values():
        for sectors, latency in writes:
            fastest[sectors] = min(latency, fastest.get(sectors, latency))
    rows = []
    for ftl, writes in runs.items():
        increments = [latency - fastest[sectors] for sectors, latency in writes]
        rows.append([label, ftl] + [
            f"{sum(i <= ms * 1e6 for i in increments) / len(increments):.1%}"
            for ms in INCREMENT_MS] + [f"{sum(increments) / len(increments) / 1e6:.2f}"])
    return rows


INCREMENT_HEADER = [f"<= {ms} ms" for ms in INCREMENT_MS] + ["mean increment ms"]


def table(header, rows):
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()


def paper_figure9():
    """LSB's GC overhead over the Superblock FTL's at 3 % free: 1 - the cut, both ends."""
    print("ftl.over_provisioning,ftl,GC overhead")
    for cut in PAPER_FIG9_CUT:
        print(f"{PAPER_FIG9_FREE},lsb,{1 - cut:.2f}")


def main():
    if sys.argv[1] == "paper":
        paper_figure9()
        return
    out, parts, workloads, free, sizes, entries, traces = sys.argv[1], *(
        a.split() for a in sys.argv[2:8])
    if "traces" in parts:
        trace_tables(out, entries, traces)
    if "stand-ins" in parts:
        stand_in_tables(out, workloads, free, sizes, entries)
    if "full-size" in parts:
        full_size_tables(out, workloads)


def trace_tables(out, entries, traces):
    print("## The bundled traces: GC and overall overhead (s), 2.5 % free, 256 MiB\n")
    rows = []
    for t in traces:
        sb, lsb = report(out, f"trace.{t}.superblock"), report(out, f"trace.{t}.lsb.16")
        total_sb, total_lsb = gc_s(sb) + translation_s(sb), gc_s(lsb) + translation_s(lsb)
        rows.append([t, str(sb["latency_ns"]["write"]["count"]), f"{gc_s(sb):.1f}",
                     f"{gc_s(lsb):.1f}", f"{1 - gc_s(lsb) / gc_s(sb):.0%}" if gc_s(sb) else "-",
                     f"{total_sb:.1f}", f"{total_lsb:.1f}",
                     f"{1 - total_lsb / total_sb:.0%}" if total_sb else "-",
                     f"{sb['waf']:.2f}", f"{lsb['waf']:.2f}",
                     f"{lsb['mapping'].get('miw_writes', 0):.0f}"])
    table(["trace", "writes", "Superblock GC s", "LSB GC s", "GC cut", "Superblock total s",
           "LSB total s", "overall cut", "Superblock WAF", "LSB WAF", "LSB MIWs"], rows)
    print("## The bundled traces: cache hit ratios\n")
    rows = []
    for t in traces:
        row = [t, f"{report(out, f'trace.{t}.superblock')['mapping']['cache_hit_ratio']:.3f}"]
        for e in entries:
            row.append(f"{report(out, f'trace.{t}.lsb.{e}')['mapping']['cache_hit_ratio']:.3f}")
        rows.append(row)
    table(["trace", "Superblock (48 entries)"] + [f"LSB {e} entries" for e in entries], rows)
    print("## The bundled traces: victims' space utilisation when erased (CDF)\n")
    rows = []
    for t in traces:
        for ftl, name in (("superblock", f"trace.{t}.superblock"), ("lsb", f"trace.{t}.lsb.16")):
            r = report(out, name)
            rows.append([t, ftl] + victim_cdf(r) + [f"{r['mapping']['forced_gcs']:.0f}"])
    table(["trace", "FTL"] + VICTIM_HEADER + ["forced GCs"], rows)


def stand_in_tables(out, workloads, free, sizes, entries):
    default = "0.025"

    print("## Figure 9: GC overhead (s) against the blocks initially free\n")
    rows = []
    for w in workloads:
        for f in free:
            sb, lsb = (report(out, f"free.{w}.{f}.{ftl}") for ftl in ("superblock", "lsb"))
            cut = 1 - gc_s(lsb) / gc_s(sb) if gc_s(sb) > 0 else 0
            rows.append([NAMES[w], f"{float(f):.1%}", f"{gc_s(sb):.1f}", f"{gc_s(lsb):.1f}",
                         f"{cut:.0%}", f"{sb['waf']:.2f}", f"{lsb['waf']:.2f}"])
    table(["workload", "free", "Superblock GC s", "LSB GC s", "LSB's reduction",
           "Superblock WAF", "LSB WAF"], rows)

    print("## Figure 10: LSB's GC overhead (s) against the superblock size, 2.5 % free\n")
    rows = []
    for w in workloads:
        for s in sizes:
            r = report(out, f"free.{w}.{default}.lsb" if s == "512" else f"size.{w}.{s}")
            erase, copy, miw = parts(r)
            total = erase + copy + miw
            rows.append([NAMES[w], s, f"{total:.1f}", f"{erase / total:.1%}" if total else "-",
                         f"{copy / total:.1%}" if total else "-",
                         f"{miw / total:.2%}" if total else "-"])
    table(["workload", "logical blocks per superblock", "GC s", "erase", "copy", "MIW"], rows)

    victim_table(out, workloads, lambda w, ftl: f"free.{w}.{default}.{ftl}",
                 "Figure 11: victims' space utilisation when erased (CDF), 2.5 % free")

    print("## Figure 12: LSB's cache hit ratio against its entries, 2.5 % free\n")
    rows = []
    for w in workloads:
        row = [NAMES[w]]
        for e in entries:
            r = report(out, f"free.{w}.{default}.lsb" if e == "16" else f"cache.{w}.{e}")
            row.append(f"{r['mapping']['cache_hit_ratio']:.3f}")
        rows.append(row)
    table(["workload"] + [f"{e} entries" for e in entries], rows)

    print("## Figure 13: overall overhead (s): GC and address translation, 2.5 % free\n")
    rows = []
    for w in workloads:
        sb, lsb = (report(out, f"free.{w}.{default}.{ftl}") for ftl in ("superblock", "lsb"))
        total_sb, total_lsb = gc_s(sb) + translation_s(sb), gc_s(lsb) + translation_s(lsb)
        rows.append([NAMES[w], f"{translation_s(sb):.1f}", f"{total_sb:.1f}",
                     f"{translation_s(lsb):.1f}", f"{total_lsb:.1f}",
                     f"{1 - total_lsb / total_sb:.0%}" if total_sb else "-",
                     f"{sb['mapping']['cache_hit_ratio']:.3f}",
                     f"{lsb['mapping']['cache_hit_ratio']:.3f}"])
    table(["workload", "Superblock translation s", "Superblock total s", "LSB translation s",
           "LSB total s", "LSB's reduction", "Superblock hit ratio", "LSB hit ratio"], rows)

    increment_table(out, workloads, lambda w, ftl: f"free.{w}.{default}.{ftl}",
                    "Figure 14: write response time increment (CDF), 2.5 % free")
    latency_table(out, workloads, lambda w, ftl: f"free.{w}.{default}.{ftl}",
                  "Figure 14: write response time (ms), 2.5 % free")


def victim_table(out, workloads, run_name, title):
    print(f"## {title}\n")
    rows = []
    for w in workloads:
        for ftl in ("superblock", "lsb"):
            r = report(out, run_name(w, ftl))
            rows.append([NAMES[w], ftl] + victim_cdf(r) + [f"{r['mapping']['forced_gcs']:.0f}"])
    table(["workload", "FTL"] + VICTIM_HEADER + ["forced GCs"], rows)


def increment_table(out, workloads, run_name, title):
    print(f"## {title}\n")
    rows = []
    for w in workloads:
        rows += increment_rows(out, NAMES[w], {ftl: run_name(w, ftl)
                                               for ftl in ("superblock", "lsb")})
    table(["workload", "FTL"] + INCREMENT_HEADER, rows)


def latency_table(out, workloads, run_name, title):
    print(f"## {title}\n")
    rows = []
    for w in workloads:
        for ftl in ("superblock", "lsb"):
            lat = report(out, run_name(w, ftl))["latency_ns"]["write"]
            rows.append([NAMES[w], ftl] + [f"{lat[p] / 1e6:.2f}"
                                            for p in ("p50", "p90", "p99", "p999", "max")] +
                        [f"{lat['mean'] / 1e6:.2f}"])
    table(["workload", "FTL", "p50", "p90", "p99", "p99.9", "max", "mean"], rows)


def full_size_tables(out, workloads):
    print("## Full size (80 GB, 3 % free): figures 9 and 13, GC and overall overhead (s)\n")
    rows = []
    for w in workloads:
        sb, lsb = (report(out, f"full.{w}.{ftl}") for ftl in ("superblock", "lsb"))
        total_sb, total_lsb = gc_s(sb) + translation_s(sb), gc_s(lsb) + translation_s(lsb)
        rows.append([NAMES[w], str(sb["latency_ns"]["write"]["count"]), f"{gc_s(sb):.1f}",
                     f"{gc_s(lsb):.1f}", f"{1 - gc_s(lsb) / gc_s(sb):.0%}" if gc_s(sb) else "-",
                     f"{total_sb:.1f}", f"{total_lsb:.1f}",
                     f"{1 - total_lsb / total_sb:.0%}" if total_sb else "-",
                     f"{sb['waf']:.2f}", f"{lsb['waf']:.2f}",
                     f"{sb['mapping']['cache_hit_ratio']:.3f}",
                     f"{lsb['mapping']['cache_hit_ratio']:.3f}",
                     f"{lsb['mapping'].get('miw_writes', 0):.0f}"])
    table(["workload", "writes", "Superblock GC s", "LSB GC s", "GC cut", "Superblock total s",
           "LSB total s", "overall cut", "Superblock WAF", "LSB WAF", "Superblock hit ratio",
           "LSB hit ratio", "LSB MIWs"], rows)
    victim_table(out, workloads, lambda w, ftl: f"full.{w}.{ftl}",
                 "Full size: figure 11, victims' space utilisation when erased (CDF)")
    increment_table(out, workloads, lambda w, ftl: f"full.{w}.{ftl}",
                    "Full size: figure 14, write response time increment (CDF)")
    latency_table(out, workloads, lambda w, ftl: f"full.{w}.{ftl}",
                  "Full size: figure 14, write response time (ms)")


if __name__ == "__main__":
    main()
