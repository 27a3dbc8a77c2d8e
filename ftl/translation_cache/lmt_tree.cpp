#include "ftl/translation_cache/lmt_tree.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssd::ftl {

namespace {
bool overlaps(Lun low_a, Lun high_a, Lun low_b, Lun high_b) {
  return low_a <= high_b && low_b <= high_a;
}
bool within(Lun low_a, Lun high_a, Lun low_b, Lun high_b) {  // [a] inside [b]
  return low_b <= low_a && high_a <= high_b;
}
}  // namespace

uint32_t LmtTree::node_bytes(uint32_t fanout) {
  const uint32_t raw = 12 + 12 * fanout;
  uint32_t bytes = 1;
  while (bytes < raw) bytes <<= 1;
  return bytes;
}

LmtTree::LmtTree(uint64_t threshold_bytes, uint32_t fanout, LmtReplacement replacement)
    : m_threshold(threshold_bytes),
      m_fanout(fanout),
      m_node_bytes(node_bytes(fanout)),
      m_replacement(replacement) {
  if (fanout < 3) throw std::invalid_argument("LMT: FANOUT must be at least 3");
  if (threshold_bytes < m_node_bytes + kUnitBytes) {
    throw std::invalid_argument("LMT: a threshold of " + std::to_string(threshold_bytes) +
                                " bytes cannot hold a root node and one translation unit");
  }
  m_root = new_node(true, kNone);
}

uint64_t LmtTree::memory_bytes() const {
  return uint64_t(m_live_nodes) * m_node_bytes + uint64_t(m_live_units) * kUnitBytes;
}

uint32_t LmtTree::depth() const {
  uint32_t deepest = 0;
  std::vector<std::pair<uint32_t, uint32_t>> stack{{m_root, 1}};  // (node, its depth)
  while (!stack.empty()) {
    const auto [node, d] = stack.back();
    stack.pop_back();
    deepest = std::max(deepest, d);
    if (m_nodes[node].leaf) continue;
    for (const Entry& e : m_nodes[node].entries) stack.emplace_back(e.child, d + 1);
  }
  return deepest;
}

// --- structure ---

uint32_t LmtTree::new_node(bool leaf, uint32_t parent) {
  uint32_t id;
  if (!m_free_nodes.empty()) {
    id = m_free_nodes.back();
    m_free_nodes.pop_back();
    m_nodes[id] = Node{};
  } else {
    id = static_cast<uint32_t>(m_nodes.size());
    m_nodes.emplace_back();
  }
  m_nodes[id].leaf = leaf;
  m_nodes[id].parent = parent;
  m_nodes[id].at = m_counter;
  ++m_live_nodes;
  return id;
}

void LmtTree::free_node(uint32_t node) {
  m_nodes[node].entries.clear();
  m_nodes[node].entries.shrink_to_fit();
  m_free_nodes.push_back(node);
  --m_live_nodes;
}

uint32_t LmtTree::new_unit(Lun lba, PageId pba, uint32_t size) {
  uint32_t id;
  if (!m_free_units.empty()) {
    id = m_free_units.back();
    m_free_units.pop_back();
  } else {
    id = static_cast<uint32_t>(m_units.size());
    m_units.emplace_back();
  }
  // A new unit takes the system counter as its version; the counter then moves on.
  m_units[id] = Unit{lba, pba, size, m_counter++, kNone, kNone};
  ++m_live_units;
  return id;
}

void LmtTree::free_unit(uint32_t unit) {
  m_free_units.push_back(unit);
  --m_live_units;
}

void LmtTree::add_nt(uint32_t node, int64_t delta) {
  for (; node != kNone; node = m_nodes[node].parent) m_nodes[node].nt += delta;
}

uint32_t LmtTree::entry_index(uint32_t parent, uint32_t child) const {
  const auto& entries = m_nodes[parent].entries;
  for (uint32_t i = 0; i < entries.size(); ++i) {
    if (entries[i].child == child) return i;
  }
  throw std::logic_error("LMT: a node is missing from its parent");
}

LmtTree::Range LmtTree::bounds_of(uint32_t node) const {
  const auto& entries = m_nodes[node].entries;
  return Range{entries.front().low, entries.back().high};
}

// --- lists ---

void LmtTree::push_front(Entry& entry, uint32_t unit) {
  Unit& u = m_units[unit];
  u.prev = kNone;
  u.next = entry.head;
  if (entry.head != kNone) m_units[entry.head].prev = unit;
  entry.head = unit;
  if (entry.tail == kNone) entry.tail = unit;
  ++entry.length;
}

void LmtTree::unlink(Entry& entry, uint32_t unit) {
  Unit& u = m_units[unit];
  (u.prev != kNone ? m_units[u.prev].next : entry.head) = u.next;
  (u.next != kNone ? m_units[u.next].prev : entry.tail) = u.prev;
  u.prev = u.next = kNone;
  --entry.length;
}

void LmtTree::move_to_front(Entry& entry, uint32_t unit) {
  if (entry.head == unit) return;
  unlink(entry, unit);
  push_front(entry, unit);
}

bool LmtTree::clip(uint32_t unit, Range cut) {
  Unit& u = m_units[unit];
  const Lun low = u.lba;
  const Lun high = u.end() - 1;
  if (!overlaps(low, high, cut.low, cut.high)) return true;
  if (within(low, high, cut.low, cut.high)) return false;
  if (cut.low <= low) {  // the cut takes the unit's front
    const uint32_t dropped = cut.high + 1 - low;
    u.lba += dropped;
    u.pba += dropped;
    u.size -= dropped;
  } else {  // its back
    u.size = cut.low - low;
  }
  return true;
}

// --- lookup ---

PageId LmtTree::lookup(Lun lun, CpuWork& work) {
  CpuWork spent;
  ++m_stats.lookups;
  PageId found = kNone;
  uint32_t node = m_root;
  while (node != kNone) {
    Node& n = m_nodes[node];
    ++spent.tree_nodes;
    n.at = m_counter;
    const auto it = std::find_if(n.entries.begin(), n.entries.end(),
                                 [&](const Entry& e) { return e.low <= lun && lun <= e.high; });
    if (it == n.entries.end()) break;
    if (!n.leaf) {
      node = it->child;
      continue;
    }
    // Units of one list may overlap (a newer one inside an older one): the newest that holds
    // the address is right, so the whole list is searched.
    uint32_t best = kNone;
    for (uint32_t u = it->head; u != kNone; u = m_units[u].next) {
      ++spent.list_steps;
      const Unit& unit = m_units[u];
      if (unit.lba <= lun && lun < unit.end() &&
          (best == kNone || unit.version > m_units[best].version)) {
        best = u;
      }
    }
    if (best != kNone) {
      move_to_front(*it, best);
      found = m_units[best].pba + (lun - m_units[best].lba);
    }
    break;
  }
  ++m_counter;
  if (found != kNone) ++m_stats.hits;
  m_stats.lookup_work += spent;
  work += spent;
  return found;
}

// --- insertion ---

void LmtTree::insert(Lun lun, PageId page, uint32_t count, CpuWork& work) {
  if (count == 0) return;
  CpuWork spent;
  ++m_stats.insertions;
  const uint32_t unit = new_unit(lun, page, count);
  insert_at(m_root, unit, spent);
  replace_until_under_threshold(spent);
  ++m_counter;
  m_stats.insertion_work += spent;
  work += spent;
}

void LmtTree::insert_at(uint32_t node, uint32_t unit, CpuWork& work) {
  const Lun low = m_units[unit].lba;
  const Lun high = m_units[unit].end() - 1;
  ++work.tree_nodes;
  m_nodes[node].at = m_counter;

  // Case 1: child ranges inside the new unit's range lose everything under them.
  for (size_t i = 0; i < m_nodes[node].entries.size();) {
    const Entry& e = m_nodes[node].entries[i];
    if (within(e.low, e.high, low, high)) {
      remove_subtree(node, i, work);
    } else {
      ++i;
    }
  }
  // Choice: a node whose every range case 1 removed takes the unit as a leaf would (the tree
  // may then hold leaves at different depths; lookups do not mind).
  if (m_nodes[node].entries.empty()) m_nodes[node].leaf = true;
  // Case 2: a child range holds the new unit's range: go down into it.
  auto& entries = m_nodes[node].entries;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (within(low, high, entries[i].low, entries[i].high)) {
      if (m_nodes[node].leaf) {
        add_to_list(node, i, unit, work);
      } else {
        insert_at(entries[i].child, unit, work);
      }
      return;
    }
  }
  // Case 3: the child ranges that overlap the new range only partly (at most one on each side).
  size_t chosen = entries.size();
  uint64_t least = 0;
  bool any_overlap = false;
  for (size_t i = 0; i < entries.size(); ++i) {
    any_overlap = any_overlap || overlaps(entries[i].low, entries[i].high, low, high);
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    if (any_overlap && !overlaps(e.low, e.high, low, high)) continue;
    const uint64_t enlargement =
        uint64_t(std::max(e.high, high) - std::min(e.low, low)) - (e.high - e.low);
    if (chosen == entries.size() || enlargement < least) {
      chosen = i;
      least = enlargement;
    }
  }
  if (m_nodes[node].leaf && !any_overlap) {
    // Choice: at a leaf, a range that overlaps no child range joins a child range it touches (3(a)
    // with no gap swallowed, so that a sequential run lands in one list and merges there),
    // preferring the one it continues; else it gets a list of its own. An internal node takes it
    // into the child that grows least, as 3(a) does.
    chosen = entries.size();
    for (size_t i = 0; i < entries.size(); ++i) {
      if (entries[i].high != kNone && entries[i].high + 1 == low) chosen = i;
    }
    for (size_t i = 0; i < entries.size() && chosen == entries.size(); ++i) {
      if (high + 1 == entries[i].low) chosen = i;
    }
  }
  if (chosen == entries.size()) {
    if (m_nodes[node].leaf) {
      Entry e;
      e.low = low;
      e.high = high;
      const auto at = std::find_if(entries.begin(), entries.end(),
                                   [&](const Entry& x) { return x.low > high; });
      const size_t index = static_cast<size_t>(at - entries.begin());
      entries.insert(at, e);
      push_front(m_nodes[node].entries[index], unit);
      add_nt(node, 1);
      split_if_full(node);
      return;
    }
    throw std::logic_error("LMT: an internal node without child ranges");
  }
  // Case 3(b): the other partly overlapping ranges give up the new unit's range.
  const Range cut{low, high};
  for (size_t i = 0; i < m_nodes[node].entries.size();) {
    if (i == chosen) {
      ++i;
      continue;
    }
    const Entry& e = m_nodes[node].entries[i];
    if (overlaps(e.low, e.high, low, high)) {
      const bool kept = trim_entry(node, i, cut, work);
      if (!kept && i < chosen) --chosen;
      if (kept) ++i;
    } else {
      ++i;
    }
  }
  // Case 3(a): the chosen range grows to hold the new one; go down into it.
  Entry& grown = m_nodes[node].entries[chosen];
  grown.low = std::min(grown.low, low);
  grown.high = std::max(grown.high, high);
  if (m_nodes[node].leaf) {
    add_to_list(node, chosen, unit, work);
  } else {
    insert_at(grown.child, unit, work);
  }
}

void LmtTree::add_to_list(uint32_t node, size_t entry, uint32_t unit, CpuWork& work) {
  Entry& e = m_nodes[node].entries[entry];
  const Range fresh{m_units[unit].lba, m_units[unit].end() - 1};
  // Delete: every older unit the new one covers goes. Choice (the prune of section 5.4, done
  // "whenever one new translation unit is inserted"): an older unit it overlaps in part keeps
  // only the rest. What remains overlapping is an older unit around the newer one (hazard 2),
  // which lookups resolve by version and SCWR's cut resolves before a release.
  int64_t removed = 0;
  for (uint32_t u = e.head; u != kNone;) {
    ++work.list_steps;
    const uint32_t next = m_units[u].next;
    const Unit& old = m_units[u];
    const Lun old_high = old.end() - 1;
    if (within(old.lba, old_high, fresh.low, fresh.high)) {
      unlink(e, u);
      free_unit(u);
      ++removed;
    } else if (overlaps(old.lba, old_high, fresh.low, fresh.high) &&
               !(old.lba < fresh.low && fresh.high < old_high)) {
      clip(u, fresh);
      ++work.unit_merges;
    }
    u = next;
  }
  push_front(e, unit);
  add_nt(node, 1 - removed);
  merge_neighbours(node, entry, unit, work);
}

void LmtTree::merge_neighbours(uint32_t node, size_t entry, uint32_t unit, CpuWork& work) {
  Entry& e = m_nodes[node].entries[entry];
  bool merged = true;
  while (merged) {
    merged = false;
    for (uint32_t u = e.head; u != kNone; u = m_units[u].next) {
      ++work.list_steps;
      if (u == unit) continue;
      const Unit& s = m_units[unit];
      const Unit& t = m_units[u];
      const bool before = t.end() == s.lba && t.pba + t.size == s.pba;
      const bool after = s.end() == t.lba && s.pba + s.size == t.pba;
      if (!before && !after) continue;
      // The merged unit takes the newer version, so nothing newer than `t` may overlap `t`
      // (it would be hidden). Choice: the paper's merge leaves this to "redefined as needed".
      bool hidden = false;
      for (uint32_t w = e.head; w != kNone && !hidden; w = m_units[w].next) {
        ++work.list_steps;
        const Unit& x = m_units[w];
        hidden = w != u && w != unit && x.version > t.version &&
                 overlaps(x.lba, x.end() - 1, t.lba, t.end() - 1);
      }
      if (hidden) continue;
      Unit& k = m_units[unit];
      if (before) {
        k.lba = t.lba;
        k.pba = t.pba;
      }
      k.size += t.size;
      unlink(e, u);
      free_unit(u);
      add_nt(node, -1);
      ++work.unit_merges;
      merged = true;
      break;
    }
  }
}

void LmtTree::remove_subtree(uint32_t node, size_t entry, CpuWork& work) {
  Entry& e = m_nodes[node].entries[entry];
  int64_t removed = 0;
  if (m_nodes[node].leaf) {
    for (uint32_t u = e.head; u != kNone;) {
      ++work.list_steps;
      const uint32_t next = m_units[u].next;
      free_unit(u);
      ++removed;
      u = next;
    }
  } else {
    const uint32_t child = e.child;
    removed = static_cast<int64_t>(m_nodes[child].nt);
    // Free the child's subtree, depth first.
    std::vector<uint32_t> stack{child};
    while (!stack.empty()) {
      const uint32_t n = stack.back();
      stack.pop_back();
      ++work.tree_nodes;
      for (const Entry& c : m_nodes[n].entries) {
        if (m_nodes[n].leaf) {
          for (uint32_t u = c.head; u != kNone;) {
            ++work.list_steps;
            const uint32_t next = m_units[u].next;
            free_unit(u);
            u = next;
          }
        } else {
          stack.push_back(c.child);
        }
      }
      free_node(n);
    }
  }
  m_nodes[node].entries.erase(m_nodes[node].entries.begin() + static_cast<std::ptrdiff_t>(entry));
  add_nt(node, -removed);
}

bool LmtTree::trim_entry(uint32_t node, size_t entry, Range cut, CpuWork& work) {
  Entry& e = m_nodes[node].entries[entry];
  if (within(e.low, e.high, cut.low, cut.high)) {
    remove_subtree(node, entry, work);
    return false;
  }
  // The range only overlaps the cut at one end (it neither lies inside nor holds it).
  if (cut.low <= e.low) {
    e.low = cut.high + 1;
  } else {
    e.high = cut.low - 1;
  }
  if (m_nodes[node].leaf) {
    int64_t removed = 0;
    for (uint32_t u = e.head; u != kNone;) {
      ++work.list_steps;
      const uint32_t next = m_units[u].next;
      const Unit& unit = m_units[u];
      if (overlaps(unit.lba, unit.end() - 1, cut.low, cut.high)) {
        ++work.unit_merges;
        if (!clip(u, cut)) {
          unlink(e, u);
          free_unit(u);
          ++removed;
        }
      }
      u = next;
    }
    add_nt(node, -removed);
    if (e.length == 0) {
      m_nodes[node].entries.erase(m_nodes[node].entries.begin() +
                                  static_cast<std::ptrdiff_t>(entry));
      return false;
    }
    return true;
  }
  const uint32_t child = e.child;
  ++work.tree_nodes;
  for (size_t i = 0; i < m_nodes[child].entries.size();) {
    const Entry& c = m_nodes[child].entries[i];
    if (overlaps(c.low, c.high, cut.low, cut.high)) {
      if (trim_entry(child, i, cut, work)) ++i;
    } else {
      ++i;
    }
  }
  if (m_nodes[child].entries.empty()) {
    free_node(child);
    m_nodes[node].entries.erase(m_nodes[node].entries.begin() + static_cast<std::ptrdiff_t>(entry));
    return false;
  }
  const Range left = bounds_of(child);
  Entry& kept = m_nodes[node].entries[entry];
  kept.low = left.low;
  kept.high = left.high;
  return true;
}

void LmtTree::forget(Lun lun, uint32_t count, CpuWork& work) {
  if (count == 0) return;
  CpuWork spent;
  ++m_stats.insertions;
  forget_at(m_root, Range{lun, lun + count - 1}, spent);
  if (m_nodes[m_root].entries.empty()) m_nodes[m_root].leaf = true;
  ++m_counter;
  m_stats.insertion_work += spent;
  work += spent;
}

// Leaves `node` without entries when everything under it went; its parent then drops it.
void LmtTree::forget_at(uint32_t node, Range range, CpuWork& work) {
  ++work.tree_nodes;
  for (size_t i = 0; i < m_nodes[node].entries.size();) {
    Entry& e = m_nodes[node].entries[i];
    if (!overlaps(e.low, e.high, range.low, range.high)) {
      ++i;
      continue;
    }
    if (within(e.low, e.high, range.low, range.high) || e.low >= range.low ||
        e.high <= range.high) {  // inside, or overlapping at one end: cases 1 and 3(b)
      if (trim_entry(node, i, range, work)) ++i;
      continue;
    }
    // The entry holds the whole range.
    if (!m_nodes[node].leaf) {
      const uint32_t child = e.child;
      forget_at(child, range, work);
      if (m_nodes[child].entries.empty()) {
        free_node(child);
        m_nodes[node].entries.erase(m_nodes[node].entries.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
      continue;
    }
    // The range leaves the list as if something newer than every unit had been released.
    m_released.assign(1, Released{range, ~uint64_t{0}});
    m_kept.clear();
    for (uint32_t u = e.head; u != kNone; u = m_units[u].next) m_kept.push_back(u);
    withdraw(node, e, work);
    if (e.length == 0) {
      m_nodes[node].entries.erase(m_nodes[node].entries.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
}

void LmtTree::split_if_full(uint32_t node) {
  while (node != kNone && m_nodes[node].entries.size() > m_fanout) {
    const bool leaf = m_nodes[node].leaf;
    uint32_t parent = m_nodes[node].parent;
    if (parent == kNone) {  // the root splits: a new root above it
      parent = new_node(false, kNone);
      m_nodes[parent].nt = m_nodes[node].nt;
      Entry up;
      up.child = node;
      const Range r = bounds_of(node);
      up.low = r.low;
      up.high = r.high;
      m_nodes[parent].entries.push_back(up);
      m_nodes[node].parent = parent;
      m_root = parent;
    }
    const uint32_t sibling = new_node(leaf, parent);
    auto& entries = m_nodes[node].entries;
    const size_t keep = entries.size() / 2;
    std::vector<Entry> moved(entries.begin() + static_cast<std::ptrdiff_t>(keep), entries.end());
    m_nodes[node].entries.resize(keep);
    uint64_t moved_units = 0;
    for (const Entry& e : moved) {
      if (leaf) {
        moved_units += e.length;
      } else {
        m_nodes[e.child].parent = sibling;
        moved_units += m_nodes[e.child].nt;
      }
    }
    m_nodes[sibling].entries = std::move(moved);
    // Both halves count as accessed now; NT follows the units each holds.
    m_nodes[sibling].nt = moved_units;
    m_nodes[node].nt -= moved_units;
    m_nodes[node].at = m_nodes[sibling].at = m_counter;

    auto& above = m_nodes[parent].entries;
    const size_t at = entry_index(parent, node);
    const Range left = bounds_of(node);
    const Range right = bounds_of(sibling);
    above[at].low = left.low;
    above[at].high = left.high;
    Entry e;
    e.child = sibling;
    e.low = right.low;
    e.high = right.high;
    above.insert(above.begin() + static_cast<std::ptrdiff_t>(at) + 1, e);
    node = parent;
  }
}

void LmtTree::detach_empty(uint32_t node) {
  while (node != m_root && m_nodes[node].entries.empty()) {
    const uint32_t parent = m_nodes[node].parent;
    auto& above = m_nodes[parent].entries;
    above.erase(above.begin() + static_cast<std::ptrdiff_t>(entry_index(parent, node)));
    free_node(node);
    node = parent;
  }
  if (node == m_root && m_nodes[node].entries.empty()) m_nodes[node].leaf = true;
  if (node != m_root || !m_nodes[node].entries.empty()) refresh_parent_range(node);
}

void LmtTree::refresh_parent_range(uint32_t node) {
  for (; m_nodes[node].parent != kNone && !m_nodes[node].entries.empty();
       node = m_nodes[node].parent) {
    const uint32_t parent = m_nodes[node].parent;
    Entry& e = m_nodes[parent].entries[entry_index(parent, node)];
    const Range r = bounds_of(node);
    e.low = r.low;
    e.high = r.high;
  }
}

// --- replacement ---

void LmtTree::replace_until_under_threshold(CpuWork& work) {
  if (memory_bytes() <= m_threshold) return;
  ++m_stats.replacements;
  // Releasing every leaf leaves the root alone, which the threshold always holds (constructor).
  while (memory_bytes() > m_threshold) {
    sort_leaves_by_weight(work);
    for (const uint32_t leaf : m_leaves) {
      if (memory_bytes() <= m_threshold) break;
      if (m_replacement == LmtReplacement::kSecondChance && release_second_halves(leaf, work) > 0)
        continue;
      release_leaf(leaf, work);
    }
  }
}

void LmtTree::sort_leaves_by_weight(CpuWork& work) {
  // Replacement runs on nearly every insertion once the cache is full: the lists are members,
  // reused, not allocated each time.
  std::vector<uint32_t>& leaves = m_leaves;
  leaves.clear();
  m_walk.assign(1, m_root);
  while (!m_walk.empty()) {
    const uint32_t node = m_walk.back();
    m_walk.pop_back();
    if (m_nodes[node].leaf) {
      ++work.list_steps;  // the paper keeps the leaves on a doubly linked list
      if (!m_nodes[node].entries.empty()) leaves.push_back(node);
      continue;
    }
    for (const Entry& e : m_nodes[node].entries) m_walk.push_back(e.child);
  }
  // W(N) = AT / NT, smallest first; compared as AT_a * NT_b < AT_b * NT_a to stay exact.
  uint64_t comparisons = 0;
  std::sort(leaves.begin(), leaves.end(), [&](uint32_t a, uint32_t b) {
    ++comparisons;
    const auto wa = static_cast<unsigned __int128>(m_nodes[a].at) * m_nodes[b].nt;
    const auto wb = static_cast<unsigned __int128>(m_nodes[b].at) * m_nodes[a].nt;
    return wa != wb ? wa < wb : a < b;
  });
  work.list_steps += comparisons;
}

void LmtTree::release_leaf(uint32_t leaf, CpuWork& work) {
  Node& n = m_nodes[leaf];
  for (const Entry& e : n.entries) {
    for (uint32_t u = e.head; u != kNone;) {
      ++work.list_steps;
      const uint32_t next = m_units[u].next;
      free_unit(u);
      u = next;
    }
  }
  add_nt(leaf, -static_cast<int64_t>(n.nt));
  m_nodes[leaf].entries.clear();
  detach_empty(leaf);
}

uint32_t LmtTree::withdraw(uint32_t leaf, Entry& e, CpuWork& work) {
  // Newest first, so that a part one cut drops is checked against every older unit.
  std::sort(m_kept.begin(), m_kept.end(),
            [&](uint32_t a, uint32_t b) { return m_units[a].version > m_units[b].version; });
  // Prune and cut: a unit that something newer leaving the list overlaps must not outlive it
  // with the old mapping (hazards 1 and 2). Prune takes the overlap out of it; where the newer
  // range lies inside it, cut keeps the larger side (the left one on a tie) and drops the other,
  // which then leaves the list too: an older unit under it would show through.
  uint32_t freed = 0;
  for (const uint32_t t : m_kept) {
    bool gone = false;
    for (size_t r = 0; r < m_released.size() && !gone; ++r) {
      ++work.list_steps;
      Unit& older = m_units[t];
      const Released newer = m_released[r];
      if (newer.version <= older.version ||
          !overlaps(newer.range.low, newer.range.high, older.lba, older.end() - 1))
        continue;
      ++work.unit_merges;
      if (newer.range.low > older.lba && newer.range.high + 1 < older.end()) {  // cut
        const uint32_t left = newer.range.low - older.lba;
        const uint32_t right = older.end() - (newer.range.high + 1);
        if (left >= right) {
          m_released.push_back({Range{newer.range.high + 1, older.end() - 1}, older.version});
          older.size = left;
        } else {
          m_released.push_back({Range{older.lba, newer.range.low - 1}, older.version});
          older.pba += newer.range.high + 1 - older.lba;
          older.lba = newer.range.high + 1;
          older.size = right;
        }
      } else {
        gone = !clip(t, newer.range);  // prune
      }
    }
    if (gone) {
      unlink(e, t);
      free_unit(t);
      ++freed;
    }
  }
  add_nt(leaf, -static_cast<int64_t>(freed));
  return freed;
}

uint32_t LmtTree::release_second_halves(uint32_t leaf, CpuWork& work) {
  uint32_t released = 0;
  auto& entries = m_nodes[leaf].entries;
  for (size_t i = 0; i < entries.size();) {
    Entry& e = entries[i];
    const uint32_t drop = e.length / 2;  // Ω: the last half; Ψ: the first, the larger if odd
    if (drop == 0) {
      ++i;
      continue;
    }
    m_scratch.clear();  // Ω, tail first
    for (uint32_t u = e.tail; m_scratch.size() < drop; u = m_units[u].prev) {
      ++work.list_steps;
      m_scratch.push_back(u);
    }
    // What leaves the list, with the version that mapped it: Ω's units, and below the parts
    // that cuts drop.
    m_released.clear();
    for (const uint32_t s : m_scratch) {
      m_released.push_back({Range{m_units[s].lba, m_units[s].end() - 1}, m_units[s].version});
    }
    m_kept.clear();
    for (uint32_t t = e.head; t != m_scratch.back(); t = m_units[t].next) m_kept.push_back(t);
    released += withdraw(leaf, e, work);
    for (const uint32_t s : m_scratch) {
      unlink(e, s);
      free_unit(s);
    }
    released += drop;
    add_nt(leaf, -static_cast<int64_t>(drop));
    if (e.length == 0) {
      entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  if (released == 0) return 0;
  m_nodes[leaf].at /= 2;
  if (m_nodes[leaf].entries.empty()) detach_empty(leaf);
  return released;
}

// --- invariants ---

void LmtTree::check_invariants() const {
  const auto fail = [](const std::string& what) { throw std::logic_error("LMT: " + what); };
  uint32_t nodes_seen = 0;
  uint64_t units_seen = 0;
  // (node, low, high): every range of the node must lie in [low, high].
  struct Visit {
    uint32_t node;
    Lun low;
    Lun high;
  };
  std::vector<Visit> stack{{m_root, 0, kNone}};
  while (!stack.empty()) {
    const Visit v = stack.back();
    stack.pop_back();
    const Node& n = m_nodes[v.node];
    ++nodes_seen;
    if (n.entries.size() > m_fanout) fail("a node holds more than FANOUT ranges");
    if (v.node != m_root && n.entries.empty()) fail("an empty node is kept");
    uint64_t nt = 0;
    for (size_t i = 0; i < n.entries.size(); ++i) {
      const Entry& e = n.entries[i];
      if (e.low > e.high) fail("a range ends before it starts");
      if (i > 0 && n.entries[i - 1].high >= e.low) fail("ranges overlap or are out of order");
      if (!within(e.low, e.high, v.low, v.high)) fail("a range lies outside its parent's");
      if (n.leaf) {
        uint32_t length = 0;
        uint32_t prev = kNone;
        for (uint32_t u = e.head; u != kNone; u = m_units[u].next) {
          const Unit& unit = m_units[u];
          if (unit.prev != prev) fail("a list's back links are wrong");
          if (unit.size == 0 || !within(unit.lba, unit.end() - 1, e.low, e.high))
            fail("a unit lies outside its list's range");
          prev = u;
          ++length;
        }
        if (prev != e.tail || length != e.length) fail("a list's tail or length is wrong");
        if (length == 0) fail("an empty list is kept");
        nt += length;
      } else {
        if (m_nodes[e.child].parent != v.node) fail("a child's parent link is wrong");
        nt += m_nodes[e.child].nt;
        stack.push_back({e.child, e.low, e.high});
      }
    }
    if (nt != n.nt) fail("NT does not count the units under the node");
    if (n.leaf) units_seen += nt;
  }
  if (nodes_seen != m_live_nodes) fail("the node count is wrong");
  if (units_seen != m_live_units) fail("the unit count is wrong");
}

}  // namespace ssd::ftl
