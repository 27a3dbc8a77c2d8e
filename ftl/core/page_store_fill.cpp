// PageStore::fill_sequential: the layout a sequential fill gets, written at memory speed.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "ftl/core/page_store.h"

namespace ssd::ftl {

namespace {

// Whether the stripe's own plane wins every choice of a fill (page_store.h): placement by the
// stripe, and with least_busy_die every die equal in what the choice compares (untimed, nothing
// the fill does changes it).
bool stripe_decides(const UnitWriter& writer, const FlashBackend& backend) {
  if (writer.placement() == PlacementPolicy::kStatic) return false;
  if (writer.placement() != PlacementPolicy::kLeastBusyDie) return true;
  const DieLoad* load = backend.die_load();
  const uint32_t dies = backend.geometry().dies();
  for (uint32_t die = 1; die < dies; ++die) {
    if (backend.programs_in_command(die) != backend.programs_in_command(0)) return false;
    if (load && load->work_ends(die) != load->work_ends(0)) return false;
  }
  return true;
}

}  // namespace

uint64_t PageStore::fill_sequential(uint64_t units, SlotId* table,
                                    const std::function<Token(Lun)>& token, uint32_t stream,
                                    std::vector<FillInsert>* inserts, uint32_t chunk_pages) {
  const Geometry& g = geometry();
  FlashArray& flash = m_backend.flash();
  UnitWriter& writer = m_host_writers.at(stream);
  const uint32_t planes = g.planes();
  const uint32_t upp = g.units_per_page;
  std::vector<FillInsert> none;
  std::vector<FillInsert>& between = inserts != nullptr ? *inserts : none;
  for (FillInsert& insert : between) insert.slot = kNone;
  // A plane takes `c` pages at each visit of the stripe: whole chunks only.
  const uint32_t c = std::max(chunk_pages, 1u);
  const uint64_t chunks = (units + between.size()) / upp / c;
  const uint64_t pages = chunks * c;
  if (pages == 0 || flash.journal_on() || writer.sequenced() || !writer.fresh() ||
      !m_blocks.untouched() || !stripe_decides(writer, m_backend) || (c > 1 && !between.empty())) {
    return 0;
  }
  // Pages on stripe position s, and what the plane must hold for the stripe to keep deciding:
  // within the live limit with its last page, and never below GC's reserve or the blocks GC
  // keeps (GarbageCollector::before_new_page; no guard without sequence numbers).
  const auto pages_at = [&](uint32_t s) {
    return (chunks / planes + (s < chunks % planes ? 1 : 0)) * c;
  };
  const uint64_t limit = writer.plane_live_limit();
  const uint32_t keep =
      std::max<uint32_t>(m_blocks.gc_reserve_blocks(), static_cast<uint32_t>(m_gc_writers.size()));
  for (uint32_t s = 0; s < planes; ++s) {
    const uint64_t at = pages_at(s);
    const uint64_t blocks = (at + g.pages_per_block - 1) / g.pages_per_block;
    if (limit != 0 && at * upp > limit) return 0;
    if (blocks + keep > g.blocks_per_plane) return 0;
  }

  // The stream holds the data units in order with the inserts among them: insert j at stream
  // position before + j. The bulk pages hold stream positions 0 .. pages * upp - 1.
  const uint64_t stream_units = pages * upp;
  const auto position = [&](size_t j) { return between[j].before + j; };
  size_t consumed = 0;
  while (consumed < between.size() && position(consumed) < stream_units) ++consumed;
  const uint64_t data_units = stream_units - consumed;

  // Chunk k: stripe position s = k % planes, the plane's pages q = (k / planes) * c + i for i < c,
  // in its q / ppb-th block (a plane's blocks are numbered together and taken in order). The
  // table in unit order, then the flash plane by plane: both passes write memory front to back
  // (planes lie megabytes apart, and a pass over them all at once would miss the cache on every
  // page).
  std::vector<PageId> first_page(planes);
  for (uint32_t s = 0; s < planes; ++s) {
    first_page[s] = g.first_page(g.plane_in_stripe_order(s) * g.blocks_per_plane);
  }
  constexpr uint64_t kNoInsert = ~uint64_t{0};
  const auto position_or_none = [&](size_t j) { return j < consumed ? position(j) : kNoInsert; };
  SlotId* entry = table;
  size_t next_insert = 0;
  uint64_t next_at = position_or_none(0);
  // A chunk's pages lie one after the other on its plane, so its units take consecutive slots.
  const uint64_t chunk_units = uint64_t{c} * upp;
  uint64_t at = 0;  // the stream position of the chunk's first unit
  if (table != nullptr && consumed == 0) {
    // Data units only (every scheme's fill but DFTL's): whole rounds in a loop of their own, which
    // the compiler keeps in registers; the rounds' chunks take consecutive slots of their plane.
    std::vector<SlotId> round_slot(planes);  // chunk s's first slot in the round
    for (uint32_t s = 0; s < planes; ++s) round_slot[s] = g.first_slot(first_page[s]);
    const uint64_t round_units = uint64_t{planes} * chunk_units;
    for (uint64_t round = stream_units / round_units; round > 0; --round) {
      for (SlotId& slot : round_slot) {
        for (uint64_t k = 0; k < chunk_units; ++k) *entry++ = static_cast<SlotId>(slot + k);
        slot += static_cast<SlotId>(chunk_units);
      }
    }
    const uint64_t whole = stream_units / round_units * round_units;
    for (uint64_t k = 0; whole + k < stream_units; ++k) {  // the last round, partial
      *entry++ = static_cast<SlotId>(round_slot[k / chunk_units] + k % chunk_units);
    }
    at = stream_units;
  }
  for (uint64_t first_q = 0; table != nullptr && at < stream_units; first_q += c) {  // a round
    for (uint32_t s = 0; s < planes && at < stream_units; ++s, at += chunk_units) {
      const SlotId slot = g.first_slot(first_page[s] + static_cast<PageId>(first_q));
      if (next_at >= at + chunk_units) {  // data units only (nearly every chunk)
        for (uint64_t k = 0; k < chunk_units; ++k) *entry++ = static_cast<SlotId>(slot + k);
        continue;
      }
      for (uint64_t k = 0; k < chunk_units; ++k) {
        if (next_at == at + k) {
          between[next_insert++].slot = static_cast<SlotId>(slot + k);
          next_at = position_or_none(next_insert);
        } else {
          *entry++ = static_cast<SlotId>(slot + k);
        }
      }
    }
  }
  // The spare words are the spare area's sequential layout (the stream's positions, the inserts
  // among them), written out only when something reads them (spare_area.h).
  SpareArea::SequentialLayout layout;
  layout.named = std::min(upp, flash.spare_words_per_page());  // units the spare area names
  layout.chunk_pages = c;
  layout.stripe_position_of_plane.resize(planes);
  for (uint32_t s = 0; s < planes; ++s) {
    layout.stripe_position_of_plane[g.plane_in_stripe_order(s)] = s;
  }
  for (size_t j = 0; j < consumed; ++j) {
    layout.inserted_at.push_back(position(j));
    layout.inserted_key.push_back(between[j].key);
  }
  flash.set_sequential_layout(std::move(layout));
  for (uint32_t s = 0; s < planes && flash.stores_tokens(); ++s) {
    Token* tokens = flash.tokens_to_fill(first_page[s]);
    size_t j = 0;  // the inserts before this page
    // The stream position of the plane's page q: a chunk's pages follow each other, and the next
    // chunk of the plane comes a round of the stripe later.
    uint64_t first = uint64_t{s} * c * upp;
    uint32_t in_chunk = 0;
    const uint64_t to_next_chunk = (uint64_t{planes - 1} * c + 1) * upp;
    for (uint64_t q = 0; q < pages_at(s); ++q, tokens += upp) {
      while (position_or_none(j) < first) ++j;
      if (position_or_none(j) >= first + upp) {  // data units only: unit first - j onwards
        const auto lun = static_cast<Lun>(first - j);
        for (uint32_t u = 0; u < upp; ++u) tokens[u] = token(lun + u);
      } else {
        for (uint32_t u = 0; u < upp; ++u) {
          const bool inserted = position_or_none(j) == first + u;
          tokens[u] = inserted ? between[j].token : token(static_cast<Lun>(first + u - j));
          j += inserted;
        }
      }
      if (++in_chunk < c) {
        first += upp;
      } else {
        in_chunk = 0;
        first += to_next_chunk;
      }
    }
  }

  std::vector<BlockId> open_blocks(planes, kNone);
  for (uint32_t s = 0; s < planes; ++s) {
    const uint32_t plane = g.plane_in_stripe_order(s);
    for (uint64_t left = pages_at(s); left > 0;) {
      const uint32_t in_block = static_cast<uint32_t>(std::min<uint64_t>(left, g.pages_per_block));
      const BlockId block = m_blocks.open_block(plane);
      // The layout numbers a plane's pages in block order, as the blocks are taken here.
      const uint64_t index = (pages_at(s) - left) / g.pages_per_block;
      if (block != plane * g.blocks_per_plane + index) {
        throw std::logic_error("sequential fill: plane " + std::to_string(plane) +
                               " gave its blocks out of order");
      }
      flash.program_in_bulk_by_layout(block, in_block);
      m_blocks.add_valid_units(block, in_block * upp);
      if (in_block == g.pages_per_block) {
        m_blocks.close_block(block);
      } else {
        open_blocks[plane] = block;
      }
      left -= in_block;
    }
  }
  // append() moves the stripe a page at a time; a chunked fill's caller placed with
  // write_on_plane(), which leaves it.
  writer.filled_in_bulk(pages, open_blocks, c == 1 ? static_cast<uint32_t>(pages % planes) : 0);
  m_backend.count_written_in_bulk(OpClass::kHostWrite, data_units);
  m_backend.count_written_in_bulk(OpClass::kMapping, consumed);
  return data_units;
}

}  // namespace ssd::ftl
