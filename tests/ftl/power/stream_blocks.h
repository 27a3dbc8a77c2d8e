// What each write stream of a page store is writing, for the tests that a power-cut recovery (or
// sampled aging's layout) gives every stream back its own block (PageStore::stream_of).
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "ftl/core/flash_array.h"
#include "ftl/core/page_store.h"
#include "ftl/core/stream_code.h"

namespace ssd::testing {

// Per stream of `codes`, plane by plane: the block the stream writes there when that block is
// partly programmed, else kNone (a stream with no block there, or one whose block is empty or
// full, which a recovery has no reason to give back).
inline std::vector<ftl::BlockId> partly_written_stream_blocks(
    const ftl::PageStore& store, const ftl::FlashArray& flash,
    const std::vector<ftl::StreamCode>& codes) {
  const ftl::Geometry& g = store.geometry();
  std::vector<ftl::BlockId> blocks;
  for (const ftl::StreamCode code : codes) {
    for (uint32_t plane = 0; plane < g.planes(); ++plane) {
      const ftl::BlockId block = store.stream_block(code, plane);
      const bool partly = block != ftl::kNone && flash.write_pointer(block) > 0 &&
                          flash.write_pointer(block) < g.pages_per_block;
      blocks.push_back(partly ? block : ftl::kNone);
    }
  }
  return blocks;
}

// How many of stream `index`'s planes (of `codes`, as above) have a block in `blocks`.
inline uint32_t planes_with_block(const std::vector<ftl::BlockId>& blocks, size_t index,
                                  uint32_t planes) {
  uint32_t count = 0;
  for (uint32_t plane = 0; plane < planes; ++plane)
    count += blocks[index * planes + plane] != ftl::kNone;
  return count;
}

// Each stream writes, plane by plane, the block `before` names (kNone: not checked).
inline void expect_streams_write(const ftl::PageStore& store,
                                 const std::vector<ftl::StreamCode>& codes,
                                 const std::vector<ftl::BlockId>& before) {
  const uint32_t planes = store.geometry().planes();
  for (size_t s = 0; s < codes.size(); ++s) {
    for (uint32_t plane = 0; plane < planes; ++plane) {
      const ftl::BlockId expected = before[s * planes + plane];
      if (expected == ftl::kNone) continue;
      EXPECT_EQ(store.stream_block(codes[s], plane), expected)
          << "stream " << int{codes[s]} << ", plane " << plane;
    }
  }
}

}  // namespace ssd::testing
