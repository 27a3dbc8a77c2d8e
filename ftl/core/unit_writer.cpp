#include "ftl/core/unit_writer.h"

#include <algorithm>

namespace ssd::ftl {

UnitWriter::UnitWriter(FlashBackend& backend, BlockManager& blocks, OpClass op_class)
    : m_backend(backend),
      m_blocks(blocks),
      m_geometry(blocks.geometry()),
      m_op_class(op_class),
      m_open(blocks.geometry().planes()) {
  for (auto& open : m_open) {
    open.tokens.assign(m_geometry.units_per_page, 0);
    open.spare.assign(m_backend.flash().spare_words_per_page(), kNone);
    open.origins.assign(m_geometry.units_per_page, kNone);
  }
}

uint32_t UnitWriter::next_plane(Lun lun) {
  if (m_placement == PlacementPolicy::kStatic) {
    return choose_plane(m_blocks, m_placement, 0, 0, lun, 1).plane;
  }
  if (m_current_plane != kNone && m_open[m_current_plane].page != kNone) {
    return m_current_plane;  // finish the page
  }
  const PlaneChoice choice =
      choose_plane(m_blocks, m_placement, m_plane_live_limit, m_stripe_cursor, lun,
                   m_geometry.units_per_page, &m_backend);
  m_stripe_cursor = choice.stripe_position;
  m_current_plane = choice.plane;
  return choice.plane;
}

SlotId UnitWriter::append(Lun lun, Token token, uint32_t after, OpClass written_as) {
  const uint32_t plane = next_plane(lun);
  const SlotId slot = append_on_plane(plane, lun, token, after, written_as);
  if (m_placement != PlacementPolicy::kStatic && m_open[plane].page == kNone) {
    // The page was programmed: the next page goes to the next stripe position.
    m_stripe_cursor = (m_stripe_cursor + 1) % m_geometry.planes();
    m_current_plane = kNone;
  }
  return slot;
}

SlotId UnitWriter::append_on_plane(uint32_t plane, Lun lun, Token token, uint32_t after,
                                   OpClass written_as) {
  OpenPage& open = m_open[plane];
  if (open.page == kNone) start_page(plane);
  const uint32_t unit = open.filled++;
  ++open.units.by_class[static_cast<int>(written_as)];
  open.tokens[unit] = token;
  if (unit < open.spare.size()) open.spare[unit] = lun;
  if (after != kNone) open.after = open.after == kNone ? after : std::max(open.after, after);
  const SlotId slot = m_geometry.first_slot(open.page) + unit;
  m_blocks.add_valid(slot);
  if (open.filled == m_geometry.units_per_page) program(plane);
  return slot;
}

SlotId UnitWriter::copy_page(uint32_t plane, PageId source, const Lun* luns, const Token* tokens,
                             uint32_t after) {
  OpenPage& open = m_open[plane];
  if (open.page == kNone) start_page(plane);
  const SlotId first = m_geometry.first_slot(open.page);
  for (uint32_t unit = 0; unit < m_geometry.units_per_page; ++unit) {
    open.tokens[unit] = tokens[unit];
    if (unit < open.spare.size()) open.spare[unit] = luns[unit];
    m_blocks.add_valid(first + unit);
  }
  open.filled = m_geometry.units_per_page;
  open.units.by_class[static_cast<int>(m_op_class)] += m_geometry.units_per_page;
  open.after = after;
  program(plane, source);
  return first;
}

void UnitWriter::start_page(uint32_t plane) {
  OpenPage& open = m_open[plane];
  if (m_listener) m_listener->before_new_page(plane, open.block == kNone);
  if (open.block == kNone) open.block = m_blocks.open_block(plane);
  open.page = m_geometry.first_page(open.block) + m_backend.flash().write_pointer(open.block);
  open.filled = 0;
  open.after = kNone;
  open.units = ProgramUnits{};
}

uint32_t UnitWriter::program(uint32_t plane, PageId copy_source) {
  OpenPage& open = m_open[plane];
  if (m_sequence != nullptr) {
    const uint64_t sequence = (*m_sequence)++ | m_sequence_mark;
    open.spare[m_geometry.units_per_page] = static_cast<uint32_t>(sequence);
    open.spare[m_geometry.units_per_page + 1] = static_cast<uint32_t>(sequence >> 32);
  }
  const uint32_t mapping = open.units.by_class[static_cast<int>(OpClass::kMapping)];
  const OpClass op_class = mapping == open.units.total() ? OpClass::kMapping : m_op_class;
  const uint32_t op =
      copy_source == kNone
          ? m_backend.program(open.page, open.tokens.data(), open.spare.data(), op_class,
                              open.after, open.units)
          : m_backend.copy_back(copy_source, open.page, open.tokens.data(), open.spare.data(),
                                op_class, open.after, open.units);
  if (op != kNone) m_last_program = op;
  if (m_sequence != nullptr) {
    // The older copies these units replace must outlive this program (EraseGuard).
    for (uint32_t u = 0; u < open.filled; ++u) {
      if (open.origins[u] != kNone) m_backend.note_supersedes(op, open.origins[u]);
    }
  }
  ++m_programs;
  std::fill(open.tokens.begin(), open.tokens.end(), 0);
  std::fill(open.spare.begin(), open.spare.end(), kNone);
  std::fill(open.origins.begin(), open.origins.end(), kNone);
  open.page = kNone;
  if (m_backend.flash().write_pointer(open.block) == m_geometry.pages_per_block) {
    m_blocks.close_block(open.block);
    open.block = kNone;
  }
  return op;
}

uint32_t UnitWriter::close_page(uint32_t plane) {
  OpenPage& open = m_open[plane];
  if (open.page == kNone || open.filled == 0) return kNone;
  return program(plane);  // the empty slots are padding (FlashBackend::written())
}

uint32_t UnitWriter::close_pages() {
  uint32_t last = kNone;
  for (uint32_t plane = 0; plane < m_open.size(); ++plane) {
    const uint32_t op = close_page(plane);
    if (op != kNone) last = op;
  }
  return last;
}

bool UnitWriter::fresh() const {
  if (m_programs != 0 || m_stripe_cursor != 0 || m_current_plane != kNone) return false;
  for (const OpenPage& open : m_open) {
    if (open.block != kNone || open.page != kNone) return false;
  }
  return true;
}

void UnitWriter::filled_in_bulk(uint64_t pages, const std::vector<BlockId>& open_blocks,
                                uint32_t stripe_cursor) {
  for (uint32_t plane = 0; plane < m_open.size(); ++plane) m_open[plane].block = open_blocks[plane];
  m_stripe_cursor = stripe_cursor;
  m_current_plane = kNone;
  m_programs += pages;
}

bool UnitWriter::holds(SlotId slot) const {
  const PageId page = m_geometry.page_of_slot(slot);
  const uint32_t plane = m_geometry.plane_of_block(m_geometry.block_of_page(page));
  const OpenPage& open = m_open[plane];
  return open.page == page && m_geometry.unit_in_page(slot) < open.filled;
}

void UnitWriter::forget(SlotId slot) {
  const PageId page = m_geometry.page_of_slot(slot);
  const uint32_t plane = m_geometry.plane_of_block(m_geometry.block_of_page(page));
  const uint32_t unit = m_geometry.unit_in_page(slot);
  if (unit < m_open[plane].spare.size()) m_open[plane].spare[unit] = kNone;
}

void UnitWriter::set_origin(SlotId slot, BlockId block) {
  const PageId page = m_geometry.page_of_slot(slot);
  const uint32_t plane = m_geometry.plane_of_block(m_geometry.block_of_page(page));
  m_open[plane].origins[m_geometry.unit_in_page(slot)] = block;
}

BlockId UnitWriter::origin(SlotId slot) const {
  const PageId page = m_geometry.page_of_slot(slot);
  const uint32_t plane = m_geometry.plane_of_block(m_geometry.block_of_page(page));
  return m_open[plane].origins[m_geometry.unit_in_page(slot)];
}

bool UnitWriter::has_origin(uint32_t plane, BlockId block) const {
  const OpenPage& open = m_open[plane];
  if (open.page == kNone) return false;
  return std::find(open.origins.begin(), open.origins.begin() + open.filled, block) !=
         open.origins.begin() + open.filled;
}

Token UnitWriter::buffered_token(SlotId slot) const {
  const PageId page = m_geometry.page_of_slot(slot);
  const uint32_t plane = m_geometry.plane_of_block(m_geometry.block_of_page(page));
  return m_open[plane].tokens[m_geometry.unit_in_page(slot)];
}

}  // namespace ssd::ftl
