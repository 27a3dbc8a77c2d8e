// The DRAM write buffer in front of the FTL (paper section 3 and figure 3): recently written data
// at page granularity (a page = the FTL's mapping unit), least recently used first out. A write to
// a page already buffered merges into it (a hit), so sub-page writes to one page can become one
// full-page write. The buffer only keeps data; what happens to a victim (to the sector log when
// sub-page, to the FTL when full) is the layer's business (sector_layer.h).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "ftl/core/types.h"
#include "ftl/sector_log/token_pool.h"

namespace ssd::ftl {

class WriteBuffer {
 public:
  struct Victim {
    Lun lpn;
    uint64_t sectors;           // dirty sectors
    std::vector<Token> tokens;  // per sector of the unit (meaningful where dirty)
  };

  explicit WriteBuffer(uint32_t sectors_per_unit);

  // Writes `sectors` of `lpn` (`tokens[s]` for each sector s of the mask). True when the page was
  // buffered already (a hit). The page becomes the most recently used.
  bool write(Lun lpn, uint64_t sectors, const Token* tokens);
  // Dirty sectors of `lpn` (0 when not buffered) and their tokens.
  uint64_t sectors(Lun lpn) const;
  const Token* tokens(Lun lpn) const;
  // Takes out the least recently used page into `victim` (its token storage reused, so an
  // eviction allocates nothing once `victim` has held a page).
  void evict_oldest(Victim& victim);
  // Drops `lpn` (trimmed).
  void drop(Lun lpn);

  uint64_t pages() const { return m_index.size(); }
  bool empty() const { return m_index.empty(); }

 private:
  struct Entry {
    Lun lpn;
    uint64_t sectors;
    uint32_t tokens;  // TokenPool index
    uint32_t older;   // towards the least recently used
    uint32_t newer;
  };
  void unlink(uint32_t entry);
  void push_newest(uint32_t entry);
  void release(uint32_t entry);

  uint32_t m_sectors_per_unit;
  TokenPool m_pool;
  std::vector<Entry> m_entries;
  std::vector<uint32_t> m_free;
  std::unordered_map<Lun, uint32_t> m_index;
  uint32_t m_oldest = kNone;
  uint32_t m_newest = kNone;
};

}  // namespace ssd::ftl
