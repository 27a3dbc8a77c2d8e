// The sector log paper's worked example (shared/papers/sector-log.md, section 4.3, figure 5), with
// four sectors per page as there, run through the whole device with the oracle: the write that
// fills the page buffer, the read gathered from two log pages, and the flush and merge of the
// tail block into the FTL, each checked as exact page-buffer, map and log states.
#include <gtest/gtest.h>

#include "ftl/core/ftl_device.h"
#include "ftl/page/page_mapping.h"
#include "ftl/sector_log/sector_layer.h"
#include "ftl/sector_log/sector_layer_descriptor.h"
#include "ftl/sector_log/sector_log_settings.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

constexpr uint32_t kNoSlot = SectorMap::kNoSlot;

config::PlatformConfig example_platform() {
  config::PlatformConfig p = testing::tiny_platform();
  p.nand.page_bytes = 2048;  // four 512-byte sectors a page, as in figure 5
  p.ftl.settings.edit<SectorLogSettings>().size_bytes = 2ull * 16 * 2048;  // two log blocks
  return p;  // no write buffer: the figure shows the sector log alone
}

class SectorLogExample : public ::testing::Test {
 protected:
  config::PlatformConfig platform = example_platform();
  FtlDevice device{platform, FtlDeviceOptions{}};
  const SectorLayer& layer = dynamic_cast<const SectorLayer&>(device.scheme());
  const SectorLog& log = *layer.log();
  const PageMapping& ftl = dynamic_cast<const PageMapping&>(layer.below());

  uint64_t run(CommandKind kind, uint64_t sector, uint32_t count) {
    HostCommand c;
    c.kind = kind;
    c.start_sector = sector;
    c.sector_count = count;
    return device.run(c);
  }
  // The map's location of sector `s` of logical page `lpn` as block:page:offset of the log
  // (block = position in the log's ring), or kNoSlot.
  uint32_t where(Lun lpn, uint32_t s) const {
    const uint32_t entry = log.map().peek(lpn);
    return entry == kNone ? kNoSlot : log.map().location(entry, s);
  }
  static uint32_t at(uint32_t block, uint32_t page, uint32_t offset) {
    return (block * 16 + page) * 4 + offset;
  }
  uint32_t flash_reads() {
    uint32_t reads = 0;
    for (const FlashOp& op : device.backend().ops().ops()) reads += op.kind == OpKind::kRead;
    return reads;
  }
};

TEST_F(SectorLogExample, FigureFiveWriteReadFlushAndMerge) {
  // (a) Write: LSN 0 (one sector), then LSN 4 (three sectors). Together they fill the page
  // buffer, which goes to page 0 of log block 0; the map points LPN 0 and LPN 1 there.
  run(CommandKind::kWrite, 0, 1);
  EXPECT_EQ(log.counts().page_programs, 0u) << "one sector does not fill the page buffer";
  EXPECT_EQ(where(0, 0), kNoSlot) << "the map points at flash only";
  run(CommandKind::kWrite, 4, 3);
  EXPECT_EQ(log.counts().page_programs, 1u);
  EXPECT_EQ(where(0, 0), at(0, 0, 0));
  EXPECT_EQ(where(1, 0), at(0, 0, 1));
  EXPECT_EQ(where(1, 1), at(0, 0, 2));
  EXPECT_EQ(where(1, 2), at(0, 0, 3));
  EXPECT_EQ(where(1, 3), kNoSlot);
  EXPECT_EQ(log.map().entries(), 2u);
  EXPECT_EQ(ftl.slot_of(0), kNone) << "nothing reached the FTL";

  // LPN 0's other sectors and LPN 1's last one fill log page 1.
  run(CommandKind::kWrite, 1, 3);
  run(CommandKind::kWrite, 7, 1);
  EXPECT_EQ(log.counts().page_programs, 2u);
  EXPECT_EQ(where(0, 1), at(0, 1, 0));
  EXPECT_EQ(where(0, 3), at(0, 1, 2));
  EXPECT_EQ(where(1, 3), at(0, 1, 3));

  // (b) Read: LSN 0, four sectors. Not in the page buffer; the map says pages 0 and 1 of block
  // 0: two flash reads, nothing from the FTL, and the data is what was written.
  EXPECT_EQ(run(CommandKind::kRead, 0, 4), 0u);
  EXPECT_EQ(flash_reads(), 2u);
  EXPECT_EQ(layer.counts().ftl_page_reads, 0u);

  // (c) Flush & merge: fill the rest of the log with sub-page writes that keep overwriting two
  // other pages (their old copies go stale), until a page needs block 0 again. Block 0 is the
  // victim; its valid pages are 0 and 1. LPN 0's sectors are read from pages 0 and 1, then
  // LPN 1's from pages 0 and 1; each page goes to the FTL whole (no FTL read: the log holds all
  // four sectors of both), block 0 is erased and exchanged for a free block of the FTL.
  const BlockId block0 = log.ring_block(0);
  const uint32_t before_reads = static_cast<uint32_t>(log.counts().page_reads);
  for (uint32_t page = 2; page < 2 * 16; ++page) {
    run(CommandKind::kWrite, 40, 2);  // LPN 10, sectors 0-1
    run(CommandKind::kWrite, 44, 2);  // LPN 11, sectors 0-1
  }
  EXPECT_EQ(log.counts().page_programs, 32u) << "the log is full";
  EXPECT_EQ(log.counts().erases, 0u);
  run(CommandKind::kWrite, 40, 2);
  run(CommandKind::kWrite, 44, 2);  // the 33rd page: block 0 is cleaned first
  EXPECT_EQ(log.counts().erases, 1u);
  EXPECT_EQ(log.counts().evictions, 2u) << "only LPN 0 and LPN 1 were valid in block 0";
  EXPECT_EQ(log.counts().evicted_sectors, 8u);
  EXPECT_EQ(log.counts().page_reads - before_reads, 4u) << "pages 0 and 1, once per LPN";
  EXPECT_EQ(layer.counts().merge_reads, 0u);
  EXPECT_EQ(layer.counts().ftl_page_writes, 2u);
  EXPECT_EQ(ftl.store().blocks().state(block0), BlockState::kFree) << "given back to the FTL";
  EXPECT_NE(log.ring_block(0), block0);
  EXPECT_EQ(ftl.store().blocks().state(log.ring_block(0)), BlockState::kLent);
  EXPECT_EQ(where(0, 0), kNoSlot);
  EXPECT_EQ(where(1, 0), kNoSlot);
  ASSERT_NE(ftl.slot_of(0), kNone);
  ASSERT_NE(ftl.slot_of(1), kNone);
  EXPECT_EQ(ftl.store().token(ftl.slot_of(0)), device.oracle()->expected(0));
  EXPECT_EQ(ftl.store().token(ftl.slot_of(1)), device.oracle()->expected(1));
  EXPECT_EQ(where(10, 0), at(0, 0, 0)) << "the new page went to the cleaned ring position";
  EXPECT_EQ(run(CommandKind::kRead, 0, 8), 0u);
  EXPECT_EQ(run(CommandKind::kRead, 40, 8), 0u);
  EXPECT_EQ(device.oracle()->mismatches(), 0u);
}

// The layer reports the scheme's figures, then its own in the order its docs list them (each in
// docs/report.md: tests/report/report_fields_documented_test.cpp).
TEST_F(SectorLogExample, FiguresAreTheSchemesThenTheLayersDocumentedOnes) {
  const std::vector<MappingFigure> figures = layer.mapping_figures();
  const std::vector<MappingFigure> below = layer.below().mapping_figures();
  const std::vector<FigureDoc>& docs = sector_layer_figure_docs();
  ASSERT_EQ(figures.size(), below.size() + docs.size());
  for (size_t i = 0; i < below.size(); ++i) EXPECT_EQ(figures[i].name, below[i].name);
  for (size_t i = 0; i < docs.size(); ++i) {
    EXPECT_EQ(figures[below.size() + i].name, docs[i].name);
  }
}

// The figures describe the measured run: after start_measuring() (the platform calls it once
// preconditioning and warm-up passes are over) the counts start from zero.
TEST_F(SectorLogExample, CountsRestartWhenMeasuringStarts) {
  run(CommandKind::kWrite, 0, 1);
  run(CommandKind::kWrite, 4, 3);
  ASSERT_EQ(log.counts().page_programs, 1u);
  ASSERT_GT(log.map().searches(), 0u);
  device.scheme().start_measuring();
  EXPECT_EQ(log.counts().page_programs, 0u);
  EXPECT_EQ(log.counts().writes, 0u);
  EXPECT_EQ(log.map().searches(), 0u);
  EXPECT_EQ(layer.counts().host_writes, 0u);
  EXPECT_EQ(log.map().entries(), 2u) << "the log's content stays";
  run(CommandKind::kWrite, 0, 1);
  EXPECT_EQ(log.counts().writes, 1u);
  EXPECT_EQ(log.counts().write_hits, 1u) << "sector 0 was logged before measuring started";
}

}  // namespace
}  // namespace ssd::ftl
