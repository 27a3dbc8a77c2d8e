// The FTL processor's primitive work, one row per primitive: what the firmware counts
// (ftl::CpuWork, the report's controller.<count>), the platform key that prices it
// (controller.cycles_per_<unit>, in CPU cycles), its default price, whether it is mapping work
// (controller.mapping_cycles), and what it is. A new primitive is one row here; the counters, the
// keys, the pricing and the report fields all follow from this list.
//
// X(count, unit, default_cycles, is_mapping, description)
#pragma once

#define SSD_CPU_PRIMITIVES(X)                                                           \
  X(table_lookups, table_lookup, 10, true, "Cycles per direct mapping-table index")     \
  X(hash_probes, hash_probe, 30, true, "Cycles per hash-table probe")                   \
  X(tree_nodes, tree_node, 40, true, "Cycles per tree-node visit")                      \
  X(list_steps, list_step, 8, true, "Cycles per linked-list step")                      \
  X(unit_merges, unit_merge, 20, true,                                                  \
    "Cycles per translation-unit merge, trim or cut (the LMT cache)")                   \
  X(flash_ops, flash_op, 200, false, "Cycles to issue one NAND command")                \
  X(dram_bytes, dram_byte, 0, false, "CPU cycles per byte the firmware copies in DRAM") \
  X(accelerator_commands, accelerator_command, 8, true,                                 \
    "CPU cycles to issue one accelerator command and read its answer")
