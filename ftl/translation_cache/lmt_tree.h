// LMT, the low-memory address-translation cache of shared/papers/lmt-translation-caching.md
// (section 5), as the paper lays it out:
//  - translation nodes (AT, NT, up to FANOUT child ranges [L, R]) form a B-tree-like index over
//    logical addresses; a leaf node's child ranges each head an LRU list of translation units;
//  - a translation unit (lba, pba, size, version) maps a run of logical units onto a run of
//    consecutive flash pages; `version` orders units by creation, so where two units of a list
//    overlap the newer one is right;
//  - a system counter stamps each new unit and each node access and counts one per operation;
//  - insertion walks from the root applying the paper's cases 1, 2, 3(a) and 3(b) at every node,
//    splits a node at FANOUT + 1 children, never merges half-empty nodes and removes empty ones;
//    in the leaf's list the new unit deletes the older units it covers and merges with an
//    adjacent one whose pages continue it (section 5.3.2);
//  - memory is counted with the paper's sizes (20-byte units; nodes of 128, 256 and 512 bytes for
//    FANOUT 9, 19 and 41) and kept under the threshold by WR or SCWR replacement (section 5.4).
//
// Choices where the paper is silent are marked "Choice:" below and listed in docs/schemes.md.
#pragma once

#include <cstdint>
#include <vector>

#include "ftl/translation_cache/translation_cache.h"

namespace ssd::ftl {

enum class LmtReplacement { kWeight, kSecondChance };  // WR, SCWR

class LmtTree final : public TranslationCache {
 public:
  static constexpr uint32_t kUnitBytes = 20;  // lba, pba, size, version, list link (the paper's)
  // The paper's node sizes: 12 bytes of AT and NT, 12 per child range (L, R, next), rounded up to
  // a power of two: 128, 256 and 512 bytes for FANOUT 9, 19 and 41.
  static uint32_t node_bytes(uint32_t fanout);

  LmtTree(uint64_t threshold_bytes, uint32_t fanout, LmtReplacement replacement);

  PageId lookup(Lun lun, CpuWork& work) override;
  void insert(Lun lun, PageId page, uint32_t count, CpuWork& work) override;
  // Choice: a fold rewrites the whole range, so it is inserted as one new unit, which removes
  // or trims every older unit in the range.
  void relocate(Lun lun, PageId page, uint32_t count, CpuWork& work) override {
    insert(lun, page, count, work);
  }
  // Removes the range from every node and unit it overlaps, as case 1 and case 3(b) would, and
  // cuts a unit around it to its larger side (only information is lost, never made wrong).
  void forget(Lun lun, uint32_t count, CpuWork& work) override;
  uint64_t memory_bytes() const override;

  // Introspection for tests and the report.
  uint32_t nodes() const { return m_live_nodes; }
  uint32_t units() const { return m_live_units; }
  uint32_t depth() const;
  uint64_t system_counter() const { return m_counter; }
  // Throws std::logic_error when a structural invariant is broken (ranges sorted and disjoint,
  // children inside their parent's range, units inside their list's range, NT and the counts
  // right, no node over FANOUT). For tests.
  void check_invariants() const;

 private:
  struct Unit {
    Lun lba = 0;
    PageId pba = 0;
    uint32_t size = 0;
    uint64_t version = 0;
    uint32_t prev = kNone;  // towards the head (more recently used)
    uint32_t next = kNone;
    Lun end() const { return lba + size; }  // one past the last unit
  };
  struct Entry {             // one child range (L, R, next) of a node
    Lun low = 0;             // L
    Lun high = 0;            // R, inclusive
    uint32_t child = kNone;  // internal node: the child node
    uint32_t head = kNone;   // leaf node: the LRU list of translation units
    uint32_t tail = kNone;
    uint32_t length = 0;
  };
  struct Node {
    uint64_t at = 0;  // AT: the system counter when it was last accessed
    uint64_t nt = 0;  // NT: translation units under it
    uint32_t parent = kNone;
    bool leaf = true;
    std::vector<Entry> entries;  // sorted by low, disjoint
  };
  struct Range {  // [low, high], inclusive like the paper's [L, R]
    Lun low;
    Lun high;
  };

  // --- structure ---
  uint32_t new_node(bool leaf, uint32_t parent);
  void free_node(uint32_t node);
  uint32_t new_unit(Lun lba, PageId pba, uint32_t size);
  void free_unit(uint32_t unit);
  void add_nt(uint32_t node, int64_t delta);  // on the node and every ancestor
  uint32_t entry_index(uint32_t parent, uint32_t child) const;
  Range bounds_of(uint32_t node) const;  // the union of its entries' ranges

  // --- lists ---
  void push_front(Entry& entry, uint32_t unit);
  void unlink(Entry& entry, uint32_t unit);
  void move_to_front(Entry& entry, uint32_t unit);
  // Cuts [low, high] out of `unit`, whose range must not strictly contain it; false when nothing
  // of the unit is left (the caller frees it).
  bool clip(uint32_t unit, Range cut);

  // --- insertion ---
  void insert_at(uint32_t node, uint32_t unit, CpuWork& work);
  void add_to_list(uint32_t node, size_t entry, uint32_t unit, CpuWork& work);
  void merge_neighbours(uint32_t node, size_t entry, uint32_t unit, CpuWork& work);
  // Drops every unit of the entry's subtree and the subtree's nodes (case 1).
  void remove_subtree(uint32_t node, size_t entry, CpuWork& work);
  // Takes [cut] out of the entry's range and everything under it (case 3(b)); erases the entry
  // when nothing is left. Returns whether the entry is still there.
  bool trim_entry(uint32_t node, size_t entry, Range cut, CpuWork& work);
  void forget_at(uint32_t node, Range range, CpuWork& work);
  void split_if_full(uint32_t node);
  // Removes `node` from its parent (and any ancestor left empty); the root stays, emptied.
  void detach_empty(uint32_t node);
  void refresh_parent_range(uint32_t node);

  // --- replacement ---
  void replace_until_under_threshold(CpuWork& work);
  // Fills m_leaves with the leaves that hold units, by W(N) = AT / NT, smallest first.
  void sort_leaves_by_weight(CpuWork& work);
  void release_leaf(uint32_t leaf, CpuWork& work);
  // SCWR: releases the second half of each of the leaf's lists after pruning and cutting the
  // first half against it; returns the units released.
  uint32_t release_second_halves(uint32_t leaf, CpuWork& work);
  // Takes the ranges of m_released out of the units of m_kept (in the leaf's list `e`) that are
  // older than them: prune, or cut to the larger side with the dropped side released too. Frees
  // the units left empty; returns how many.
  uint32_t withdraw(uint32_t leaf, Entry& e, CpuWork& work);

  uint64_t m_threshold;
  uint32_t m_fanout;
  uint32_t m_node_bytes;
  LmtReplacement m_replacement;
  uint64_t m_counter = 1;  // the system counter

  std::vector<Node> m_nodes;
  std::vector<uint32_t> m_free_nodes;
  std::vector<Unit> m_units;
  std::vector<uint32_t> m_free_units;
  uint32_t m_root;
  uint32_t m_live_nodes = 0;
  uint32_t m_live_units = 0;
  // Scratch of release_second_halves and forget, reused: Ω's units, the units that stay, and
  // the ranges leaving with the version that mapped them.
  struct Released {
    Range range;
    uint64_t version;
  };
  std::vector<uint32_t> m_leaves;  // sort_leaves_by_weight()'s order
  std::vector<uint32_t> m_walk;    // its traversal stack
  std::vector<uint32_t> m_scratch;
  std::vector<uint32_t> m_kept;
  std::vector<Released> m_released;
};

}  // namespace ssd::ftl
