// Scenario rules: the address range must lie inside the device, ratios must add up, a sync call's
// journal must fit, the run must be able to end, and the queue depth must fit the host. Messages
// name the file and the key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "config/capacity.h"
#include "config/config_loader.h"
#include "config_test_support.h"

namespace ssd::config::test {
namespace {

using ::testing::HasSubstr;

uint64_t default_logical_bytes() { return logical_capacity_bytes(PlatformConfig{}); }

TEST(ScenarioValidation, AddressSpanPastDeviceEnd) {
  const std::string span = std::to_string(default_logical_bytes());
  EXPECT_THAT(scenario_error("[workload]\naddress_start_bytes = 4096\n"
                             "address_span_bytes = " +
                             span + "\n"),
              HasSubstr("FILE:3: key 'workload.address_span_bytes': address_start_bytes + "
                        "address_span_bytes runs past the logical capacity"));
}

TEST(ScenarioValidation, AddressStartPastDeviceEnd) {
  const std::string start = std::to_string(default_logical_bytes());
  EXPECT_THAT(scenario_error("[workload]\naddress_start_bytes = " + start + "\n"),
              HasSubstr("key 'workload.address_start_bytes': must be below the logical capacity"));
}

TEST(ScenarioValidation, WholeDeviceSpanIsAccepted) {
  TempToml ok("[workload]\naddress_span_bytes = " + std::to_string(default_logical_bytes()) + "\n");
  EXPECT_NO_THROW(load_config("", ok.path(), {}));
}

TEST(ScenarioValidation, RequestLargerThanSpan) {
  EXPECT_THAT(scenario_error("[workload]\naddress_span_bytes = 4096\nrequest_bytes = 8192\n"),
              HasSubstr("key 'workload.request_bytes': a request of 8192 bytes does not fit"));
}

TEST(ScenarioValidation, HotSpanNeedsRandomAddressesAndTwoParts) {
  EXPECT_THAT(scenario_error("[workload]\npattern = \"sequential\"\nhot_span_ratio = 0.2\n"),
              HasSubstr("FILE:3: key 'workload.hot_span_ratio': applies to synthetic random"));
  EXPECT_THAT(scenario_error("[workload]\naddress_span_bytes = 16384\nrequest_bytes = 8192\n"
                             "hot_span_ratio = 0.25\n"),
              HasSubstr("key 'workload.hot_span_ratio': must leave a hot and a cold part"));
  EXPECT_THAT(scenario_error("[workload]\nhot_access_ratio = 0.9\n"),
              HasSubstr("key 'workload.hot_access_ratio': needs workload.hot_span_ratio > 0"));
  TempToml ok("[workload]\nhot_span_ratio = 0.2\nhot_access_ratio = 0.8\n");
  EXPECT_NO_THROW(load_config("", ok.path(), {}));
}

TEST(ScenarioValidation, ReadPlusTrimAboveOne) {
  EXPECT_THAT(scenario_error("[workload]\nread_ratio = 0.7\ntrim_ratio = 0.4\n"),
              HasSubstr("FILE:3: key 'workload.trim_ratio': "
                        "workload.read_ratio + workload.trim_ratio must be <= 1"));
  TempToml exact("[workload]\nread_ratio = 0.7\ntrim_ratio = 0.3\n");
  EXPECT_NO_THROW(load_config("", exact.path(), {}));
}

// workload.fua_ratio: a share of the writes, in [0, 1]; refused outside it, naming the key.
TEST(ScenarioValidation, FuaRatioIsAShareOfTheWrites) {
  EXPECT_THAT(scenario_error("[workload]\nfua_ratio = 1.5\n"),
              HasSubstr("FILE:2: key 'workload.fua_ratio': must be in [0, 1] (got 1.5)"));
  EXPECT_THAT(scenario_error("[workload]\nfua_ratio = -0.1\n"),
              HasSubstr("key 'workload.fua_ratio': must be in [0, 1] (got -0.1)"));
  EXPECT_THAT(scenario_error("[workload]\nfua_ratio = nan\n"),
              HasSubstr("key 'workload.fua_ratio': must be a finite number"));
  EXPECT_THAT(scenario_error("[workload]\nfua_ratio = \"half\"\n"),
              HasSubstr("key 'workload.fua_ratio'"));
  for (const char* ratio : {"0", "0.2", "1"}) {
    TempToml ok(std::string("[workload]\nfua_ratio = ") + ratio + "\n");
    EXPECT_EQ(load_config("", ok.path(), {}).scenario.workload.fua_ratio, std::stod(ratio));
  }
}

TEST(ScenarioValidation, RatioOutOfRange) {
  EXPECT_THAT(scenario_error("[workload]\nread_ratio = 1.5\n"),
              HasSubstr("key 'workload.read_ratio': must be in [0, 1] (got 1.5)"));
  EXPECT_THAT(scenario_error("[precondition]\nfill_ratio = 2\n"),
              HasSubstr("key 'precondition.fill_ratio': must be in [0, 1]"));
  EXPECT_THAT(scenario_error("[precondition]\noverwrite_ratio = -0.5\n"),
              HasSubstr("key 'precondition.overwrite_ratio': must be >= 0"));
}

TEST(ScenarioValidation, ZeroRequestsAndZeroDuration) {
  EXPECT_THAT(scenario_error("[workload]\nrequests = 0\nduration_ms = 0\n"),
              HasSubstr("FILE:2: key 'workload.requests': workload.requests, "
                        "workload.duration_ms and workload.io_bytes are all 0"));
  TempToml by_time("[workload]\nrequests = 0\nduration_ms = 10\n");
  EXPECT_NO_THROW(load_config("", by_time.path(), {}));
  TempToml by_bytes("[workload]\nrequests = 0\nio_bytes = 1048576\n");
  EXPECT_NO_THROW(load_config("", by_bytes.path(), {}));
}

TEST(ScenarioValidation, RandomMapNeedsRandomFixedSizes) {
  EXPECT_THAT(scenario_error("[workload]\nrandom_map = true\npattern = \"sequential\"\n"),
              HasSubstr("key 'workload.random_map': needs workload.pattern 'random'"));
  EXPECT_THAT(scenario_error("[workload]\nrandom_map = true\nsize_distribution = \"uniform\"\n"
                             "request_bytes_max = 16384\n"),
              HasSubstr("key 'workload.random_map'"));
  TempToml fine("[workload]\nrandom_map = true\n");
  EXPECT_NO_THROW(load_config("", fine.path(), {}));
}

TEST(ScenarioValidation, QueueDepthAboveHostMax) {
  EXPECT_THAT(scenario_error("[workload]\nqueue_depth = 2048\n"),
              HasSubstr("FILE:2: key 'workload.queue_depth': "
                        "must be <= host.max_queue_depth (1024)"));
  EXPECT_THAT(scenario_error("[workload]\nqueue_depth = 0\n"),
              HasSubstr("key 'workload.queue_depth': must be >= 1"));
}

TEST(ScenarioValidation, SizesInWholeSectors) {
  EXPECT_THAT(scenario_error("[workload]\nrequest_bytes = 1000\n"),
              HasSubstr("key 'workload.request_bytes': "
                        "must be a multiple of nand.sector_bytes (512)"));
  EXPECT_THAT(scenario_error("[workload]\nrequest_bytes = 0\n"),
              HasSubstr("key 'workload.request_bytes': must be >= 1"));
  EXPECT_THAT(scenario_error("[workload]\nrequest_bytes_max = 2048\n"),
              HasSubstr("key 'workload.request_bytes_max': "
                        "must be 0 or >= workload.request_bytes"));
  EXPECT_THAT(scenario_error("[workload]\nalign_bytes = 0\n"),
              HasSubstr("key 'workload.align_bytes': must be >= 1"));
  EXPECT_THAT(scenario_error("[workload]\nalign_bytes = 100\n"),
              HasSubstr("key 'workload.align_bytes': must be a multiple"));
}

TEST(ScenarioValidation, UnknownEnumValues) {
  EXPECT_THAT(scenario_error("[workload]\npattern = \"zipf\"\n"),
              HasSubstr("key 'workload.pattern': must be one of: random, sequential (got 'zipf')"));
  EXPECT_THAT(scenario_error("[workload]\nmode = \"half-open\"\n"),
              HasSubstr("key 'workload.mode': must be one of: closed, open"));
  EXPECT_THAT(scenario_error("[workload]\nkind = \"replay\"\n"),
              HasSubstr("key 'workload.kind': must be one of: synthetic, trace"));
  EXPECT_THAT(scenario_error("[workload]\nfit = \"squeeze\"\n"),
              HasSubstr("key 'workload.fit': must be one of: error, wrap, scale"));
  EXPECT_THAT(scenario_error("[workload]\ntrace_format = \"csv\"\n"),
              HasSubstr("key 'workload.trace_format': must be one of: auto, msr, spc"));
  EXPECT_THAT(scenario_error("[workload]\nblkparse_action = \"G\"\n"),
              HasSubstr("key 'workload.blkparse_action': must be one of: auto, Q, D, C"));
}

TEST(ScenarioValidation, TraceNeedsAFileAndAUsableDevice) {
  EXPECT_THAT(scenario_error("[workload]\nkind = \"trace\"\n"),
              HasSubstr("key 'workload.trace_file': must name a trace file"));
  EXPECT_THAT(
      scenario_error("[workload]\nkind = \"trace\"\ntrace_file = \"t.csv\"\ndevice = \"-1\"\n"),
      HasSubstr("FILE:4: key 'workload.device': must be 'all' or a device number (got '-1')"));
  EXPECT_THAT(scenario_error("[workload]\nspeed = 0\n"),
              HasSubstr("key 'workload.speed': must be in [1e-06, 1000000] (got 0)"));
}

TEST(ScenarioValidation, TraceRunsNeedNoRequestCount) {
  TempToml ok(
      "[workload]\nkind = \"trace\"\ntrace_file = \"t.csv\"\nrequests = 0\ndevice = \"12\"\n");
  EXPECT_NO_THROW(load_config("", ok.path(), {}));
}

TEST(ScenarioValidation, TracePathIsRelativeToTheScenarioFileButNotToSet) {
  TempToml file("[workload]\nkind = \"trace\"\ntrace_file = \"traces/t.csv\"\n");
  const std::filesystem::path folder = std::filesystem::path(file.path()).parent_path();
  EXPECT_EQ(load_config("", file.path(), {}).scenario.workload.trace_file,
            (folder / "traces/t.csv").string());
  EXPECT_EQ(
      load_config("", file.path(), {"workload.trace_file=here.csv"}).scenario.workload.trace_file,
      "here.csv");
  TempToml absolute("[workload]\nkind = \"trace\"\ntrace_file = \"/data/t.csv\"\n");
  EXPECT_EQ(load_config("", absolute.path(), {}).scenario.workload.trace_file, "/data/t.csv");
}

TEST(ScenarioValidation, OpenLoopNeedsInterarrival) {
  EXPECT_THAT(scenario_error("[workload]\nmode = \"open\"\ninterarrival_us = 0\n"),
              HasSubstr("key 'workload.interarrival_us': "
                        "must be > 0 when workload.mode is 'open'"));
}

TEST(ScenarioValidation, WarmUpPassesNeedAnEndThatIsNotATime) {
  EXPECT_THAT(scenario_error("[workload]\npasses = 0\n"),
              HasSubstr("FILE:2: key 'workload.passes': must be in [1, 1000]"));
  EXPECT_THAT(scenario_error("[workload]\npasses = 2\nrequests = 0\nduration_ms = 5\n"),
              HasSubstr("key 'workload.passes': > 1 needs workload.duration_ms = 0"));
  TempToml ok("[workload]\npasses = 2\nrequests = 100\n");
  EXPECT_EQ(load_config("", ok.path(), {}).scenario.workload.passes, 2u);
}

TEST(ScenarioValidation, SyncCallNeedsWritesBetweenSyncs) {
  EXPECT_THAT(scenario_error("[workload]\nsync_call = \"fsync\"\n"),
              HasSubstr("FILE:2: key 'workload.sync_call': 'fsync' needs "
                        "workload.flush_every_writes > 0"));
  EXPECT_THAT(scenario_error("[workload]\nflush_every_writes = 0\nsync_call = \"fdatasync\"\n"),
              HasSubstr("key 'workload.sync_call': 'fdatasync' needs"));
  EXPECT_THAT(scenario_error("[workload]\nsync_call = \"sync\"\n"),
              HasSubstr("key 'workload.sync_call': must be one of: flush, fsync, fdatasync"));
  TempToml ok("[workload]\nflush_every_writes = 16\nsync_call = \"fdatasync\"\n");
  EXPECT_NO_THROW(load_config("", ok.path(), {}));
}

TEST(ScenarioValidation, JournalWriteInWholeSectorsInsideTheJournal) {
  const std::string fsync = "[workload]\nflush_every_writes = 8\nsync_call = \"fsync\"\n";
  EXPECT_THAT(scenario_error(fsync + "journal_write_bytes = 0\n"),
              HasSubstr("FILE:4: key 'workload.journal_write_bytes': must be >= 1 when "
                        "workload.sync_call is 'fsync' (got 0)"));
  EXPECT_THAT(scenario_error(fsync + "journal_write_bytes = 1000\n"),
              HasSubstr("key 'workload.journal_write_bytes': "
                        "must be a multiple of nand.sector_bytes (512) (got 1000)"));
  EXPECT_THAT(scenario_error(fsync + "journal_bytes = 32768\njournal_write_bytes = 65536\n"),
              HasSubstr("key 'workload.journal_write_bytes': must be <= workload.journal_bytes "
                        "(32768) (got 65536)"));
}

TEST(ScenarioValidation, JournalRegionOnTheGridLeavingRoomForData) {
  const std::string fsync = "[workload]\nflush_every_writes = 8\nsync_call = \"fsync\"\n";
  EXPECT_THAT(scenario_error(fsync + "journal_bytes = 0\n"),
              HasSubstr("FILE:4: key 'workload.journal_bytes': must be >= 1"));
  EXPECT_THAT(scenario_error(fsync + "journal_bytes = 10240\njournal_write_bytes = 4096\n"),
              HasSubstr("key 'workload.journal_bytes': must be a multiple of "
                        "workload.align_bytes (4096) (got 10240)"));
  EXPECT_THAT(scenario_error(fsync + "address_span_bytes = 65536\njournal_bytes = 65536\n"),
              HasSubstr("key 'workload.journal_bytes': must leave at least one request (4096 "
                        "bytes) of the address span (65536 bytes) for data"));
  EXPECT_THAT(
      scenario_error(fsync + "address_span_bytes = 65536\njournal_bytes = 40960\n"
                             "size_distribution = \"uniform\"\nrequest_bytes_max = 32768\n"),
      HasSubstr("key 'workload.journal_bytes': must leave at least one request (32768 "
                "bytes) of the address span (65536 bytes)"));
  // The span to the device end, and a region larger than the whole span.
  EXPECT_THAT(scenario_error(fsync + "journal_bytes = " +
                             std::to_string(default_logical_bytes() / 4096 * 4096) + "\n"),
              HasSubstr("key 'workload.journal_bytes': must leave at least one request"));
  EXPECT_THAT(scenario_error(fsync + "address_span_bytes = 65536\njournal_bytes = 131072\n"),
              HasSubstr("key 'workload.journal_bytes': must leave at least one request"));
  TempToml exact(fsync + "address_span_bytes = 65536\njournal_bytes = 61440\n");
  EXPECT_NO_THROW(load_config("", exact.path(), {}));
}

// With sync_call "flush" (or a trace) the journal keys are not used, so they are not checked.
// A trace replay's sync call is a plain flush (workload.flush_every_writes): fsync, which models
// a file system's journal commit, is refused there rather than ignored.
TEST(ScenarioValidation, JournalKeysIgnoredWithoutASyncCall) {
  TempToml flush(
      "[workload]\naddress_span_bytes = 65536\njournal_bytes = 1000\n"
      "journal_write_bytes = 0\n");
  EXPECT_NO_THROW(load_config("", flush.path(), {}));
  TempToml trace(
      "[workload]\nkind = \"trace\"\ntrace_file = \"t.csv\"\nflush_every_writes = 8\n"
      "journal_write_bytes = 0\n");
  EXPECT_NO_THROW(load_config("", trace.path(), {}));
  EXPECT_THAT(scenario_error(
                  "[workload]\nkind = \"trace\"\ntrace_file = \"t.csv\"\nsync_call = \"fsync\"\n"),
              HasSubstr("key 'workload.sync_call'"));
}

TEST(ScenarioValidation, ChecksAgainstThePlatformGiven) {
  ScenarioConfig s;
  PlatformConfig p;
  p.host.max_queue_depth = 16;
  EXPECT_THAT(error_of([&] { validate_scenario(s, p, "where"); }),
              HasSubstr("where: key 'workload.queue_depth': must be <= host.max_queue_depth (16)"));
}

}  // namespace
}  // namespace ssd::config::test
