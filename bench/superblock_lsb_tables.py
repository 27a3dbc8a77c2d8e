#!/usr/bin/env python3
"""Prints the tables of docs/results/superblock-lsb.md from bench/run-superblock-lsb's reports.

Usage: superblock_lsb_tables.py OUT_DIR PARTS WORKLOADS FREE SIZES ENTRIES TRACES (space-separated
lists; PARTS: stand-ins and/or traces).
GC overhead is the LSB paper's: erases x tBERS + pages copied x (tR + tPROG), the MIW copies
among the copies; address translation is spare-area reads x tSPARE (platforms/k9k4g08-80gb.toml).
"""
import json
import os
import sys

T_ERASE_US, T_READ_US, T_PROG_US, T_SPARE_US = 2000.0, 88.0, 263.0, 28.0
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


def table(header, rows):
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()


def main():
    out, parts, workloads, free, sizes, entries, traces = sys.argv[1], *(
        a.split() for a in sys.argv[2:8])
    if "traces" in parts:
        trace_tables(out, entries, traces)
    if "stand-ins" in parts:
        stand_in_tables(out, workloads, free, sizes, entries)


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

    print("## Figure 11: victims' never-programmed pages when erased, 2.5 % free\n")
    rows = []
    for w in workloads:
        sb, lsb = (report(out, f"free.{w}.{default}.{ftl}") for ftl in ("superblock", "lsb"))
        rows.append([NAMES[w], f"{sb['mapping']['victim_free_pages_mean']:.2f}",
                     f"{sb['mapping']['forced_gcs']:.0f}",
                     f"{lsb['mapping']['victim_free_pages_mean']:.2f}"])
    table(["workload", "Superblock: mean free pages", "Superblock: forced GCs",
           "LSB: mean free pages"], rows)

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

    print("## Figure 14: write response time (ms), 2.5 % free\n")
    rows = []
    for w in workloads:
        for ftl in ("superblock", "lsb"):
            lat = report(out, f"free.{w}.{default}.{ftl}")["latency_ns"]["write"]
            rows.append([NAMES[w], ftl] + [f"{lat[p] / 1e6:.2f}"
                                            for p in ("p50", "p90", "p99", "p999", "max")] +
                        [f"{lat['mean'] / 1e6:.2f}"])
    table(["workload", "FTL", "p50", "p90", "p99", "p99.9", "max", "mean"], rows)


if __name__ == "__main__":
    main()
