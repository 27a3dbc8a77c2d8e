// The host-side data cache in controller DRAM (docs/cache.md): between the host interface and the
// mapping scheme, the same for every scheme. Lines of `cache.line_bytes` (whole mapping units),
// least recently used out, at most `cache.capacity_bytes` of them.
//
//   read:  units the cache holds are served from DRAM (no flash access); the others are read
//          from the scheme in runs and, with cache.read_caching, kept as clean lines.
//   write: write_through: to the scheme as without a cache, the cache's copy updated (clean).
//          write_back: into DRAM, acknowledged there; the line is dirty. A write that covers part
//          of a unit the cache does not hold reads the unit from the scheme first (a fill), so
//          lines always hold whole units. Dirty lines go to the scheme (whole units, with their
//          content tokens: HostCommand::unit_tokens) when the least recently used line must make
//          room (in the write's foreground: a full cache makes writes wait for write-back), when
//          more than cache.dirty_high_watermark of the lines are dirty (behind the host, down to
//          cache.dirty_low_watermark), on a flush (every dirty line) and on a FUA write (its own).
//   read-ahead (cache.read_ahead_bytes): a read that begins at the sector where the one before
//          ended continues a run (one stream, as SimpleSSD's sequential detector: interleaved
//          streams do not trigger it); the read that makes cache.read_ahead_trigger of them in a
//          row, and every read of the run after it, keeps read_ahead_bytes beyond its end in the
//          cache: what is not held yet from where read-ahead stopped to that point is read from
//          the scheme behind the host (FlashOp::background, at host-read priority) and kept
//          clean. A later read hit on it waits until its data has landed
//          (FlashBackend::note_frame_loaded).
//   trim:  the units it covers whole are forgotten, then the scheme trims.
//   flush: every dirty line written back, then the scheme's flush.
//
// Timing (models/controller/): the operations of a watermark write-back are background
// (FlashOp::background): the command completes without them. A line's frame (its slice of DRAM)
// holds its data until its write-back completes; new data waits for that (FlashBackend frame
// notes), which is what holds the host back once write-back falls behind.
//
// Power: the cache is DRAM. A cut loses what only it held; a flush (or FUA) makes the data
// durable as without a cache.
#pragma once

#include <cstdint>
#include <vector>

#include "config/platform_config.h"
#include "ftl/cache/cache_lines.h"
#include "ftl/core/flash_backend.h"
#include "ftl/core/geometry.h"
#include "ftl/core/host_command.h"
#include "ftl/core/mapping_scheme.h"

namespace ssd::ftl {

struct CacheCounts {
  uint64_t read_hit_units = 0;   // units host reads found in the cache
  uint64_t read_miss_units = 0;  // ... read from the scheme
  uint64_t write_hit_units = 0;  // units host writes found in the cache
  uint64_t write_miss_units = 0;
  uint64_t fill_units = 0;        // units read from the scheme to complete a partial-unit write
  uint64_t evicted_lines = 0;     // lines evicted to make room
  uint64_t dirty_evictions = 0;   // ... that were dirty: written back in the foreground
  uint64_t write_back_units = 0;  // units written back, for any reason
  uint64_t background_write_back_units = 0;  // ... at the dirty watermark, behind the host
  uint64_t flush_write_back_units = 0;       // ... by a flush or a FUA write
  uint64_t peak_lines = 0;
  uint64_t peak_dirty_lines = 0;
  uint64_t read_ahead_units = 0;      // units read from the scheme ahead of the host
  uint64_t read_ahead_hit_units = 0;  // ... that a host read then found in the cache
};

class DataCache {
 public:
  // Host memory a full cache of the platform's takes (none with cache.mode off): its lines'
  // records, and the controller's free time per frame (models/controller). What
  // ftl::simulator_bytes() adds for it.
  static uint64_t simulator_bytes(const config::PlatformConfig& platform, const Geometry& geometry);

  DataCache(const config::PlatformConfig& platform, const Geometry& geometry,
            FlashBackend& backend);

  // Serves `command` through the cache, `scheme` below. A FUA write is written back here (its
  // own units); the caller then runs the scheme's flush (FtlDevice::run).
  void execute(const HostCommand& command, MappingScheme& scheme);

  // The controller's view of when each frame frees (the timed platform's); nullptr: none.
  void set_frame_clock(const FrameClock* clock) {
    m_clock = clock;
    m_lines.set_frame_clock(clock);
  }

  // The power went off: DRAM is gone.
  void clear();
  // The timed run starts: the counts restart (the peaks too).
  void start_measuring();

  const CacheCounts& counts() const { return m_counts; }
  uint64_t capacity_lines() const { return m_capacity_lines; }
  uint64_t line_bytes() const { return uint64_t{m_units_per_line} * m_geometry.unit_bytes; }
  uint64_t lines() const { return m_lines.lines(); }
  uint64_t dirty_lines() const { return m_lines.dirty_lines(); }
  // The units of `lun`'s line the cache holds, and the dirty ones (tests).
  bool holds(Lun lun) const;
  bool holds_dirty(Lun lun) const;

 private:
  void read(const HostCommand& command, MappingScheme& scheme);
  void write(const HostCommand& command, MappingScheme& scheme);
  void trim(const HostCommand& command, MappingScheme& scheme);
  // Writes back every dirty line (a flush), or those `command` touches (a FUA write).
  void write_back_all(MappingScheme& scheme);
  void write_back_range(const HostCommand& command, MappingScheme& scheme);

  // Reads units [first, first + count) from the scheme (their tokens in m_read_tokens) and, with
  // read caching, keeps them clean. Read ahead: the units are not the command's (taken back from
  // what it delivers), and each line's data is noted as loaded behind the host.
  void read_below(Lun first, uint32_t count, MappingScheme& scheme, bool keep, bool ahead = false);
  // Follows the run of sequential reads `command` may continue and, once it triggers, reads
  // ahead of it (behind the host).
  void read_ahead(const HostCommand& command, MappingScheme& scheme);
  // The token `lun` holds below (a fill read, recorded as a host write's read-modify-write).
  Token fill_from_below(Lun lun, MappingScheme& scheme);
  // Puts `slots` of `line` into the cache (a new line may first evict the oldest) and records the
  // DRAM write that brings the data in, after `after`.
  void put(uint64_t line, uint64_t slots, const Token* tokens, bool dirty, OpClass op_class,
           MappingScheme& scheme, uint32_t after = kNone);
  // Writes the dirty units of `victim` to the scheme, whole units with their tokens, in runs of
  // consecutive units, and notes which operations its frame's data waits for.
  void write_back(const CacheLines::Victim& victim, MappingScheme& scheme);
  // Background write-back while more lines are dirty than the high watermark allows.
  void write_back_behind(MappingScheme& scheme);
  // When every free frame is still being written back from, gives new data the least recently
  // used line's frame instead, if that line is clean, is not `keep`, and its frame is free now.
  void free_a_ready_frame(uint64_t keep);
  void note_peaks();
  uint32_t bytes_of(uint64_t slots) const;

  const Geometry& m_geometry;
  FlashBackend& m_backend;
  bool m_write_back;
  bool m_read_caching;
  uint32_t m_units_per_line;
  uint64_t m_capacity_lines;
  uint64_t m_dirty_high;  // lines
  uint64_t m_dirty_low;   // lines
  uint64_t m_read_ahead_units;
  uint32_t m_read_ahead_trigger;
  // The run of sequential reads: the sector the next read must begin at to continue it, how many
  // reads in a row have, and the unit read-ahead has reached.
  uint64_t m_run_next_sector = ~uint64_t{0};
  uint32_t m_run_reads = 0;
  Lun m_read_ahead_end = 0;
  CacheLines m_lines;
  const FrameClock* m_clock = nullptr;
  CacheCounts m_counts;
  CacheLines::Victim m_victim;         // scratch
  std::vector<Token> m_line_tokens;    // scratch: one line's tokens by slot
  std::vector<Token> m_read_tokens;    // scratch: tokens read from below
  std::vector<uint32_t> m_hit_frames;  // scratch: the frames a read's hits read
};

}  // namespace ssd::ftl
