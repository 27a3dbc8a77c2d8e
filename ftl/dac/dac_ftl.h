// DAC, dynamic data clustering (`--ftl dac`; M.-L. Chiang, P. C. H. Lee, R.-C. Chang, "Using Data
// Clustering to Improve Cleaning Performance for Flash Memory", Software: Practice and Experience
// 29(3), 1999): a page-mapped FTL whose flash is divided into regions of different hotness, each
// written through its own write point, so that GC victims hold data of like update frequency.
// A unit rewritten while young (soon after its last host write) moves one region hotter
// (promotion); a rewrite that is not young stays in its region; a unit GC copies out of a victim
// moves one region colder (demotion). Region 0 is the coldest; new data start in
// ftl.dac.first_region. The mapping table is page mapping's (one entry per unit in DRAM), with a
// region number and a last-write stamp per unit beside it.
//
// Not modelled: the paper's adaptive cleaner (its victim selection is the platform's
// ftl.gc_policy) and its wear levelling. The mapping and per-unit metadata stay volatile (a flush
// programs the open pages only): after a power cut the table is rebuilt from the spare areas and
// the regions start over (recovered()). Where the paper was not at hand the choices are documented
// in docs/schemes.md ("DAC") and in the settings (dac_settings.h).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "ftl/core/block_lender.h"
#include "ftl/core/mapping_scheme.h"
#include "ftl/core/page_store.h"

namespace ssd::ftl {

class DacFtl final : public MappingScheme, public BlockLender, private MappingOwner {
 public:
  explicit DacFtl(const SchemeContext& context);
  // Rebuilt after a power cut: the table from the spare areas as page mapping's (each unit's copy
  // the one in the page with the highest program sequence); every unit restarts in the first
  // region with an old stamp (docs/schemes.md, DAC, "Power loss").
  static std::unique_ptr<DacFtl> recovered(const SchemeContext& context);

  void read(const HostCommand& command) override;
  void write(const HostCommand& command) override;
  // The store's bulk layout in the first region's stream (PageStore::fill_sequential), each unit
  // new data there with its stamp, as write() would leave it; write() itself for the rest.
  bool fill_sequential(const SequentialFill& fill) override;
  // Sampled aging (ftl/core/sampled_aging.h): the store's planes, and per valid slot its unit's
  // region and age (host unit writes since its last one). Laid out, each unit takes the region
  // of the slot it lands in and its age scaled by the device's units over the miniature's, so
  // the young threshold divides the units as it did in the miniature (docs/schemes.md, DAC).
  bool describe_aged_planes(AgedPlanes& planes) const override;
  bool lay_out_aged(const AgedLayout& layout) override;
  void expect_random_work() override;
  void trim(const HostCommand& command) override;
  void flush(const HostCommand& command) override;

  const FtlStats& stats() const override { return m_stats; }
  // Page mapping's table plus, per unit, the region and the last-write stamp
  // (metadata_bits_per_unit()), packed.
  uint64_t mapping_memory_bytes() const override;
  std::vector<MappingFigure> mapping_figures() const override;

  // The controller's per-unit metadata beside the table: ceil(log2(regions)) bits of region and
  // a 32-bit stamp of the host-write clock (both 0 with one region, which needs neither).
  static uint32_t metadata_bits_per_unit(uint32_t regions);
  // GC streams the store needs: region r's copies go to region r - 1 (region 0's stay there),
  // so the hottest region never receives GC copies.
  static uint32_t gc_streams(uint32_t regions) { return regions > 1 ? regions - 1 : 1; }
  // ftl.dac.young_writes, 0 resolved to a quarter of the logical units (at least 1).
  static uint64_t young_threshold(uint64_t young_writes, uint64_t logical_units);

  uint32_t regions() const { return m_regions; }
  uint64_t young_writes() const { return m_young; }
  SlotId slot_of(Lun lun) const { return m_l2p[lun]; }
  // The region `lun` was last written or demoted into (meaningful while it is mapped).
  uint32_t region_of(Lun lun) const { return m_region[lun]; }
  // Host unit writes since `lun` was last written (0 with one region, which keeps no stamps).
  uint32_t age_of(Lun lun) const { return m_regions > 1 ? m_clock - m_stamp[lun] : 0; }
  const PageStore& store() const { return m_store; }
  // Blocks for the sector log's data region (ftl/sector_log/).
  BlockId lend_block(uint32_t plane) override { return m_store.lend_block(plane); }
  void take_back(BlockId block) override { m_store.take_back(block); }
  uint64_t promotions() const { return m_promotions; }
  uint64_t demotions() const { return m_demotions; }
  const std::vector<uint64_t>& host_units_by_region() const { return m_host_units; }
  const std::vector<uint64_t>& gc_units_by_region() const { return m_gc_units; }

 private:
  bool maps(Lun lun, SlotId slot) const override { return m_l2p[lun] == slot; }
  uint32_t relocation_stream(Lun lun) const override {
    return m_region[lun] > 0 ? m_region[lun] - 1u : 0u;
  }
  void relocate(Lun lun, SlotId from, SlotId to) override;
  void prefetch(Lun lun) const override { __builtin_prefetch(&m_l2p[lun]); }

  FlashBackend& m_backend;
  const Geometry& m_geometry;
  FtlStats m_stats;
  uint32_t m_regions;
  uint32_t m_first_region;
  uint64_t m_young;
  std::vector<SlotId> m_l2p;      // kNone = unmapped
  std::vector<uint8_t> m_region;  // per unit
  std::vector<uint32_t> m_stamp;  // per unit: m_clock at its last host write
  uint32_t m_clock = 0;           // host unit writes, wrapping as a controller's 32-bit counter
  PageStore m_store;
  uint32_t m_entry_bytes;     // of the table
  uint32_t m_metadata_bytes;  // DRAM touched per unit for its region and stamp
  uint64_t m_promotions = 0;
  uint64_t m_demotions = 0;
  std::vector<uint64_t> m_host_units;  // host units written into each region
  std::vector<uint64_t> m_gc_units;    // units GC copied into each region
};

}  // namespace ssd::ftl
