#!/usr/bin/env python3
"""The two tables of bench/run-mqsim-compare (docs/results/mqsim-compare.md).

runs:     one row per run from its report.json and its /usr/bin/time file ("%e %M").
defaults: MQSim's defaults beside ours. MQSim's values are copied by hand from MQSim at commit
          7ec40e3 (2022-10-05): ssdconfig.xml and workload.xml as bundled, and where the xml
          leaves a parameter out or differs, the built-in default of src/exec/
          Device_Parameter_Set.cpp, Flash_Parameter_Set.cpp or Host_Parameter_Set.cpp. Ours come
          from the platform file, else from the default column of docs/configuration.md, so a
          changed platform or default shows here without editing this file.

Usage: mqsim_compare_tables.py --out DIR --platform TOML --config-doc MD --cache-capacity N
       --cache-line-bytes N --cache-read-caching B --cache-rows on|off NAME|CASE|CACHE ...
"""
import argparse
import json
import re
import sys
import tomllib


def run_rows(out, runs):
    print("| case | cache | requests | IOPS | latency mean / p50 / p99 (us) | process wall (s) "
          "| timed wall (s) | precondition wall (s) | peak RSS (MiB) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for run in runs:
        name, case, cache = run.split("|", 2)
        report = json.load(open(f"{out}/{name}/report.json"))
        process_wall_s, _max_rss_kib = open(f"{out}/{name}.time").read().split()[:2]
        kind = "read" if report["requests"]["read"] else "write"
        lat = report["latency_ns"][kind]
        requests = report["requests"]["read"] + report["requests"]["write"]
        print(f"| {case} | {cache} | {requests:,} | {report['iops']:,.0f} "
              f"| {lat['mean'] / 1e3:.1f} / {lat['p50'] / 1e3:.1f} / {lat['p99'] / 1e3:.1f} "
              f"| {float(process_wall_s):.2f} | {report['sim']['wall_s']:.2f} "
              f"| {report['precondition']['wall_s']:.2f} | {report['sim']['peak_rss_mb']:.0f} |")


def documented_defaults(path):
    """key -> default text, from the rows `| `key` | type | unit | `default` | ... |`."""
    defaults = {}
    row = re.compile(r"^\| `([a-z_]+\.[a-z_.]+)` \| [^|]* \| [^|]* \| `([^`]*)` \|")
    for line in open(path):
        m = row.match(line)
        if m:
            defaults[m.group(1)] = m.group(2).strip('"')
    return defaults


def ours(platform, defaults, key):
    """The platform's value of section.key, else the documented default (marked)."""
    section, _, name = key.partition(".")
    if name in platform.get(section, {}):
        value = platform[section][name]
        return f"`{key}` = {value}"
    if key in defaults:
        return f"`{key}` = {defaults[key]} (default)"
    sys.exit(f"mqsim_compare_tables.py: no value for {key} in the platform or "
             f"docs/configuration.md")


def defaults_rows(args):
    p = tomllib.load(open(args.platform, "rb"))
    d = documented_defaults(args.config_doc)
    o = lambda key: ours(p, d, key)
    lane_gb_s = p["host"]["pcie_gt_s"] * 128 / 130 / 8
    cache_on = args.cache_rows == "on"
    cache_mib = args.cache_capacity // 1048576

    def cache_key(key, value):
        return f"`{key}` = {value} (cache-on rows)" if cache_on else "no data cache yet"

    dev, flash, host = ("Device_Parameter_Set.cpp", "Flash_Parameter_Set.cpp",
                        "Host_Parameter_Set.cpp")
    rows = [
        ("Flash_Channel_Count", "8 (xml)", o("nand.channels")),
        ("Chip_No_Per_Channel", "4 (xml)", o("nand.chips_per_channel")),
        ("Die_No_Per_Chip", "2 (xml)", o("nand.dies_per_chip")),
        ("Plane_No_Per_Die", "2 (xml)", o("nand.planes_per_die")),
        ("Block_No_Per_Plane", "2048 (xml)", o("nand.blocks_per_plane")),
        ("Page_No_Per_Block", "256 (xml)", o("nand.pages_per_block")),
        ("Page_Capacity", "8192 B (xml)", o("nand.page_bytes")),
        ("Page_Metadat_Capacity", f"448 B (xml; {flash}: 1872)", o("nand.spare_bytes")),
        ("Channel_Transfer_Rate", f"333 MT/s (xml; {dev}: 300)", o("nand.channel_mt_s")),
        ("Flash_Channel_Width", "1 B (xml)", o("nand.channel_width_bytes")),
        ("Page_Read_Latency_LSB/CSB/MSB", "75000 ns (xml, same in source)", o("nand.t_read_us")),
        ("Page_Program_Latency_LSB/CSB/MSB", "750000 ns (xml, same in source)",
         o("nand.t_program_us")),
        ("Block_Erase_Latency", "3800000 ns (xml)", o("nand.t_erase_us")),
        ("Address_Mapping, CMT_Capacity", "PAGE_LEVEL, 2 MiB cached map (xml)",
         o("ftl.scheme") + ", whole map in DRAM"),
        ("Overprovisioning_Ratio", "0.07 (xml)", o("ftl.over_provisioning")),
        ("GC_Exec_Threshold", "0.05 (xml)", o("ftl.gc_threshold")),
        ("GC_Block_Selection_Policy", "RGA (xml)", o("ftl.gc_policy")),
        ("Preemptible_GC_Enabled", f"false (xml; {dev}: true)", o("ftl.gc_mode")),
        ("Use_Copyback_for_GC", "false (xml)", o("nand.copyback")),
        ("Plane_Allocation_Scheme", "CWDP (xml)", o("ftl.placement")),
        ("Transaction_Scheduling_Policy", "PRIORITY_OUT_OF_ORDER (xml)",
         o("nand.die_scheduling")),
        ("multi-plane commands", "formed whenever pages line up (src/ssd/TSU_Base.cpp)",
         o("nand.multiplane")),
        ("IO_Queue_Depth", f"65535 (xml; {dev}: 1024)", o("host.max_queue_depth")),
        ("PCIe_Lane_Count", "4 (xml)", o("host.pcie_lanes")),
        ("PCIe_Lane_Bandwidth", f"1.0 GB/s (xml; {host}: 0.4)",
         o("host.pcie_gt_s") + f" GT/s, 128b/130b: {lane_gb_s:.3f} GB/s"),
        ("firmware (FTL CPU) time", "not modelled", o("controller.cpu_mhz") + " MHz"),
        ("Caching_Mechanism", "ADVANCED (xml, same in source)",
         cache_key("cache.mode", "write_back")),
        ("Device_Level_Data_Caching_Mode", "WRITE_CACHE (workload.xml, every flow)",
         cache_key("cache.read_caching", args.cache_read_caching)),
        ("Data_Cache_Sharing_Mode", "SHARED (xml)", "one cache (one host stream)"),
        ("Data_Cache_Capacity", f"256 MiB (xml; {dev}: 512 MiB)",
         cache_key("cache.capacity_bytes", f"{args.cache_capacity} ({cache_mib} MiB)")),
        ("cache slot", "one logical page, 8192 B, sector bitmap (src/ssd/Data_Cache_Flash.cpp)",
         cache_key("cache.line_bytes", args.cache_line_bytes)),
        ("Data_Cache_DRAM_Row_Size", "8192 B (xml)", "no DRAM rows"),
        ("Data_Cache_DRAM_Data_Rate x Busrt_Size", f"100 MT/s x 1 B: 200 MB/s by its formula "
         f"(xml; {dev}: 800 x 4, 6400 MB/s)", o("dram.bandwidth_mb_s") + " MB/s"),
        ("Data_Cache_DRAM_tRCD / tCL / tRP", "13 / 13 / 13 ns (xml)",
         o("dram.read_latency_ns") + " ns, no tRP"),
        ("Enabled_Preconditioning", f"false (xml; {dev}: true)",
         "`precondition.fill_ratio` = 1.0 (this experiment)"),
        ("Initial_Occupancy_Percentage", "75 (workload.xml)", "100 (fill_ratio 1.0)"),
    ]
    print("| parameter | MQSim | ours |")
    print("|---|---|---|")
    for name, mqsim, our in rows:
        print(f"| {name} | {mqsim} | {our} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--platform", required=True)
    ap.add_argument("--config-doc", required=True)
    ap.add_argument("--cache-capacity", type=int, required=True)
    ap.add_argument("--cache-line-bytes", type=int, required=True)
    ap.add_argument("--cache-read-caching", required=True)
    ap.add_argument("--cache-rows", choices=["on", "off"], required=True)
    ap.add_argument("runs", nargs="+")
    args = ap.parse_args()
    print("### Runs\n")
    run_rows(args.out, args.runs)
    print("\n### MQSim's defaults beside ours\n")
    defaults_rows(args)


if __name__ == "__main__":
    main()
