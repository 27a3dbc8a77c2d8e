// NFTL (`--ftl nftl`), as section 4 of shared/papers/lmt-translation-caching.md describes it: each
// virtual block (logical block) has a primary block and at most one replacement block. A write
// goes to its fixed offset in the primary block while that page is free; a later write of the
// same unit goes to the next free page of the replacement block. A read searches the replacement
// block's spare areas backwards from its last written page (one timed spare-area read each) for
// the newest copy, then falls back to the primary block. When the replacement block is full the
// virtual block is folded: its newest pages are copied into a fresh block, which becomes the
// primary, and both old blocks are erased. When a plane's free pool falls below the GC reserve,
// the virtual block with the fullest replacement block there is folded.
//
// A translation cache (`ftl.nftl.cache`: LMT with WR or SCWR, or LRU; ftl/translation_cache/) may
// sit in front of the search: a read asks it first, and a hit needs no spare-area read. Every
// page NFTL writes or a fold moves is told to the cache, so it never answers with an old page.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "ftl/hybrid/block_recovery.h"
#include "ftl/hybrid/block_scheme.h"
#include "ftl/translation_cache/translation_cache.h"

namespace ssd::ftl {

class Nftl final : public BlockScheme {
 public:
  explicit Nftl(const SchemeContext& context);
  // Rebuilt after a power cut from the spare areas (nftl_recovery.cpp): each virtual block's
  // primary and replacement block; a fold the cut interrupted is done again; blocks nobody keeps
  // are erased. The translation cache starts empty.
  static std::unique_ptr<Nftl> recovered(const SchemeContext& context);

  // Per virtual block: primary and replacement block numbers and their next free pages; plus
  // the valid bitmap.
  // ... and the translation cache's threshold when there is one.
  uint64_t mapping_memory_bytes() const override;
  std::vector<MappingFigure> mapping_figures() const override;
  // Hits / lookups of the translation cache in the timed run; none without a cache or lookups.
  std::optional<double> cache_hit_ratio() const override;
  PageId peek(Lun lun) const override;
  uint32_t blocks_held() const override;

  BlockId primary(uint32_t vba) const { return m_chains[vba].primary; }
  BlockId replacement(uint32_t vba) const { return m_chains[vba].replacement; }
  const TranslationCache* cache() const { return m_cache.get(); }
  // Sampled aging's roles (describe_roles).
  enum AgedRoles : uint32_t { kPrimaryRole = 0, kReplacementRole = 1 };

 private:
  struct Chain {
    BlockId primary = kNone;
    BlockId replacement = kNone;
  };

  PageId locate(Lun lun, OpClass op_class, uint32_t& after) override;
  void write_units(uint32_t vba, uint32_t first, const Token* tokens, uint32_t count,
                   uint32_t after) override;
  void write_unit(uint32_t vba, uint32_t offset, Token token, uint32_t after);
  // A sequential fill in bulk: the block is the chain's primary. A translation cache would have
  // to learn every write, so there is no bulk fill with one.
  bool fills_in_bulk() const override { return m_cache == nullptr; }
  void map_filled_block(uint32_t vba, BlockId block) override { m_chains[vba].primary = block; }
  // Sampled aging: primary and replacement blocks as roles. Not with a translation cache, whose
  // state the aging leaves would have to be laid out too.
  bool ages_by_sampling() const override { return m_cache == nullptr; }
  void describe_roles(std::vector<AgedRole>& roles) const override;
  void adopt_aged_block(uint32_t vba, uint32_t role, BlockId block) override;

  // The newest copy of `lun` in the replacement block (the last readable page naming it: after a
  // power cut the last page may be torn), or kNone.
  PageId newest_in_replacement(BlockId replacement, Lun lun) const;
  // The backward spare-area search, timed (what a cache hit saves).
  PageId search(Lun lun, OpClass op_class, uint32_t& after);
  // A block for virtual block `vba` on its plane, folding others first while the pool is short;
  // `replacement`: one whose pages take units in arrival order (so marked in its spare areas).
  BlockId take_block(uint32_t vba, bool replacement = false);
  // Folds `vba` into a fresh block; `incoming` (offset, token, after) joins it when not kNone.
  void fold(uint32_t vba, uint32_t incoming_offset = kNone, Token incoming_token = 0,
            uint32_t incoming_after = kNone);
  void add_replacement(uint32_t vba, BlockId block);
  void drop_replacement(uint32_t vba);
  // The virtual block of `plane` with the fullest replacement block (ties: lowest), or kNone.
  uint32_t fold_victim(uint32_t plane) const;

  // Recovery (nftl_recovery.cpp).
  void rebuild();
  // Makes `blocks` (the virtual block's, oldest allocation first) its chain when they are one (a
  // primary, then at most one replacement) or when a fold the cut interrupted can be finished in
  // its fresh block; false when the fold must be done again into another block (refold).
  bool settle(uint32_t vba, const std::vector<NamedBlock>& blocks);
  void refold(uint32_t vba, const std::vector<NamedBlock>& blocks);
  // Marks valid the units of `vba` that have a readable copy where NFTL looks for it.
  void mark_chain_valid(uint32_t vba);
  // The newest readable copy of `lun` among `newest_first` (a replacement block's last page
  // naming it, a primary block's page at its offset), or kNone.
  PageId newest_among(const std::vector<NamedBlock>& newest_first, Lun lun) const;

  // The translation cache's work goes to the FTL processor; in the timed run it is also summed
  // here, by kind, for the report.
  enum class CacheCall { kInsert, kRelocate, kForget };
  void tell_cache(CacheCall call, Lun lun, PageId page, uint32_t count);
  PageId cache_lookup(Lun lun);

  struct CacheTotals {  // timed run only
    uint64_t lookups = 0;
    uint64_t hits = 0;
    uint64_t insertions = 0;
    CpuWork lookup_work;
    CpuWork insertion_work;
  };

  std::unique_ptr<TranslationCache> m_cache;
  bool m_fill_on_read;
  bool m_forget_on_fold;
  uint64_t m_cache_bytes;             // its threshold, 0 without a cache
  config::ControllerConfig m_prices;  // for the cache's figures in microseconds
  CacheTotals m_cache_totals;
  uint64_t m_search_spare_reads = 0;  // timed run: spare areas read to locate host data
  uint64_t m_searches = 0;            // timed run: locate() calls that searched flash

  std::vector<Chain> m_chains;                            // per virtual block
  std::vector<std::vector<uint32_t>> m_with_replacement;  // per plane: vbas that have one
  std::vector<uint32_t> m_position;                       // per vba: index in that list
  std::vector<PageId> m_newest;                           // fold(): newest copy per offset
};

}  // namespace ssd::ftl
