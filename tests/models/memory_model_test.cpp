// The memory model (DRAM and NVRAM configurations of one model): latency plus transfer, a port
// that queues back-to-back accesses, and range checks through the TLM socket.
#include "models/memory/memory_model.h"

#include <gtest/gtest.h>

#include "ftl/core/flash_op.h"
#include "tests/models/tlm_test_initiator.h"

namespace ssd::models {
namespace {

using sc_core::sc_time;

constexpr uint32_t kPage = 4096;

// 50 ns read, 60 ns write, 6400 MB/s = 156.25 ps per byte: a page moves in 640 ns.
MemoryTimingParams test_params() {
  MemoryTimingParams p;
  p.read_latency = 50'000;
  p.write_latency = 60'000;
  p.ps_per_byte = 156.25;
  p.capacity_bytes = 1 << 20;
  p.persistent = false;
  return p;
}
constexpr Picoseconds kPageXfer = 640'000;

sc_time ps(Picoseconds t) { return sc_time::from_value(t); }

// An access issued now but ready later holds only its own interval: one ready earlier takes the
// gap before it (the port was one busy-until time before, and queued it behind); one that does
// not fit the gap goes after it; touching intervals then serve as one.
TEST(MemoryTiming, AnAccessReadyEarlierTakesTheGapBeforeALaterOne) {
  MemoryTiming memory(test_params());
  const Picoseconds later = 10 * kPageXfer;
  EXPECT_EQ(memory.schedule(false, kPage, later, 0), later + 50'000 + kPageXfer);
  EXPECT_EQ(memory.schedule(false, kPage, 0, 0), 50'000 + kPageXfer);  // in the gap
  // Ready at 9.5 transfers: no whole transfer fits before `later`, so after its interval.
  const Picoseconds late_ready = 9 * kPageXfer + kPageXfer / 2;
  EXPECT_EQ(memory.schedule(false, kPage, late_ready, 0), later + kPageXfer + 50'000 + kPageXfer);
  // Exactly the room left before `later`: it fits, touching the reservation after it.
  EXPECT_EQ(memory.schedule(false, kPage, 9 * kPageXfer, 0), 9 * kPageXfer + 50'000 + kPageXfer);
  // The port is now busy from 9 to 12 transfers without a gap: an access ready at 9 goes at 12.
  EXPECT_EQ(memory.schedule(false, kPage, 9 * kPageXfer, 0), 12 * kPageXfer + 50'000 + kPageXfer);
  // Intervals that ended before `now` are forgotten; the port is free from then on.
  EXPECT_EQ(memory.schedule(false, kPage, 20 * kPageXfer, 20 * kPageXfer),
            20 * kPageXfer + 50'000 + kPageXfer);
}

TEST(MemoryTiming, LatencyPlusTransferAndBackToBackContention) {
  MemoryTiming memory(test_params());
  EXPECT_EQ(memory.schedule(false, kPage, 0), 50'000 + kPageXfer);
  // Ready at the same time: waits for the first transfer, not for the first latency.
  EXPECT_EQ(memory.schedule(false, kPage, 0), kPageXfer + 50'000 + kPageXfer);
  EXPECT_EQ(memory.schedule(true, kPage, 0), 2 * kPageXfer + 60'000 + kPageXfer);
  // Once the port is idle again, an access sees latency plus transfer only.
  EXPECT_EQ(memory.schedule(true, 512, 10'000'000), 10'000'000 + 60'000 + 80'000);

  const MemoryCounters& c = memory.counters();
  EXPECT_EQ(c.reads, 2u);
  EXPECT_EQ(c.writes, 2u);
  EXPECT_EQ(c.read_bytes, 2u * kPage);
  EXPECT_EQ(c.write_bytes, kPage + 512u);
  EXPECT_EQ(c.busy_ps, 3 * kPageXfer + 80'000);
}

TEST(MemoryTiming, DramAndNvramAreTwoConfigurationsOfOneModel) {
  const config::PlatformConfig platform;  // DRAM: 50 ns / 50 ns, 6400 MB/s
  const config::MemoryConfig pcm{1 << 20, 100.0, 2000.0, 1000.0, "pcm"};
  const MemoryTimingParams dram_params = MemoryTimingParams::from_config(platform.dram);
  const MemoryTimingParams nvram_params = MemoryTimingParams::from_config(pcm);
  EXPECT_FALSE(dram_params.persistent);
  EXPECT_TRUE(nvram_params.persistent);
  EXPECT_EQ(dram_params.capacity_bytes, 64ull << 20);
  EXPECT_EQ(dram_params.write_latency, 50'000u);
  EXPECT_EQ(nvram_params.read_latency, 100'000u);
  EXPECT_EQ(nvram_params.write_latency, 2'000'000u);

  MemoryTiming dram(dram_params);
  MemoryTiming nvram(nvram_params);
  EXPECT_EQ(dram.schedule(true, kPage, 0), 50'000 + kPageXfer);
  EXPECT_EQ(nvram.schedule(true, kPage, 0), 2'000'000 + kPage * 1000);
  EXPECT_EQ(nvram.schedule(false, 64, 10'000'000), 10'000'000 + 100'000 + 64 * 1000);
}

TEST(MemoryModel, AccessesThroughTheSocket) {
  MemoryModel dram("dram", test_params());
  TlmTestInitiator init("init");
  init.socket.bind(dram.socket);
  init.access(tlm::TLM_WRITE_COMMAND, 0, kPage, ps(1'000'000));
  init.access(tlm::TLM_READ_COMMAND, kPage, kPage, ps(1'000'000));  // queues behind the write
  // An FTL operation in the extension sets direction and size (here a 512-byte write); by 3 us
  // the port is idle again.
  init.issue(ftl::FlashOp{ftl::OpKind::kDramWrite, ftl::OpClass::kHostWrite, 0, 512, ftl::kNone, 0},
             ps(3'000'000), ps(100'000), 8192);
  sc_core::sc_start();

  ASSERT_EQ(init.results().size(), 3u);
  for (const auto& r : init.results()) EXPECT_EQ(r.status, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(init.results()[0].delay, ps(60'000 + kPageXfer));
  EXPECT_EQ(init.results()[1].delay, ps(kPageXfer + 50'000 + kPageXfer));
  EXPECT_EQ(init.results()[2].delay, ps(100'000 + 60'000 + 80'000));
  EXPECT_EQ(dram.timing().counters().writes, 2u);
  EXPECT_EQ(dram.timing().counters().write_bytes, kPage + 512u);
  EXPECT_FALSE(dram.persistent());
}

TEST(MemoryModel, AccessPastCapacityIsAnAddressError) {
  MemoryModel dram("dram", test_params());
  MemoryTimingParams absent = test_params();
  absent.capacity_bytes = 0;
  MemoryModel nvram("nvram", absent);
  TlmTestInitiator to_dram("to_dram");
  TlmTestInitiator to_nvram("to_nvram");
  to_dram.socket.bind(dram.socket);
  to_nvram.socket.bind(nvram.socket);
  constexpr uint64_t kEnd = 1 << 20;
  to_dram.access(tlm::TLM_READ_COMMAND, kEnd - 100, 200);  // runs past the end
  to_dram.access(tlm::TLM_WRITE_COMMAND, kEnd, 1);         // starts at the end
  to_dram.access(tlm::TLM_READ_COMMAND, kEnd - 100, 100);  // ends exactly at the end
  to_nvram.access(tlm::TLM_WRITE_COMMAND, 0, 8);           // no NVRAM fitted
  sc_core::sc_start();

  ASSERT_EQ(to_dram.results().size(), 3u);
  EXPECT_EQ(to_dram.results()[0].status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(to_dram.results()[1].status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(to_dram.results()[2].status, tlm::TLM_OK_RESPONSE);
  ASSERT_EQ(to_nvram.results().size(), 1u);
  EXPECT_EQ(to_nvram.results()[0].status, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  // Refused accesses take no port time.
  EXPECT_EQ(dram.timing().counters().reads, 1u);
  EXPECT_EQ(dram.timing().counters().writes, 0u);
  EXPECT_EQ(nvram.timing().counters().writes, 0u);
}

}  // namespace
}  // namespace ssd::models
