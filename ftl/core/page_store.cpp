#include "ftl/core/page_store.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "config/capacity.h"
#include "ftl/core/plane_balance.h"

namespace ssd::ftl {

namespace {

std::vector<UnitWriter> make_writers(FlashBackend& backend, BlockManager& blocks, OpClass op_class,
                                     uint32_t count) {
  if (count == 0 || count > PageStore::kMaxStreams) {
    throw std::invalid_argument("PageStore: " + std::to_string(count) + " write streams; 1 to " +
                                std::to_string(PageStore::kMaxStreams) + " are supported");
  }
  std::vector<UnitWriter> writers;
  writers.reserve(count);
  for (uint32_t s = 0; s < count; ++s) writers.emplace_back(backend, blocks, op_class);
  return writers;
}

std::vector<UnitWriter*> pointers(std::vector<UnitWriter>& writers) {
  std::vector<UnitWriter*> all;
  for (UnitWriter& writer : writers) all.push_back(&writer);
  return all;
}

}  // namespace

PageStore::PageStore(const config::PlatformConfig& platform, FlashBackend& backend,
                     MappingOwner& owner, FtlStats& stats, uint32_t streams, uint32_t gc_streams)
    : m_backend(backend),
      m_blocks(backend.geometry(), config::gc_reserve_blocks_per_plane(platform)),
      m_policy(make_victim_policy(platform.ftl.gc_policy)),
      m_host_writers(make_writers(backend, m_blocks, OpClass::kHostWrite, streams)),
      m_gc_writers(
          make_writers(backend, m_blocks, OpClass::kGc, gc_streams == 0 ? streams : gc_streams)),
      m_map_writer(backend, m_blocks, OpClass::kMapping),
      m_gc(backend, m_blocks, pointers(m_gc_writers), owner, *m_policy, stats,
           gc_mode(platform.ftl.gc_mode), platform.nand.copyback) {
  // Placement alone lets a plane drift past what its GC can reclaim (a small plane under random
  // overwrites); the host streams skip such a plane (plane_balance.h).
  // Every stream beyond one host and one GC stream holds an open block per plane.
  m_stream_blocks = static_cast<uint32_t>(m_host_writers.size() + m_gc_writers.size() - 2);
  const uint64_t live_limit = plane_live_limit(platform, backend.geometry(), m_stream_blocks);
  const PlacementPolicy placement = placement_policy(platform.ftl.placement);
  if (placement == PlacementPolicy::kLeastBusyDie) backend.count_programs_unrecorded(true);
  for (UnitWriter& host : m_host_writers) {
    host.set_listener(&m_gc);
    host.set_placement(placement);
    host.set_plane_live_limit(live_limit);
  }
  m_map_writer.set_listener(&m_gc);
  const Geometry& g = backend.geometry();
  m_sequenced = backend.flash().spare_words_per_page() >= spare_words(g) + recovery_spare_words(g);
  if (m_sequenced) {
    for (uint32_t s = 0; s < m_host_writers.size(); ++s) {
      m_host_writers[s].set_sequence(&m_sequence, stream_mark(StreamCodes::host(s)));
    }
    for (uint32_t s = 0; s < m_gc_writers.size(); ++s) {
      m_gc_writers[s].set_sequence(&m_sequence, stream_mark(StreamCodes::gc(s)));
    }
    m_map_writer.set_sequence(&m_sequence, stream_mark(StreamCodes::kMapWriter));
    m_gc.set_erase_guard(this);
  }
}

void PageStore::guard_old_copy(SlotId old, SlotId now) {
  const UnitWriter* old_writer = holder(old);
  // The unit's copy on flash: `old` itself, or the one `old` replaced while it waited in DRAM.
  const BlockId on_flash =
      old_writer != nullptr ? old_writer->origin(old) : m_blocks.block_of_slot(old);
  if (on_flash == kNone) return;
  if (UnitWriter* writer = holder(now)) {
    writer->set_origin(now, on_flash);  // its page's program will name it
    return;
  }
  // The write filled `now`'s page, which is programmed already, in this command.
  m_backend.note_supersedes(m_backend.program_of(geometry().page_of_slot(now)), on_flash);
}

void PageStore::before_erase(BlockId victim) {
  const uint32_t planes = geometry().planes();
  const auto close_pinning = [&](UnitWriter& writer) {
    for (uint32_t plane = 0; plane < planes; ++plane) {
      if (writer.has_origin(plane, victim)) writer.close_page(plane);
    }
  };
  for (UnitWriter& writer : m_host_writers) close_pinning(writer);
  for (UnitWriter& writer : m_gc_writers) close_pinning(writer);
  close_pinning(m_map_writer);
}

uint64_t PageStore::scan_flash(const std::function<void(Lun, SlotId, uint64_t)>& found) {
  const Geometry& g = geometry();
  const FlashArray& flash = m_backend.flash();
  const uint32_t units = g.units_per_page;
  const uint32_t spare_bytes = flash.spare_words_per_page() * 4;
  uint64_t pages_read = 0;
  uint64_t highest = 0;
  // Die by die in turn, a block of each, as firmware keeps every die busy; the timing then sees
  // the dies' reads interleaved (models/platform/power_cuts.cpp).
  for (BlockId index = 0; index < g.blocks(); ++index) {
    const BlockId block = (index % g.dies()) * g.blocks_per_die() + index / g.dies();
    if (flash.erase_torn(block)) {
      // Neither erased nor intact: nothing in it reads, and it takes no program until erased.
      m_backend.erase(block, OpClass::kMapping);
      m_backend.end_batch();
      continue;
    }
    const uint32_t programmed = flash.write_pointer(block);
    for (uint32_t p = 0; p < programmed; ++p) {
      const PageId page = g.first_page(block) + p;
      m_backend.read_spare(page, spare_bytes, OpClass::kMapping);
      ++pages_read;
      if (!flash.readable(page)) continue;  // torn: the ECC fails
      const uint32_t* spare = flash.spare(page);
      const uint64_t sequence = sequence_of(page);
      if ((sequence & kLentPageMark) != 0) {  // a layer's page: its block stays lent
        if (m_found_lent.empty() || m_found_lent.back() != block) m_found_lent.push_back(block);
        continue;
      }
      highest = std::max(highest, sequence);
      for (uint32_t u = 0; u < units; ++u) {
        if (spare[u] != kNone) found(spare[u], g.first_slot(page) + u, sequence);
      }
    }
    if (programmed > 0) m_backend.end_batch();
  }
  m_sequence = highest + 1;
  return pages_read;
}

std::vector<SlotId> PageStore::recover_table(CpuWork& cpu) {
  std::vector<SlotId> table(geometry().logical_units, kNone);
  std::vector<uint64_t> newest(table.size(), 0);
  scan_flash([&](Lun lun, SlotId slot, uint64_t sequence) {
    ++cpu.table_lookups;
    if (lun >= table.size()) return;  // mapping metadata, or nothing a scheme wrote
    if (table[lun] == kNone || sequence >= newest[lun]) {
      table[lun] = slot;
      newest[lun] = sequence;
    }
  });
  adopt(table);
  return table;
}

void PageStore::adopt(const std::vector<SlotId>& table) {
  const FlashArray& flash = m_backend.flash();
  const Geometry& g = geometry();
  m_blocks.rebuild(flash);
  for (const BlockId block : m_found_lent) {
    m_blocks.keep_lent(block);
    note_lent(g.plane_of_block(block));
  }
  m_found_lent.clear();
  // A block the cut left partly programmed goes on being written, after a torn page too (the
  // pages after it are erased): by the stream its last readable page names (the scan read that
  // page's spare), else by whichever stream needs a block on its plane first.
  for (BlockId block = 0; block < g.blocks(); ++block) {
    const uint32_t programmed = flash.write_pointer(block);
    if (programmed == 0 || programmed == g.pages_per_block ||
        m_blocks.state(block) == BlockState::kLent) {
      continue;
    }
    StreamCode code = StreamCodes::kNone;
    for (uint32_t p = programmed; p > 0; --p) {
      const PageId page = g.first_page(block) + p - 1;
      if (flash.readable(page)) {
        code = stream_of(page);
        break;
      }
    }
    continue_block(block, code);
  }
  for (const SlotId slot : table) {
    if (slot != kNone) m_blocks.add_valid(slot);
  }
}

const UnitWriter* PageStore::writer_of(StreamCode code) const {
  for (uint32_t s = 0; s < m_host_writers.size(); ++s) {
    if (code == StreamCodes::host(s)) return &m_host_writers[s];
  }
  for (uint32_t s = 0; s < m_gc_writers.size(); ++s) {
    if (code == StreamCodes::gc(s)) return &m_gc_writers[s];
  }
  return code == StreamCodes::kMapWriter ? &m_map_writer : nullptr;
}

void PageStore::continue_block(BlockId block, StreamCode code) {
  const uint32_t plane = geometry().plane_of_block(block);
  UnitWriter* writer = writer_of(code);
  if (writer != nullptr && writer->open_block(plane) == kNone) {
    m_blocks.resume(block);
    writer->resume_block(plane, block);
  } else {
    m_blocks.reopen(block);
  }
}

uint32_t PageStore::read(SlotId slot, uint32_t units, OpClass op_class, uint32_t after) {
  const Geometry& g = geometry();
  if (buffered(slot)) return m_backend.dram(false, units * g.unit_bytes, op_class, after);
  return m_backend.read(g.page_of_slot(slot), units, op_class, after);
}

void PageStore::read_units(const UnitSpan& span, const std::vector<SlotId>& table) {
  const Geometry& g = geometry();
  uint32_t i = 0;
  while (i < span.count) {
    const Lun lun = span.first + i;
    const SlotId slot = table[lun];
    if (slot == kNone) {  // never written or trimmed: reads as zeroes, no flash access
      m_backend.deliver(lun, 0);
      ++i;
      continue;
    }
    // One flash read for the run of units that sit in the same page.
    const PageId page = g.page_of_slot(slot);
    uint32_t run = 1;
    while (i + run < span.count && table[lun + run] != kNone &&
           g.page_of_slot(table[lun + run]) == page) {
      ++run;
    }
    read(slot, run, OpClass::kHostRead);
    for (uint32_t k = 0; k < run; ++k) m_backend.deliver(lun + k, token(table[lun + k]));
    i += run;
  }
}

BlockId PageStore::lend_block(uint32_t plane) {
  const BlockId block = m_blocks.lend_block(plane);
  note_lent(plane);
  return block;
}

void PageStore::note_lent(uint32_t plane) {
  if (m_lent.empty()) m_lent.assign(geometry().planes(), 0);
  if (++m_lent[plane] > m_most_lent) {
    m_most_lent = m_lent[plane];
    const uint64_t limit =
        plane_live_limit(m_blocks.gc_reserve_blocks(), geometry(), m_stream_blocks + m_most_lent);
    for (UnitWriter& host : m_host_writers) host.set_plane_live_limit(limit);
  }
}

void PageStore::take_back(BlockId block) {
  m_blocks.take_back(block);
  --m_lent[geometry().plane_of_block(block)];  // the limit stays: the layer lends another
}

uint32_t PageStore::flush() {
  // The last op of the last kind of stream that programmed anything: host, then GC, then map.
  uint32_t host = kNone;
  for (UnitWriter& writer : m_host_writers) {
    const uint32_t op = writer.close_pages();
    if (op != kNone) host = op;
  }
  uint32_t gc = kNone;
  for (UnitWriter& writer : m_gc_writers) {
    const uint32_t op = writer.close_pages();
    if (op != kNone) gc = op;
  }
  const uint32_t map = m_map_writer.close_pages();
  return map != kNone ? map : gc != kNone ? gc : host;
}

}  // namespace ssd::ftl
