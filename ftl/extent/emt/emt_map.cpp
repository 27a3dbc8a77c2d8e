#include "ftl/extent/emt/emt_map.h"

#include <stdexcept>
#include <string>

#include "ftl/core/memory_sizes.h"

namespace ssd::ftl {

namespace {

// The part of stored extent `e` inside [lun, end), which the caller knows they share.
Extent clip(const Extent& e, Lun lun, Lun end) {
  const Lun first = e.lun > lun ? e.lun : lun;
  const uint64_t last = uint64_t{e.lun} + e.length < end ? uint64_t{e.lun} + e.length : end;
  return {first, static_cast<uint32_t>(last - first), e.slot + (first - e.lun)};
}

}  // namespace

EmtMap::EmtMap(const ExtentSpace& space, CpuWork& cpu)
    : m_space(space),
      m_tree(cpu),
      m_node_bytes(2 * bytes_to_name(space.logical_units + 1) + bytes_to_name(space.slots) +
                   3 * kPointerBytes + 1) {
  // Ends (lun + length) are held in a Lun: the last unit's end must fit.
  if (space.logical_units == 0 || space.logical_units > kNone) {
    throw std::invalid_argument("EMT: logical units must be between 1 and 2^32 - 1");
  }
}

void EmtMap::check_range(Lun lun, uint32_t length) const {
  if (uint64_t{lun} + length > m_space.logical_units) {
    throw std::out_of_range("EMT: units [" + std::to_string(lun) + ", " +
                            std::to_string(uint64_t{lun} + length) + ") beyond the " +
                            std::to_string(m_space.logical_units) + " logical units");
  }
}

// Algorithm 4, lines 2-14, on half-open ranges. The printed text departs from what it means in
// four places (docs/emt.md, "Departures"):
//  1. Line 2 finds the predecessor of s_n + 0.001, the last extent starting at or before s_n. If
//     it ends at or before s_n it does not overlap the write, yet the printed loop deletes it
//     (line 12 runs unconditionally) and loses its mapping. We start the walk at its successor.
//  2. When no extent starts at or before s_n, the printed loop never runs, and extents starting
//     inside the write survive under it. We start the walk at the first extent after s_n (the
//     same descent finds it).
//  3. Line 4 tests s_n < s_t + l_t - 1 and line 5 keeps <s_t, s_n - s_t + 1>: on closed ranges
//     this misses an extent whose last unit is s_n and keeps one unit too many (the write's first
//     unit). The intended test is s_t < s_n < s_t + l_t (e_t starts before e_n and reaches it),
//     the kept part <s_t, s_n - s_t>. Line 7 tests s_t < s_n + l_n - 1, which misses an extent
//     starting at the write's last unit; the intended test is s_t < s_n + l_n (the walk only
//     reaches overlapping extents, so it is implied) and s_n + l_n < s_t + l_t; the kept part
//     <s_n + l_n, s_t + l_t - s_n - l_n> of line 8 is right. Kept parts keep their slots: the
//     right one starts at p_t + (s_n + l_n - s_t).
//  4. Line 13 stops when the successor starts past the write (s_n + l_n - 1 < s_t), which we
//     keep as the loop condition; the prose also says the walk ends once "the last address of
//     e_n is covered by e_t", and we stop there without fetching the successor, as Algorithm 5
//     (line 6) does: extents never overlap, so none after e_t can reach the write.
// Line 11 fetches the successor from the node in hand before line 12 deletes it (sec. 6.2.2: "a
// node pointer exploited by successor"); deletion keeps other nodes' indices.
void EmtMap::cut(Lun lun, Lun end, std::vector<Extent>& displaced) {
  m_kept = 0;
  const ExtentTree::Bracket b = m_tree.bracket(lun);  // predecessor(s_n + 0.001)
  uint32_t t = b.above;                               // departures 1 and 2
  if (b.at_or_below != ExtentTree::kNil && m_tree.end(b.at_or_below) > lun) {
    t = b.at_or_below;
  }
  while (t != ExtentTree::kNil && m_tree.start(t) < end) {  // line 13
    const Extent e = extent_of(t);
    if (e.lun < lun) m_keep[m_kept++] = {e.lun, lun - e.lun, e.slot};  // lines 4-5
    if (e.end() > end) {                                               // lines 7-8
      m_keep[m_kept++] = {end, e.end() - end, e.slot + (end - e.lun)};
    }
    displaced.push_back(clip(e, lun, end));
    const uint32_t next = e.end() >= end ? ExtentTree::kNil : m_tree.successor(t);  // line 11
    m_tree.erase(t);                                                                // line 12
    t = next;
  }
}

void EmtMap::insert_kept() {
  for (uint32_t i = 0; i < m_kept; ++i) {
    m_tree.insert(m_keep[i].lun, m_keep[i].length, m_keep[i].slot);
  }
  m_kept = 0;
}

// Algorithm 4. Line 15 inserts I = {e_n} plus the kept parts, in that order. Kept parts are
// deleted and re-inserted as the paper describes ("the valid extent of e1 (e1') is left
// (re-inserted)") rather than trimmed in place, which would save their insertions.
uint32_t EmtMap::insert(const Extent& extent, std::vector<Extent>& displaced) {
  if (extent.length == 0) return 0;
  check_extent(extent);
  cut(extent.lun, extent.end(), displaced);
  m_tree.insert(extent.lun, extent.length, extent.slot);
  insert_kept();
  return 1;
}

uint32_t EmtMap::insert_unmapped(const Extent& extent) {
  if (extent.length == 0) return 0;
  check_extent(extent);
  m_tree.append(extent.lun, extent.length, extent.slot);
  return 1;
}

void EmtMap::check_extent(const Extent& extent) const {
  check_range(extent.lun, extent.length);
  if (extent.slot == kNone || uint64_t{extent.slot} + extent.length > m_space.slots) {
    throw std::out_of_range("EMT: extent slots beyond the device");
  }
}

// A trim is Algorithm 4 without the new extent: the overlapped parts go, the rest is kept.
void EmtMap::erase(Lun lun, uint32_t length, std::vector<Extent>& displaced) {
  if (length == 0) return;
  check_range(lun, length);
  cut(lun, lun + length, displaced);
  insert_kept();
}

// Algorithm 5 with two departures (docs/emt.md): it returns each stored extent clipped to the
// query, not whole (line 5), and an unmapped unit is not a failure of the whole read (lines
// 10-12, "page fault"): the walk goes on with the next extent, as in cut(), so every mapped part
// of the range is returned and the caller reads the holes as never written. Line 6 (stop when
// e_t covers the query's end) is kept; the printed line 4 test (p in e_t) becomes "e_t starts
// before the query's end", since e_t may now begin after a hole.
void EmtMap::lookup(Lun lun, uint32_t length, std::vector<Extent>& found) {
  if (length == 0) return;
  check_range(lun, length);
  const Lun end = lun + length;
  const ExtentTree::Bracket b = m_tree.bracket(lun);  // line 2: predecessor(p + 0.001)
  uint32_t t = b.above;
  if (b.at_or_below != ExtentTree::kNil && m_tree.end(b.at_or_below) > lun) {
    t = b.at_or_below;
  }
  while (t != ExtentTree::kNil) {
    const Extent e = extent_of(t);
    if (e.lun >= end) break;
    found.push_back(clip(e, lun, end));
    if (e.end() >= end) break;  // line 6 / 9
    t = m_tree.successor(t);    // line 8
  }
}

// A one-unit lookup: the descent alone answers it.
SlotId EmtMap::slot_of(Lun lun) {
  check_range(lun, 1);
  const uint32_t t = m_tree.bracket(lun).at_or_below;
  if (t == ExtentTree::kNil) return kNone;
  return m_tree.end(t) > lun ? m_tree.slot(t) + (lun - m_tree.start(t)) : kNone;
}

std::vector<Extent> EmtMap::extents() const {
  // In-order walk over the node links directly, so nothing is counted.
  std::vector<Extent> out;
  out.reserve(m_tree.size());
  std::vector<uint32_t> stack;
  uint32_t n = m_tree.root();
  while (n != ExtentTree::kNil || !stack.empty()) {
    while (n != ExtentTree::kNil) {
      stack.push_back(n);
      n = m_tree.left(n);
    }
    n = stack.back();
    stack.pop_back();
    out.push_back(extent_of(n));
    n = m_tree.right(n);
  }
  return out;
}

}  // namespace ssd::ftl
