// VET, the Virtual Extent Trie (shared/papers/vet-emt-extent-mapping.md, sec. 2.2, 3, 5, 6.2.1;
// docs/vet.md). Extents are stored as canonical extents (aligned power-of-two runs), each a leaf
// of a binary trie over the logical address space. The trie is virtual: no node points to
// another; nodes are keys (canonical_extent.h) in a hash table (node_table.h), and internal nodes
// exist only so that a binary search on the trie's levels (Fig. 5, Algorithm 2) can find the
// leaf holding an address in O(log log |U|) probes. LIS (Algorithm 1) keeps every ancestor of a
// leaf; BIS (Algorithm 3) only the ancestors the binary search visits on its way to the leaf.
//
// Internal nodes are reference-counted (our addition, docs/vet.md): each counts the leaves that
// need it, so deleting a leaf removes the internal nodes no other leaf needs. That is the
// paper's "delete the subtree rooted at the node" (Alg. 1 line 5, Alg. 3 line 4, Fig. 4) and its
// elimination of a deleted leaf's ancestors (Lemma 5.2), without probing whole subtrees.
// Invariants: no node lies inside a leaf's range (other than the leaf itself); every internal
// node's count is the number of leaves that need it, never 0.
//
// PD-VET keeps the extent of a leaf in a separate record the leaf points to, PF-VET in the leaf
// itself (sec. 6.2.1, "Cache-aware implementation"). Translations are the same in every variant.
// What it leaves out: the trie is volatile (rebuilt from the spare areas like page mapping's
// table); neighbouring extents that continue each other are not merged.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ftl/core/flash_op.h"
#include "ftl/extent/extent_map.h"
#include "ftl/extent/vet/canonical_extent.h"
#include "ftl/extent/vet/hash_engine.h"
#include "ftl/extent/vet/node_table.h"
#include "ftl/extent/vet/vet_memory.h"

namespace ssd::ftl {

class AcceleratorTable;

enum class VetInsertion { kLis, kBis };
enum class VetLayout { kPointerDependent, kPointerFree };  // PD-VET, PF-VET
enum class VetHash { kChaining, kCuckoo };
// Where the node table lives: a software table (`hash`) or the hash-lookup accelerator
// (accelerator_table.h; rtl/README.md), which also answers one-address searches with its
// multi-level lookup.
enum class VetHashBackend { kSoftware, kAccelerator };

struct VetOptions {
  VetInsertion insertion = VetInsertion::kBis;
  VetLayout layout = VetLayout::kPointerFree;
  VetHash hash = VetHash::kChaining;  // software backend only
  VetHashBackend backend = VetHashBackend::kSoftware;
  // Accelerator backend: the engine to send commands to (empty; it must outlive the map), or,
  // when that is null, a maker whose engine the map owns (tests: rtl/model's reference model).
  // The FTL builds no engine of its own: rtl/ implements the interface, the FTL only uses it.
  HashEngine* engine = nullptr;
  std::function<std::unique_ptr<HashEngine>()> make_engine = nullptr;
};

enum class VetNodeKind : uint8_t { kInternal, kLeaf };

// A node as the tests see it.
struct VetNode {
  uint64_t key = 0;
  VetNodeKind kind = VetNodeKind::kInternal;
  uint32_t count = 0;  // internal: leaves that need it
  Extent extent;       // leaf: the extent its translation comes from (slot_of(unit) is right)
};

class VetMap final : public ExtentMap {
 public:
  VetMap(const ExtentSpace& space, const VetOptions& options, CpuWork& cpu);
  ~VetMap() override;

  void lookup(Lun lun, uint32_t length, std::vector<Extent>& found) override;
  uint32_t insert(const Extent& extent, std::vector<Extent>& displaced) override;
  uint32_t insert_unmapped(const Extent& extent) override;
  // With the software chaining table, the fill's nodes are loaded in bulk (node_table.h); other
  // tables take them one by one.
  void begin_ordered_fill(uint64_t extents) override;
  void end_ordered_fill() override;
  void erase(Lun lun, uint32_t length, std::vector<Extent>& displaced) override;
  SlotId slot_of(Lun lun) override;
  // On the accelerator: the binary search looking at the engine's table without commands.
  SlotId inspect_slot_of(Lun lun) override;

  // Table (with its overhead) + PD records, in the layout of vet_memory.h.
  uint64_t memory_bytes() const override;
  uint64_t pieces() const override { return m_leaves; }
  uint64_t nodes() const override { return m_table->size(); }

  const VetOptions& options() const { return m_options; }
  uint32_t universe_bits() const { return m_bits; }  // B
  const VetMemoryLayout& layout() const { return m_layout; }
  uint32_t node_bytes() const;
  uint64_t records() const { return m_records_used; }  // PD-VET extent records in use

  // --- for tests ---
  // Every node, by start and then from the largest level down (pre-order); not counted.
  std::vector<VetNode> node_set() const;
  // The node stored under `key` (counted as one find).
  bool node(uint64_t key, VetNode& node);
  // The keys a one-unit lookup of `lun` probes, in order (counted like slot_of).
  std::vector<uint64_t> search_path(Lun lun);
  // The depths where a leaf at `depth` has internal nodes: LIS every shallower depth, BIS the
  // shallower depths of its binary-search path.
  std::vector<uint32_t> marker_depths(uint32_t depth) const;
  // Checks the invariants and the counts against a recount from the leaves (PD records too);
  // "" when all hold, else what is wrong. Not counted; O(n log n).
  std::string check() const;
  NodeTable& table() { return *m_table; }

 private:
  struct Record {  // PD-VET: an extent the leaves point to
    Lun start;
    uint32_t length;
    SlotId slot;
    uint32_t refs;  // leaves pointing to it; 0 = free
  };
  // One entry of the search's explicit stack: search [start, end) for leaves of depth lo..hi,
  // or report a leaf already probed.
  struct Frame {
    uint64_t start;
    uint64_t end;
    int lo;
    int hi;
    bool report;
    uint64_t key;
    NodeValue value;
  };
  struct FoundLeaf {
    uint64_t key;
    NodeValue value;
  };

  static bool is_leaf(const NodeValue& v) { return v.w1 != 0; }
  bool probe(uint64_t key, NodeValue& value);
  // Alg. 2 for one unit (Fig. 5), looking keys up with `probe(key, value)`.
  template <typename Probe>
  SlotId binary_search(Lun lun, Probe&& probe);
  template <typename OnLeaf>
  void search(uint64_t start, uint64_t end, OnLeaf&& on_leaf);
  // Deletes every leaf meeting [start, end), appends the parts inside it to `displaced` and
  // stores again the parts outside it.
  void cut(uint64_t start, uint64_t end, std::vector<Extent>& displaced);
  // The leaves of `extent` (its canonical extents), their ancestors' counts raised; how many.
  uint32_t add_leaves(const Extent& extent);
  void check_extent(const Extent& extent) const;
  void add_leaf(const CanonicalExtent& piece, const NodeValue& leaf);
  // add_leaf() while the table loads in bulk.
  void load_leaf(const CanonicalExtent& piece, const NodeValue& leaf);
  void remove_leaf(uint64_t key);
  Extent leaf_extent(const NodeValue& leaf);
  uint32_t new_record(const Extent& extent);
  // A reference to record `r` for one more leaf: `r`, or a copy when its count is full.
  uint32_t acquire_record(uint32_t r);
  void release_record(uint32_t r);
  void check_range(uint64_t lun, uint64_t length) const;
  Extent extent_of(const NodeValue& leaf) const;                // not counted
  VetNode node_of(uint64_t key, const NodeValue& value) const;  // not counted

  ExtentSpace m_space;
  VetOptions m_options;
  CpuWork& m_cpu;
  uint32_t m_bits;
  VetMemoryLayout m_layout;
  std::unique_ptr<HashEngine> m_own_engine;  // accelerator backend without a given engine
  std::unique_ptr<NodeTable> m_table;
  AcceleratorTable* m_accelerator = nullptr;  // m_table, when it is the accelerator's
  // Marker depths of a leaf at depth d: m_marker_depths[m_marker_begin[d] .. m_marker_begin[d+1]).
  std::vector<uint8_t> m_marker_depths;
  std::vector<uint32_t> m_marker_begin;
  uint64_t m_leaves = 0;
  std::vector<Record> m_records;
  std::vector<uint32_t> m_free_records;
  uint64_t m_records_used = 0;
  // Scratch reused by every operation.
  std::vector<Frame> m_stack;
  std::vector<FoundLeaf> m_found;
  std::vector<Extent> m_nothing_displaced;   // insert_unmapped()'s on the accelerator (stays empty)
  std::vector<uint64_t>* m_trace = nullptr;  // search_path() records probes here
  // An ordered fill loading the table in bulk: per depth, the internal node loaded last there.
  struct LoadedMarker {
    uint64_t key;
    uint32_t handle;
  };
  bool m_loading = false;
  uint64_t m_loaded_end = 0;  // the end of the leaf loaded last
  std::vector<LoadedMarker> m_loaded_markers;
};

}  // namespace ssd::ftl
