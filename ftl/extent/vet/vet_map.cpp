#include "ftl/extent/vet/vet_map.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "ftl/extent/vet/accelerator_table.h"
#include "ftl/extent/vet/chaining_table.h"
#include "ftl/extent/vet/cuckoo_table.h"

namespace ssd::ftl {

namespace {

// NodeValue words (node_table.h): w1 == 0 marks an internal node, whose count is w0.
//   PF-VET leaf: w0 start, w1 length (> 0), w2 slot of the extent it translates by.
//   PD-VET leaf: w0 record index, w1 kPdLeaf (the type byte of the modelled layout).
constexpr uint32_t kPdLeaf = 1;

}  // namespace

VetMap::VetMap(const ExtentSpace& space, const VetOptions& options, CpuWork& cpu)
    : m_space(space),
      m_options(options),
      m_cpu(cpu),
      m_bits(vet_universe_bits(space.logical_units)),
      m_layout(VetMemoryLayout::make(space, m_bits)) {
  // Units are 32-bit (Lun); ends are computed in 64 bits.
  if (space.logical_units == 0 || space.logical_units > (uint64_t{1} << 32)) {
    throw std::invalid_argument("VET: logical units must be between 1 and 2^32");
  }
  if (options.backend == VetHashBackend::kAccelerator) {
    HashEngine* engine = options.engine;
    if (engine == nullptr && options.make_engine) {
      m_own_engine = options.make_engine();
      engine = m_own_engine.get();
    }
    if (engine == nullptr) {
      throw std::invalid_argument("VET: the accelerator backend needs a hash engine");
    }
    auto table = std::make_unique<AcceleratorTable>(*engine, cpu);
    m_accelerator = table.get();
    m_table = std::move(table);
  } else if (options.hash == VetHash::kCuckoo) {
    m_table = std::make_unique<CuckooTable>(cpu);
  } else {
    m_table = std::make_unique<ChainingTable>(cpu);
  }
  // Where each depth's leaves keep internal nodes (decisions 3 and 4 of docs/vet.md).
  m_marker_begin.push_back(0);
  for (uint32_t depth = 0; depth <= m_bits; ++depth) {
    for (uint32_t x : marker_depths(depth)) m_marker_depths.push_back(static_cast<uint8_t>(x));
    m_marker_begin.push_back(static_cast<uint32_t>(m_marker_depths.size()));
  }
}

VetMap::~VetMap() = default;

std::vector<uint32_t> VetMap::marker_depths(uint32_t depth) const {
  std::vector<uint32_t> depths;
  if (m_options.insertion == VetInsertion::kLis) {
    for (uint32_t x = 0; x < depth; ++x) depths.push_back(x);
  } else {
    for (uint32_t x : vet_search_path(depth, m_bits)) {
      if (x < depth) depths.push_back(x);
    }
    std::sort(depths.begin(), depths.end());
  }
  return depths;
}

uint32_t VetMap::node_bytes() const {
  return m_options.layout == VetLayout::kPointerFree ? m_layout.pf_node_bytes
                                                     : m_layout.pd_node_bytes;
}

uint64_t VetMap::memory_bytes() const {
  uint64_t bytes = m_table->memory_bytes(node_bytes());
  if (m_options.layout == VetLayout::kPointerDependent) {
    bytes += m_records_used * m_layout.pd_record_bytes;
  }
  return bytes;
}

void VetMap::check_range(uint64_t lun, uint64_t length) const {
  if (lun + length > m_space.logical_units) {
    throw std::out_of_range("VET: units [" + std::to_string(lun) + ", " +
                            std::to_string(lun + length) + ") beyond the " +
                            std::to_string(m_space.logical_units) + " logical units");
  }
}

bool VetMap::probe(uint64_t key, NodeValue& value) {
  if (m_trace != nullptr) m_trace->push_back(key);
  return m_table->find(key, value);
}

// Algorithm 2 over a range. The paper's search key stack becomes a stack of frames "find the
// leaves meeting [start, end) whose depth lies in [lo, hi]"; the top frame is always the leftmost
// part not yet resolved, so leaves come out in ascending order. A frame probes the key at depth
// mid = (lo + hi) / 2 holding its first unit:
//   leaf      report it; the rest of the frame keeps [lo, hi].
//   internal  every leaf meeting the key is deeper (no node lies inside a leaf): search the key's
//             part at [mid + 1, hi].
//   absent    every leaf meeting the key is shallower (a deeper leaf whose search passes this
//             frame would have its marker here); probe the following keys at mid while they are
//             absent and search the whole run once at [lo, mid - 1], so holes cost no per-unit
//             probes and no shallower key is probed twice for neighbouring absent keys.
// For one unit this is exactly the binary search on levels (Fig. 5).
// With the accelerator, a frame over all depths first asks the engine's multi-level lookup (the
// same binary search, in one command) for the leaf holding its first unit; when it finds none
// (a hole, or a node on the path kept in software after a bucket overflowed), the frame is
// searched probe by probe as above, which also finds where a hole ends; a one-unit frame whose
// search the engine could do completely (nothing in software) is simply unmapped.
template <typename OnLeaf>
void VetMap::search(uint64_t start, uint64_t end, OnLeaf&& on_leaf) {
  m_stack.clear();
  m_stack.push_back(Frame{start, end, 0, static_cast<int>(m_bits), false, 0, {}});
  while (!m_stack.empty()) {
    const Frame f = m_stack.back();
    m_stack.pop_back();
    if (f.report) {
      on_leaf(f.key, f.value);
      continue;
    }
    if (f.lo > f.hi) continue;  // no leaf can meet this part: it is unmapped
    if (m_accelerator != nullptr && f.lo == 0 && f.hi == static_cast<int>(m_bits) &&
        m_trace == nullptr) {
      const MultiLevelAnswer answer = m_accelerator->multi_level_lookup(f.start, m_bits);
      if (answer.outcome == MultiLevelAnswer::kLeaf) {
        const uint64_t leaf_end = vet_key_end(answer.key);
        if (leaf_end < f.end) m_stack.push_back(Frame{leaf_end, f.end, f.lo, f.hi, false, 0, {}});
        on_leaf(answer.key, answer.value);
        continue;
      }
      // A one-unit part the engine has searched completely is unmapped.
      if (answer.outcome == MultiLevelAnswer::kNoLeaf && f.end == f.start + 1) continue;
    }
    const int mid = (f.lo + f.hi) / 2;
    const uint32_t level = m_bits - static_cast<uint32_t>(mid);
    uint64_t key = vet_key(f.start, level);
    uint64_t key_end = vet_key_end(key);
    NodeValue value;
    if (probe(key, value)) {
      if (key_end < f.end) m_stack.push_back(Frame{key_end, f.end, f.lo, f.hi, false, 0, {}});
      if (is_leaf(value)) {
        on_leaf(key, value);
      } else {
        m_stack.push_back(Frame{f.start, std::min(key_end, f.end), mid + 1, f.hi, false, 0, {}});
      }
      continue;
    }
    uint64_t run_end = std::min(key_end, f.end);
    while (run_end < f.end) {
      key = vet_key(run_end, level);
      key_end = run_end + (uint64_t{1} << level);
      if (!probe(key, value)) {
        run_end = std::min(key_end, f.end);
        continue;
      }
      // The run ends at a stored key: its part, then the rest, follow the run.
      if (key_end < f.end) m_stack.push_back(Frame{key_end, f.end, f.lo, f.hi, false, 0, {}});
      if (is_leaf(value)) {
        m_stack.push_back(Frame{run_end, run_end, 0, 0, true, key, value});
      } else {
        m_stack.push_back(Frame{run_end, std::min(key_end, f.end), mid + 1, f.hi, false, 0, {}});
      }
      break;
    }
    m_stack.push_back(Frame{f.start, run_end, f.lo, mid - 1, false, 0, {}});
  }
}

Extent VetMap::extent_of(const NodeValue& leaf) const {
  if (m_options.layout == VetLayout::kPointerFree) return Extent{leaf.w0, leaf.w1, leaf.w2};
  const Record& r = m_records[leaf.w0];
  return Extent{r.start, r.length, r.slot};
}

Extent VetMap::leaf_extent(const NodeValue& leaf) {
  // PD-VET: following the leaf's pointer is one more memory access (the pointer chase the
  // paper's PF-VET avoids), priced as a direct-indexed table access.
  if (m_options.layout == VetLayout::kPointerDependent) ++m_cpu.table_lookups;
  return extent_of(leaf);
}

uint32_t VetMap::new_record(const Extent& extent) {
  ++m_cpu.table_lookups;
  uint32_t r;
  if (!m_free_records.empty()) {
    r = m_free_records.back();
    m_free_records.pop_back();
  } else {
    r = static_cast<uint32_t>(m_records.size());
    m_records.emplace_back();
  }
  m_records[r] = Record{extent.lun, extent.length, extent.slot, 0};
  ++m_records_used;
  return r;
}

uint32_t VetMap::acquire_record(uint32_t r) {
  if (m_records[r].refs >= VetMemoryLayout::kMaxRecordRefs) {
    const Record& full = m_records[r];
    r = new_record(Extent{full.start, full.length, full.slot});
  }
  ++m_cpu.table_lookups;
  ++m_records[r].refs;
  return r;
}

void VetMap::release_record(uint32_t r) {
  ++m_cpu.table_lookups;
  if (--m_records[r].refs == 0) {
    m_free_records.push_back(r);
    --m_records_used;
  }
}

// Stores one canonical extent: first the internal nodes it needs (LIS: every ancestor, Alg. 1
// lines 10-12; BIS: the ancestors on its binary-search path, Alg. 3 line 3), then the leaf.
// Overlapped leaves were deleted before (cut), which is Alg. 1 line 11 and Alg. 3 line 2; with
// them went every internal node inside the new leaf (their counts reached 0), which is Alg. 1
// line 5 and Alg. 3 line 4. So an ancestor found here is internal and the leaf's key is free.
void VetMap::add_leaf(const CanonicalExtent& piece, const NodeValue& leaf) {
  if (m_loading) {
    load_leaf(piece, leaf);
    return;
  }
#ifndef NDEBUG
  // Debug builds: no stored leaf may meet the new one (not counted; the algorithm knows it).
  // Searched before the markers go in: a marker inside a leaf would hide the leaf. Not with the
  // accelerator, whose commands would take simulated time.
  if (m_accelerator == nullptr) {
    const uint64_t probes = m_cpu.hash_probes;
    bool met = false;
    search(piece.start, piece.end(), [&](uint64_t, const NodeValue&) { met = true; });
    m_cpu.hash_probes = probes;
    if (met) throw std::logic_error("VET: a new leaf meets a stored one");
  }
#endif
  const uint32_t depth = m_bits - piece.level;
  for (uint32_t i = m_marker_begin[depth]; i < m_marker_begin[depth + 1]; ++i) {
    // Inserted with count 1 when absent. A leaf there would contain the new one: the table
    // refuses to count it (std::logic_error), which cannot happen after cut().
    m_table->adjust_count(vet_key(piece.start, m_bits - m_marker_depths[i]), +1);
  }
  m_table->insert(piece.key(), leaf);
  ++m_leaves;
}

// The leaves of an ordered fill come in ascending order, and each internal node's range holds the
// leaves that need it, one run of them: so a node that is not the one its depth loaded last is
// new, and is loaded with count 1 where adjust_count() would have inserted it.
void VetMap::load_leaf(const CanonicalExtent& piece, const NodeValue& leaf) {
  if (piece.start < m_loaded_end) {
    throw std::logic_error("VET: an ordered fill's extent starts before the end of the one before");
  }
  m_loaded_end = piece.end();
  const uint32_t depth = m_bits - piece.level;
  for (uint32_t i = m_marker_begin[depth]; i < m_marker_begin[depth + 1]; ++i) {
    const uint32_t marker_depth = m_marker_depths[i];
    const uint64_t key = vet_key(piece.start, m_bits - marker_depth);
    LoadedMarker& last = m_loaded_markers[marker_depth];
    if (last.key == key) {
      ++m_table->loaded_value(last.handle).w0;
    } else {
      last = {key, m_table->load(key, NodeValue{1, 0, 0})};
    }
  }
  m_table->load(piece.key(), leaf);
  ++m_leaves;
}

void VetMap::begin_ordered_fill(uint64_t extents) {
  // Room for two nodes an extent: the leaf of an aligned one and internal nodes shared by many
  // leaves (a fill of 8-unit extents makes 1.06 nodes an extent), and what is left for the run
  // after it before the pool grows (growing copies it into twice its room).
  if (m_table->size() != 0 || !m_table->begin_load(2 * extents)) return;
  m_loading = true;
  m_loaded_end = 0;
  m_loaded_markers.assign(m_bits + 1, LoadedMarker{~uint64_t{0}, 0});  // no key is all ones
}

void VetMap::end_ordered_fill() {
  if (!m_loading) return;
  m_loading = false;
  m_loaded_markers = std::vector<LoadedMarker>();
  m_table->end_load();
}

// Deletes a leaf and takes it off the count of each internal node it needed; those no leaf needs
// any more go (Lemma 5.2's elimination of ancestors).
void VetMap::remove_leaf(uint64_t key) {
  if (!m_table->erase(key)) throw std::logic_error("VET: deleting a leaf that is not stored");
  --m_leaves;
  const uint32_t level = vet_key_level(key);
  const uint64_t start = vet_key_start(key);
  const uint32_t depth = m_bits - level;
  for (uint32_t i = m_marker_begin[depth]; i < m_marker_begin[depth + 1]; ++i) {
    m_table->adjust_count(vet_key(start, m_bits - m_marker_depths[i]), -1);  // gone at 0
  }
}

// The update of sec. 3.1: find the overlapped leaves (Algorithm 2), delete each, and store again
// the valid remainder of a partly overlapped one as canonical extents (Fig. 3: e2 -> e5). A
// remainder keeps translating by the extent its leaf had (PF: the same words; PD: the same
// record), where the paper makes a new extent e5 for it: the translation p + (unit - s) is
// unchanged, and nothing else reads a record (docs/vet.md).
void VetMap::cut(uint64_t start, uint64_t end, std::vector<Extent>& displaced) {
  m_found.clear();
  search(start, end, [this](uint64_t key, const NodeValue& v) { m_found.push_back({key, v}); });
  const bool pd = m_options.layout == VetLayout::kPointerDependent;
  for (const FoundLeaf& leaf : m_found) {
    const uint64_t leaf_start = vet_key_start(leaf.key);
    const uint64_t leaf_end = vet_key_end(leaf.key);
    const Extent source = leaf_extent(leaf.value);
    const uint64_t first = std::max(leaf_start, start);
    const uint64_t last = std::min(leaf_end, end);
    displaced.push_back(Extent{static_cast<Lun>(first), static_cast<uint32_t>(last - first),
                               source.slot_of(static_cast<Lun>(first))});
    remove_leaf(leaf.key);
    NodeValue keep = leaf.value;
    auto store = [&](const CanonicalExtent& piece) {
      if (pd) keep.w0 = acquire_record(keep.w0);
      add_leaf(piece, keep);
    };
    if (leaf_start < start) for_each_canonical(leaf_start, start - leaf_start, store);
    if (leaf_end > end) for_each_canonical(end, leaf_end - end, store);
    // Only now: the remainders may still need the record.
    if (pd) release_record(leaf.value.w0);
  }
}

void VetMap::lookup(Lun lun, uint32_t length, std::vector<Extent>& found) {
  check_range(lun, length);
  if (length == 0) return;
  const uint64_t end = uint64_t{lun} + length;
  search(lun, end, [&](uint64_t key, const NodeValue& v) {
    const Extent source = leaf_extent(v);
    const uint64_t first = std::max<uint64_t>(vet_key_start(key), lun);
    const uint64_t last = std::min(vet_key_end(key), end);
    found.push_back(Extent{static_cast<Lun>(first), static_cast<uint32_t>(last - first),
                           source.slot_of(static_cast<Lun>(first))});
  });
}

// The binary search on levels for one address (Fig. 5): what search() does for a one-unit
// range, without its stack.
SlotId VetMap::slot_of(Lun lun) {
  check_range(lun, 1);
  if (m_accelerator != nullptr && m_trace == nullptr) {  // one command first, as in search()
    const MultiLevelAnswer answer = m_accelerator->multi_level_lookup(lun, m_bits);
    if (answer.outcome == MultiLevelAnswer::kLeaf) return leaf_extent(answer.value).slot_of(lun);
    if (answer.outcome == MultiLevelAnswer::kNoLeaf) return kNone;
  }
  return binary_search(lun, [&](uint64_t key, NodeValue& value) { return probe(key, value); });
}

SlotId VetMap::inspect_slot_of(Lun lun) {
  if (m_accelerator == nullptr) return slot_of(lun);
  check_range(lun, 1);
  return binary_search(
      lun, [&](uint64_t key, NodeValue& value) { return m_accelerator->peek(key, value); });
}

template <typename Probe>
SlotId VetMap::binary_search(Lun lun, Probe&& probe) {
  int lo = 0, hi = static_cast<int>(m_bits);
  while (lo <= hi) {
    const int mid = (lo + hi) / 2;
    const uint64_t key = vet_key(lun, m_bits - static_cast<uint32_t>(mid));
    NodeValue value;
    if (!probe(key, value)) {
      hi = mid - 1;
    } else if (is_leaf(value)) {
      return leaf_extent(value).slot_of(lun);
    } else {
      lo = mid + 1;
    }
  }
  return kNone;
}

uint32_t VetMap::insert(const Extent& extent, std::vector<Extent>& displaced) {
  check_extent(extent);
  if (extent.length == 0) return 0;
  cut(extent.lun, uint64_t{extent.lun} + extent.length, displaced);
  return add_leaves(extent);
}

uint32_t VetMap::insert_unmapped(const Extent& extent) {
  if (m_accelerator != nullptr) {  // its searches are commands to the accelerator: all kept
    m_nothing_displaced.clear();
    return insert(extent, m_nothing_displaced);
  }
  check_extent(extent);
  return extent.length == 0 ? 0 : add_leaves(extent);
}

void VetMap::check_extent(const Extent& extent) const {
  check_range(extent.lun, extent.length);
  if (extent.length != 0 &&
      (extent.slot == kNone || uint64_t{extent.slot} + extent.length > kNone)) {
    throw std::invalid_argument("VET: the extent's slots run past the 32-bit slot space");
  }
}

uint32_t VetMap::add_leaves(const Extent& extent) {
  NodeValue leaf;
  if (m_options.layout == VetLayout::kPointerFree) {
    leaf = NodeValue{extent.lun, extent.length, extent.slot};
  } else {
    leaf = NodeValue{new_record(extent), kPdLeaf, 0};
  }
  uint32_t pieces = 0;
  for_each_canonical(extent.lun, extent.length, [&](const CanonicalExtent& piece) {
    if (m_options.layout == VetLayout::kPointerDependent) leaf.w0 = acquire_record(leaf.w0);
    add_leaf(piece, leaf);
    ++pieces;
  });
  return pieces;
}

void VetMap::erase(Lun lun, uint32_t length, std::vector<Extent>& displaced) {
  check_range(lun, length);
  if (length == 0) return;
  cut(lun, uint64_t{lun} + length, displaced);
}

// --- for tests ---

VetNode VetMap::node_of(uint64_t key, const NodeValue& v) const {
  VetNode n;
  n.key = key;
  if (is_leaf(v)) {
    n.kind = VetNodeKind::kLeaf;
    n.extent = extent_of(v);
  } else {
    n.count = v.w0;
  }
  return n;
}

std::vector<VetNode> VetMap::node_set() const {
  std::vector<VetNode> nodes;
  m_table->for_each([&](uint64_t key, const NodeValue& v) { nodes.push_back(node_of(key, v)); });
  std::sort(nodes.begin(), nodes.end(), [](const VetNode& a, const VetNode& b) {
    const uint64_t sa = vet_key_start(a.key), sb = vet_key_start(b.key);
    if (sa != sb) return sa < sb;
    return vet_key_level(a.key) > vet_key_level(b.key);
  });
  return nodes;
}

bool VetMap::node(uint64_t key, VetNode& n) {
  NodeValue v;
  if (!m_table->find(key, v)) return false;
  n = node_of(key, v);
  return true;
}

std::vector<uint64_t> VetMap::search_path(Lun lun) {
  std::vector<uint64_t> keys;
  m_trace = &keys;
  slot_of(lun);
  m_trace = nullptr;
  return keys;
}

std::string VetMap::check() const {
  const std::vector<VetNode> nodes = node_set();
  if (nodes.size() != m_table->size()) return "the table visits a different number of entries";
  std::vector<const VetNode*> leaves;
  std::unordered_map<uint64_t, uint32_t> needed;  // internal key -> leaves that need it
  for (const VetNode& n : nodes) {
    if (n.kind != VetNodeKind::kLeaf) continue;
    leaves.push_back(&n);
    const std::string name = "leaf " + vet_key_string(n.key, m_bits);
    if (vet_key_level(n.key) > m_bits || vet_key_end(n.key) > m_space.logical_units) {
      return name + " lies outside the logical units";
    }
    if (n.extent.length == 0 || vet_key_start(n.key) < n.extent.lun ||
        vet_key_end(n.key) > uint64_t{n.extent.lun} + n.extent.length) {
      return name + " lies outside the extent it translates by";
    }
    const uint32_t depth = m_bits - vet_key_level(n.key);
    for (uint32_t i = m_marker_begin[depth]; i < m_marker_begin[depth + 1]; ++i) {
      ++needed[vet_key(vet_key_start(n.key), m_bits - m_marker_depths[i])];
    }
  }
  if (leaves.size() != m_leaves) return "the leaf count is wrong";
  // Leaves are disjoint (node_set sorts by start).
  for (size_t i = 1; i < leaves.size(); ++i) {
    if (vet_key_end(leaves[i - 1]->key) > vet_key_start(leaves[i]->key)) {
      return "leaves " + vet_key_string(leaves[i - 1]->key, m_bits) + " and " +
             vet_key_string(leaves[i]->key, m_bits) + " overlap";
    }
  }
  for (const VetNode& n : nodes) {
    const std::string name = vet_key_string(n.key, m_bits);
    // The leaf holding the node's first unit, if any, must be the node itself or inside it.
    const uint64_t s = vet_key_start(n.key);
    auto after =
        std::upper_bound(leaves.begin(), leaves.end(), s,
                         [](uint64_t u, const VetNode* l) { return u < vet_key_start(l->key); });
    if (after != leaves.begin()) {
      const VetNode* l = *std::prev(after);
      if (l != &n && s < vet_key_end(l->key) && vet_key_level(n.key) <= vet_key_level(l->key)) {
        return "node " + name + " lies inside leaf " + vet_key_string(l->key, m_bits);
      }
    }
    if (n.kind == VetNodeKind::kLeaf) continue;
    auto it = needed.find(n.key);
    const uint32_t want = it == needed.end() ? 0 : it->second;
    if (n.count != want) {
      return "internal node " + name + " counts " + std::to_string(n.count) + " leaves, " +
             std::to_string(want) + " need it";
    }
    needed.erase(n.key);
  }
  if (!needed.empty()) {
    return "internal node " + vet_key_string(needed.begin()->first, m_bits) + " is missing";
  }
  if (m_options.layout == VetLayout::kPointerDependent) {
    uint64_t used = 0, dangling = 0;
    std::vector<uint32_t> refs(m_records.size(), 0);
    m_table->for_each([&](uint64_t, const NodeValue& v) {
      if (!is_leaf(v)) return;
      if (v.w0 < refs.size()) {
        ++refs[v.w0];
      } else {
        ++dangling;
      }
    });
    if (dangling > 0) return "a leaf points past the records";
    for (size_t r = 0; r < m_records.size(); ++r) {
      if (refs[r] != m_records[r].refs) {
        return "record " + std::to_string(r) + " counts " + std::to_string(m_records[r].refs) +
               " leaves, " + std::to_string(refs[r]) + " point to it";
      }
      if (refs[r] > VetMemoryLayout::kMaxRecordRefs) return "a record's count overflows its byte";
      if (refs[r] > 0) ++used;
    }
    if (used != m_records_used) return "the count of records in use is wrong";
  }
  return "";
}

}  // namespace ssd::ftl
