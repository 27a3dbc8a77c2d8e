// NandTiming's spans (NandSpanSink): each reservation is reported once, where it finally went,
// and only when nothing can move it any more; a power cut cuts the running ones short and drops
// the rest. Times from the round timings of nand_test_timings.h.
#include <gtest/gtest.h>

#include <vector>

#include "models/nand/nand_timing.h"
#include "tests/models/nand_test_timings.h"

namespace ssd::models {
namespace {

using ftl::OpClass;
using ftl::OpKind;
using namespace test;  // the round timings

struct Recorder final : NandSpanSink {
  std::vector<NandSpan> spans;
  void span(const NandSpan& s) override { spans.push_back(s); }
  std::vector<NandSpan> on_die(uint32_t die) const {
    std::vector<NandSpan> out;
    for (const NandSpan& s : spans) {
      if (!s.on_channel && s.die == die) out.push_back(s);
    }
    return out;
  }
};

TEST(NandSpans, AnOvertakenGcOperationIsReportedWhereItFinallyWent) {
  NandTiming nand(round_timings(1, 1));
  Recorder recorder;
  nand.set_span_sink(&recorder);
  // GC is queued at the lowest priority; a host read ready later still goes first.
  nand.schedule(on_page(OpKind::kProgram, OpClass::kGc, 0, 7), 0);
  const Picoseconds read_done = nand.schedule(on_page(OpKind::kRead, OpClass::kHostRead, 0, 3), 0);
  EXPECT_TRUE(recorder.spans.empty());  // nothing is final before the clock passes it
  nand.flush_spans();
  const std::vector<NandSpan> die = recorder.on_die(0);
  ASSERT_EQ(die.size(), 2u);
  EXPECT_EQ(die[0].kind, OpKind::kRead);
  EXPECT_EQ(die[0].end, read_done);
  EXPECT_EQ(die[1].kind, OpKind::kProgram);
  EXPECT_EQ(die[1].op_class, OpClass::kGc);
  EXPECT_GE(die[1].start, die[0].end);
  EXPECT_EQ(die[1].end - die[1].start, kCmd + kXfer + kProg);
  EXPECT_EQ(die[1].page, ftl::kNone);  // no per-block order: pages are not known
  // The channel: the read's command and data out, the program's command and data in.
  size_t transfers = 0;
  Picoseconds channel_ps = 0;
  for (const NandSpan& s : recorder.spans) {
    if (!s.on_channel) continue;
    ++transfers;
    channel_ps += s.end - s.start;
  }
  EXPECT_EQ(transfers, 3u);
  EXPECT_EQ(channel_ps, nand.counters().channel_busy_ps[0]);
  EXPECT_EQ(die[0].end - die[0].start + die[1].end - die[1].start, nand.counters().die_busy_ps[0]);
}

TEST(NandSpans, AReservationIsReportedOnceWhenTheClockHasPassedIt) {
  NandTiming nand(round_timings(1, 1));
  Recorder recorder;
  nand.set_span_sink(&recorder);
  const Picoseconds first = nand.schedule(on_page(OpKind::kRead, OpClass::kHostRead, 0, 1), 0);
  nand.advance(first);
  nand.schedule(on_page(OpKind::kRead, OpClass::kHostRead, 0, 2), first);
  ASSERT_EQ(recorder.on_die(0).size(), 1u);  // the first, forgotten when the second came
  EXPECT_EQ(recorder.on_die(0)[0].end, first);
  nand.flush_spans();
  EXPECT_EQ(recorder.on_die(0).size(), 2u);
  nand.flush_spans();  // nothing is left to report twice
  EXPECT_EQ(recorder.on_die(0).size(), 2u);
}

TEST(NandSpans, APowerCutCutsTheRunningShortAndDropsTheRest) {
  NandTiming nand(round_timings(1, 1));
  Recorder recorder;
  nand.set_span_sink(&recorder);
  nand.schedule(on_page(OpKind::kProgram, OpClass::kHostWrite, 0, 1), 0);
  nand.schedule(on_page(OpKind::kProgram, OpClass::kHostWrite, 0, 2), 0);  // after the first
  const Picoseconds cut = kCmd + kXfer + kProg / 2;  // during the first's tPROG
  nand.power_off(cut);
  const std::vector<NandSpan> die = recorder.on_die(0);
  ASSERT_EQ(die.size(), 1u);
  EXPECT_EQ(die[0].start, 0u);
  EXPECT_EQ(die[0].end, cut);
  nand.flush_spans();
  EXPECT_EQ(recorder.on_die(0).size(), 1u);
}

TEST(NandSpans, WithoutASinkNothingIsReported) {
  NandTiming nand(round_timings(1, 1));
  const Picoseconds done = nand.schedule(on_page(OpKind::kRead, OpClass::kHostRead, 0, 1), 0);
  nand.advance(done);
  nand.schedule(on_page(OpKind::kRead, OpClass::kHostRead, 0, 2), done);
  nand.flush_spans();  // and flushing without one is harmless
  EXPECT_EQ(nand.counters().count(OpKind::kRead), 2u);
}

}  // namespace
}  // namespace ssd::models
