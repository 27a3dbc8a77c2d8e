// PopulateAhead (ftl/core/populate_ahead.h): a table filled while the second thread populates its
// pages ahead ends with exactly what was written; its pages are resident once settled (where the
// kernel populates on request); buffers handed over are freed there; it stops whatever is left.
#include "ftl/core/populate_ahead.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace ssd::ftl {
namespace {

struct Entry {
  uint64_t key;
  uint32_t value;
  uint32_t next;
};

TEST(PopulateAhead, AFilledTableHoldsWhatWasWritten) {
  // Room for 40 pieces, filled to 37 and a half: asks near the end are cut at the room.
  const uint64_t piece = PopulateAhead::kPieceBytes / sizeof(Entry);
  std::vector<Entry> table;
  table.reserve(40 * piece);
  const Entry* const room = table.data();
  const uint64_t count = 37 * piece + piece / 2;
  {
    PopulateAhead populate;
    for (uint64_t i = 0; i < count; ++i) {
      populate.before_append(table);
      table.push_back(Entry{i * 7919, static_cast<uint32_t>(i), static_cast<uint32_t>(~i)});
    }
    populate.settle();
  }
  ASSERT_EQ(table.data(), room) << "the room reserved was enough: nothing moved";
  ASSERT_EQ(table.size(), count);
  for (uint64_t i = 0; i < count; ++i) {
    ASSERT_EQ(table[i].key, i * 7919) << i;
    ASSERT_EQ(table[i].value, static_cast<uint32_t>(i)) << i;
    ASSERT_EQ(table[i].next, static_cast<uint32_t>(~i)) << i;
  }
}

#ifdef MADV_POPULATE_WRITE
TEST(PopulateAhead, PagesAskedForAreResidentOnceSettled) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t bytes = 64 * page;
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(memory, MAP_FAILED);
  if (madvise(memory, page, MADV_POPULATE_WRITE) != 0) {
    munmap(memory, bytes);
    GTEST_SKIP() << "this kernel does not populate on request";
  }
  std::vector<unsigned char> resident(bytes / page);
  {
    PopulateAhead populate;
    populate.populate(static_cast<char*>(memory) + 16 * page, 32 * page);
    populate.settle();
    ASSERT_EQ(mincore(memory, bytes, resident.data()), 0);
  }
  for (size_t p = 1; p < resident.size(); ++p) {
    EXPECT_EQ(resident[p] & 1, p >= 16 && p < 48 ? 1 : 0) << "page " << p;
  }
  munmap(memory, bytes);
}
#endif

TEST(PopulateAhead, FreesWhatItIsHandedAndStopsWithWorkLeft) {
  // The sanitizer build reports a buffer handed over and never freed.
  {
    PopulateAhead populate;
    for (int i = 0; i < 50; ++i) {
      std::unique_ptr<uint64_t[]> buffer(new uint64_t[1 << 16]);
      buffer[0] = static_cast<uint64_t>(i);
      populate.populate(buffer.get(), (1 << 16) * sizeof(uint64_t));
      populate.settle();  // populated before it is freed
      populate.release(std::move(buffer));
      EXPECT_EQ(buffer, nullptr);
    }
  }  // the last frees may still be queued here
  PopulateAhead idle;
  idle.settle();
}

}  // namespace
}  // namespace ssd::ftl
