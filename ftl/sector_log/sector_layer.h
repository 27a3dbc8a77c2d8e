// The sector layer (shared/papers/sector-log.md): between the host and a page-granular scheme,
// the DRAM write buffer (ftl/cache/cache_lines.h) and, when ftl.sector_log.size_bytes > 0, the
// sector log (sector_log.h). It turns host commands of any sector range into whole-page commands
// for the scheme below (a "page" here is the scheme's mapping unit):
//   write: into the buffer (a hit merges); a buffer victim with every sector written goes to the
//          scheme whole, one with some goes to the sector log, or, without a log, to the scheme
//          as a read-modify-write. Without a buffer, writes take that path at once.
//   read:  each sector from the newest place that holds it (buffer, log, scheme); the scheme's
//          page is read only when the layer does not hold every sector asked for.
//   flush: the buffer written down, the log's page buffer programmed, then the scheme's flush.
//   trim:  whole pages forgotten everywhere, then trimmed below.
// DRAM: the buffer holds as many pages as ftl.write_buffer.bytes leaves beside the sector map
// and page buffer (the paper shares 64 MB between them); it shrinks as the map grows, and when the
// map alone would not fit, the log cleans its tail block early.
//
// Content: the layer keeps data by sector, so content tokens are sector-granular
// (content_token.h) and the oracle checks sectors. To merge sectors into the scheme's copy of a
// page, whose token sums all its sectors, the layer must know what that copy holds under the
// sectors it replaces: SectorShadow records it from the oracle when a sector first enters the
// layer (simulation bookkeeping standing in for the bytes a real controller reads back; it is not
// counted as controller memory). A merge with the wrong copy, or a sector from the wrong place,
// still gives a token the oracle did not compute.
//
// Power loss (docs/power-loss.md): the buffer is DRAM, so a cut loses what only it held (a flush
// drains it: victims to the log or the scheme, the log's page buffer programmed, then the
// scheme's flush, all before the flush completes). The log's pages carry what a recovery needs
// (sector_log.h, "Power loss"); after a cut the scheme recovers first, then the layer rebuilds
// the log, its map and the shadows of the pages it keeps sectors of (SectorLayer with
// Start::kAfterCut). While power may be cut a sub-page victim of a page the scheme does not map
// (never written, or trimmed) is written whole below instead of logged: logged sectors patch a
// copy below, and a trimmed page's old copy may come back after a cut (trims are not durable),
// which a sector logged over nothing would not be told apart from.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "ftl/cache/cache_lines.h"
#include "ftl/core/block_lender.h"
#include "ftl/core/mapping_scheme.h"
#include "ftl/core/oracle.h"
#include "ftl/core/token_pool.h"
#include "ftl/sector_log/lower_scheme.h"
#include "ftl/sector_log/sector_log.h"

namespace ssd::ftl {

struct SectorLayerCounts {
  uint64_t host_writes = 0;          // host write commands' pages (one per page touched)
  uint64_t host_subpage_writes = 0;  // ... that covered part of the page
  uint64_t buffer_hits = 0;          // pages written that the buffer held already
  uint64_t buffer_evictions = 0;
  uint64_t ftl_page_reads = 0;        // pages read from the scheme below (host reads, merges)
  uint64_t ftl_page_writes = 0;       // pages written to the scheme below
  uint64_t merge_reads = 0;           // ... reads of them made to merge sectors into a page
  uint64_t subpage_down = 0;          // sub-page pages written down (buffer victims, or host)
  uint64_t subpage_down_sectors = 0;  // ... their sectors
  uint64_t reads_from_layer = 0;      // pages a host read served without the scheme
};

class SectorLayer final : public MappingScheme, private SectorLog::MergeSink {
 public:
  // Wraps `below`, which lends blocks through `lender` and answers `lower` (the same object).
  // kAfterCut: `below` was just recovered from a power cut, and the layer recovers over it.
  enum class Start { kFresh, kAfterCut };
  SectorLayer(const SchemeContext& context, std::unique_ptr<MappingScheme> below,
              BlockLender& lender, std::unique_ptr<LowerScheme> lower, Start start = Start::kFresh);

  void read(const HostCommand& command) override;
  void write(const HostCommand& command) override;
  void trim(const HostCommand& command) override;
  void flush(const HostCommand& command) override;

  // The scheme's, less what a recovery's merges made it do (recovery work, not GC).
  const FtlStats& stats() const override;
  // The scheme's mapping plus the sector map (the buffer's data pages are not mapping).
  uint64_t mapping_memory_bytes() const override;
  std::optional<double> cache_hit_ratio() const override { return m_below->cache_hit_ratio(); }
  std::vector<MappingFigure> mapping_figures() const override;
  // The layer's counts restart (the peaks of DRAM and map memory do not).
  void start_measuring() override;

  const MappingScheme& below() const { return *m_below; }
  const CacheLines& buffer() const { return m_buffer; }
  const SectorLog* log() const { return m_log ? &*m_log : nullptr; }
  const SectorLayerCounts& counts() const { return m_counts; }
  // Pages the buffer may hold now, and the DRAM the layer uses (buffer + map + page buffer).
  uint64_t buffer_capacity_pages() const;
  uint64_t dram_bytes() const;
  uint64_t peak_dram_bytes() const { return m_peak_dram; }

 private:
  // What the scheme's copy of a page holds under the sectors the layer holds of it, and that
  // copy's token.
  struct Shadow {
    uint32_t tokens;  // TokenPool index: per sector of the unit
    uint64_t known;   // sectors recorded
    Token base;       // the copy's content token (0: none)
  };

  void merge_to_ftl(Lun lpn, uint64_t sectors, const Token* tokens) override;
  Token copy_token(Lun lpn) const override;
  Token copy_token_under(Lun lpn, uint32_t sector) const override;
  void flush_below() override;
  void recovered_sector(Lun lpn, uint32_t sector, Token under) override;
  // The layer after a cut: the log rebuilt over the recovered scheme, the counts afresh.
  void recover();
  // Takes the least recently used page out of the buffer and writes it down.
  void evict_oldest();
  // The buffer's way down for a victim, and the path writes take without a buffer.
  void write_down(Lun lpn, uint64_t sectors, const Token* tokens);
  // Writes `lpn` whole below with `token`.
  void write_page_below(Lun lpn, Token token);
  // Reads `lpn` whole from below (the scheme records a host read, merges' included); returns
  // its token.
  Token read_page_below(Lun lpn);
  // Records, for sectors of `lpn` the layer did not hold, what the scheme's copy has there.
  void note_entering(Lun lpn, uint64_t sectors);
  // The scheme's copy of `lpn` now holds `tokens` on `sectors`, and `copy` in all (a merge
  // wrote it).
  void note_written_below(Lun lpn, uint64_t sectors, const Token* tokens, Token copy);
  // The shadow of `lpn`, made empty over the scheme's current copy when absent.
  Shadow& shadow_of(Lun lpn);
  // Forgets the shadow of `lpn` once the layer holds none of its sectors.
  void prune_shadow(Lun lpn);
  Token shadow_sum(Lun lpn, uint64_t sectors) const;
  uint64_t held_uncounted(Lun lpn) const;
  // Evicts buffer pages (and cleans log blocks) until the layer fits its DRAM.
  void fit_dram();
  void take_map_work();

  FlashBackend& m_backend;
  const Geometry& m_geometry;
  const Oracle* m_oracle;
  std::unique_ptr<MappingScheme> m_below;
  std::unique_ptr<LowerScheme> m_lower;
  uint64_t m_dram_budget;  // 0: no buffer, no limit
  CacheLines m_buffer;     // the write buffer: a line per page, a slot per sector, all dirty
  std::optional<SectorLog> m_log;
  TokenPool m_shadow_tokens;
  std::unordered_map<Lun, Shadow> m_shadow;
  std::vector<Token> m_tokens;  // scratch: one unit's sector tokens
  CacheLines::Victim m_victim;  // scratch: the page being evicted
  SectorLayerCounts m_counts;
  uint64_t m_peak_dram = 0;
  bool m_power_safe = false;  // the log's pages carry what a recovery needs
  FtlStats m_recovery_stats;  // the scheme's, as the layer's recovery left them
  mutable FtlStats m_stats;   // stats(): the scheme's less m_recovery_stats
};

}  // namespace ssd::ftl
