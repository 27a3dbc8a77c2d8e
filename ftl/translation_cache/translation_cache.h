// A cache of logical-to-physical translations in front of a block-level scheme's own search
// (NFTL's backward spare-area search: shared/papers/lmt-translation-caching.md, section 4). The
// scheme asks the cache first; a hit gives the page without touching flash. The scheme tells the
// cache about every page it writes, so the cache never answers with an old location. Nothing here
// knows which scheme it serves: addresses are logical units and flash pages.
//
// Two kinds (docs/schemes.md, "Translation caching"):
//  - LMT (lmt_tree.h): the paper's tree of translation nodes over LRU lists of range-mapping
//    translation units, under a memory threshold, with its WR or SCWR replacement;
//  - LRU (lru_translation_cache.h): the paper's baseline, one hash slot per logical address,
//    least recently used replaced first.
//
// The work each call does (node visits, list steps, hash probes, unit merges) is added to the
// CpuWork the caller passes, so the FTL processor prices it like any other mapping work.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "ftl/core/cpu_work.h"
#include "ftl/core/types.h"

namespace ssd::ftl {

// What a cache has done, for the report and the paper's tables 1 and 3.
struct TranslationCacheStats {
  uint64_t lookups = 0;
  uint64_t hits = 0;
  uint64_t insertions = 0;    // insert(), relocate() and forget() calls
  uint64_t replacements = 0;  // times the memory threshold made the cache release entries
  CpuWork lookup_work;        // the primitive work of all lookups together
  CpuWork insertion_work;     // of all insertions, their replacements included
};

class TranslationCache {
 public:
  virtual ~TranslationCache() = default;

  // The page holding logical unit `lun`, or kNone when the cache does not know it.
  virtual PageId lookup(Lun lun, CpuWork& work) = 0;
  // Units [lun, lun + count) were just written to pages [page, page + count): the newest copies.
  virtual void insert(Lun lun, PageId page, uint32_t count, CpuWork& work) = 0;
  // Units [lun, lun + count) were moved by garbage collection to [page, page + count). A cache
  // may take them as new entries or only correct the entries it holds; either way it must not
  // answer with their old pages afterwards.
  virtual void relocate(Lun lun, PageId page, uint32_t count, CpuWork& work) = 0;
  // Drops whatever the cache holds for units [lun, lun + count) (dropping is always safe: the
  // scheme's own search still finds them).
  virtual void forget(Lun lun, uint32_t count, CpuWork& work) = 0;

  // Bytes of controller memory the cache occupies now, by the paper's sizes; at most the
  // threshold it was built with, once a call has returned.
  virtual uint64_t memory_bytes() const = 0;
  const TranslationCacheStats& stats() const { return m_stats; }

 protected:
  TranslationCacheStats m_stats;
};

// How to build one (ftl.nftl.cache, ftl.nftl.cache_bytes, ftl.nftl.lmt_fanout).
struct TranslationCacheOptions {
  std::string kind = "none";  // none | lru | lmt-wr | lmt-scwr
  uint64_t bytes = 0;         // the memory threshold
  uint32_t fanout = 9;        // LMT: child ranges per translation node
};

// The cache `options` ask for, or nullptr for "none". Throws std::invalid_argument on an unknown
// kind or a threshold too small to hold the structure's least state (config validation refuses
// these first, naming the key).
std::unique_ptr<TranslationCache> make_translation_cache(const TranslationCacheOptions& options);
// The smallest threshold `options` can work with (one root node and one unit for LMT, one slot for
// LRU), for validation.
uint64_t minimum_cache_bytes(const TranslationCacheOptions& options);

}  // namespace ssd::ftl
