// The balanced binary search tree under EMT (shared/papers/vet-emt-extent-mapping.md, sec. 5.3:
// "we have opted to use a standard balanced binary search tree"): a red-black tree with parent
// pointers whose key is an extent's first logical unit and whose data is its length and first
// slot. It offers what EMT asks of its structure (sec. 4): search, insert, delete, and
// predecessor / successor, the latter stepping from a node in hand, as sec. 6.2.2 says the
// authors' code did ("thanks to a node pointer exploited by successor or predecessor").
//
// Why red-black rather than AVL: the authors wrote C on Linux and took a tree "due to
// availability of code"; the red-black tree with parent pointers is the one such code most often
// is (Linux's rbtree, BSD's sys/tree.h, std::map), and EMT is a write-heavy user of its tree (a
// write deletes every extent it overlaps and inserts up to three), where red-black trees need at
// most two rotations per insertion and three per deletion, while AVL deletions may rotate at
// every level. The price is a looser height bound (2 log2(n + 1) against AVL's ~1.44 log2 n).
//
// Nodes live in one pool (two parallel arrays) indexed by uint32 (index 0 is the black nil
// sentinel); erased nodes go on a free list, so nothing is allocated per operation except when
// the pool grows. Deletion relinks nodes rather than copying keys between them, so a node index
// stays valid, and keeps its extent, until that node itself is erased: EMT holds the successor
// while it deletes.
//
// Every node an operation visits is counted in CpuWork::tree_nodes (docs/emt.md lists the exact
// rule). What it leaves out: the tree knows nothing about overlap; EmtMap keeps extents disjoint.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ftl/core/flash_op.h"
#include "ftl/core/populate_ahead.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

class ExtentTree {
 public:
  static constexpr uint32_t kNil = 0;  // "no node"

  // The answer to predecessor(key + 0.001) (sec. 4, Algorithms 4 and 5, line 2): the last node
  // whose start is <= key, and the first node whose start is > key (its successor), both found on
  // the same root-to-leaf descent, at no extra cost.
  struct Bracket {
    uint32_t at_or_below = kNil;
    uint32_t above = kNil;
  };

  explicit ExtentTree(CpuWork& cpu);

  // The node whose start is exactly `key`, or kNil (stops at the match).
  uint32_t find(Lun key);
  // Descends from the root to a leaf as a search for key + 0.001 does (never stops early: no node
  // has that key).
  Bracket bracket(Lun key);
  // Adds a node; `start` must not be in the tree (std::logic_error otherwise). Returns it.
  uint32_t insert(Lun start, uint32_t length, SlotId slot);
  // insert() of a node whose start is above every start in the tree, without the descent: it
  // hangs under the largest node, which the tree knows while no erase removed it. The same tree
  // as insert() makes; its descent is not counted (for untimed work: a sequential fill).
  // `start` at or below the largest start: insert().
  uint32_t append(Lun start, uint32_t length, SlotId slot);
  // A run of append() calls into a tree never used before, linked at once (a sequential fill):
  // between the two calls the caller makes only append() calls, each start above the one
  // before (std::logic_error otherwise), and asks nothing else of the tree. append() then only
  // stores the node; end_appends() links them all into the very tree the appends one by one
  // build, in one pass (link_ascending). Nothing is counted. On a tree that has held a node the
  // appends are made one by one, as without the calls (a freed node would be reused out of
  // order).
  void begin_appends();
  void end_appends();
  // Room for `nodes` more nodes without the pool growing (growing by doubling copies the pool and
  // faults in twice its pages; room not used costs address space only). Only a help: room the
  // allocator refuses is not taken.
  void reserve_more(uint64_t nodes);
  // Removes `node` (a live node). Other nodes keep their index.
  void erase(uint32_t node);
  // In-order neighbours of a live node, or kNil.
  uint32_t successor(uint32_t node);
  uint32_t predecessor(uint32_t node);
  // Smallest and largest start, or kNil when empty.
  uint32_t first();
  uint32_t last();

  // A node's fields (reading them is not counted: the operation that reached the node was).
  Lun start(uint32_t n) const { return m_links[n].start; }
  uint32_t length(uint32_t n) const { return m_data[n].length; }
  SlotId slot(uint32_t n) const { return m_data[n].slot; }
  uint64_t end(uint32_t n) const { return uint64_t{m_links[n].start} + m_data[n].length; }
  uint32_t left(uint32_t n) const { return m_links[n].left; }
  uint32_t right(uint32_t n) const { return m_links[n].right; }
  uint32_t parent(uint32_t n) const { return m_links[n].parent_red & kIndexMask; }
  bool red(uint32_t n) const { return (m_links[n].parent_red & kRedBit) != 0; }

  uint32_t size() const { return m_size; }
  uint32_t root() const { return m_root; }

  // --- for tests; none of these counts ---
  // Nodes on the longest root-to-leaf path (0 when empty).
  uint32_t height() const;
  // Checks the search order, the parent links, the red-black rules (no red node has a red child,
  // every root-to-nil path has the same number of black nodes, the root is black) and the size.
  // Returns an empty string when all hold, otherwise what failed.
  std::string check() const;

 private:
  // The simulator's own layout, tuned for the host's caches rather than the modelled controller
  // (whose layout docs/emt.md gives): what descents and rebalancing read, 16 bytes with the
  // colour in the parent word's top bit as Linux's rbtree keeps it, apart from the extent data
  // they do not.
  static constexpr uint32_t kRedBit = 1u << 31;
  static constexpr uint32_t kIndexMask = kRedBit - 1;
  struct Links {
    Lun start = 0;
    uint32_t left = kNil;
    uint32_t right = kNil;
    uint32_t parent_red = kNil;  // parent index | kRedBit; the free-list link of an unused node
  };
  struct Data {
    uint32_t length = 0;
    SlotId slot = kNone;
  };

  void set_parent(uint32_t n, uint32_t p) {
    m_links[n].parent_red = (m_links[n].parent_red & kRedBit) | p;
  }
  void set_red(uint32_t n, bool red) {
    m_links[n].parent_red = (m_links[n].parent_red & kIndexMask) | (red ? kRedBit : 0);
  }
  void visit(uint32_t n) {
    if (n != kNil) ++m_cpu.tree_nodes;
  }
  uint32_t allocate();
  void release(uint32_t n);
  void rotate_left(uint32_t x);
  void rotate_right(uint32_t x);
  void insert_fixup(uint32_t z);
  void link_ascending();
  void link_perfect(uint32_t first, uint32_t height, uint32_t parent, bool red_top);
  void transplant(uint32_t u, uint32_t v);
  void erase_fixup(uint32_t x);

  CpuWork& m_cpu;
  std::vector<Links> m_links;  // [0] is the nil sentinel
  std::vector<Data> m_data;    // parallel to m_links
  uint32_t m_root = kNil;
  uint32_t m_free = kNil;  // first unused node, linked through parent_red
  uint32_t m_size = 0;
  uint32_t m_last = kNil;    // the node with the largest start; kNil: not known (or empty)
  bool m_deferring = false;  // between begin_appends() and end_appends(), nodes unlinked
  std::unique_ptr<PopulateAhead> m_populate;  // the pools' pages, while deferring
};

}  // namespace ssd::ftl
