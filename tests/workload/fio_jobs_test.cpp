// fio job files (workload/fio/): read as fio reads them, each job translated into its workload
// stream, and every option the simulator does not model refused naming the file, line and option.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "workload/fio/fio_job_file.h"
#include "workload/fio/fio_jobs.h"

namespace ssd::workload {
namespace {

constexpr uint64_t kDevice = 256ull << 20;  // 256 MiB

FioJobs translate(const std::string& text, uint32_t max_queue_depth = 1024) {
  return translate_fio_jobs(parse_fio_job_file(text, "job.fio"),
                            FioDevice{kDevice, 512, max_queue_depth});
}

// The message of the FioJobError `text` raises ("" if none).
std::string error_of(const std::string& text) {
  try {
    translate(text);
  } catch (const FioJobError& error) {
    return error.what();
  }
  return "";
}

TEST(FioJobFile, ReadsSectionsGlobalsFlagsAndComments) {
  const FioJobFile file = parse_fio_job_file(
      "; a comment\n[global]\nbs=4k\n# another\n\n[first]\nrw=randread\n"
      "[global]\niodepth=8\n[second]\n  rw = write \ntime_based\n",
      "f.fio");
  ASSERT_EQ(file.jobs.size(), 2u);
  EXPECT_EQ(file.jobs[0].name, "first");
  EXPECT_EQ(file.jobs[0].line, 6u);
  ASSERT_EQ(file.jobs[0].globals.size(), 1u);  // only the [global] before it
  EXPECT_EQ(file.jobs[1].globals.size(), 2u);
  ASSERT_EQ(file.jobs[1].options.size(), 2u);
  EXPECT_EQ(file.jobs[1].options[0].key, "rw");
  EXPECT_EQ(file.jobs[1].options[0].value, "write");
  EXPECT_EQ(file.jobs[1].options[0].line, 11u);
  EXPECT_TRUE(file.jobs[1].options[1].flag);
  EXPECT_EQ(file.globals.size(), 2u);
}

TEST(FioJobFile, MalformedFilesNameTheLine) {
  const auto error = [](const std::string& text) {
    try {
      parse_fio_job_file(text, "bad.fio");
    } catch (const FioJobError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error("bs=4k\n[job]\n"), "bad.fio:1: option `bs=4k` before any [section]");
  EXPECT_NE(error("[job\nrw=read\n").find("bad.fio:1: a section header must be [name]"),
            std::string::npos);
  EXPECT_NE(error("[job]\nbs=\n").find("bad.fio:2: option `bs` has `=` but no value"),
            std::string::npos);
  EXPECT_NE(error("[global]\nbs=4k\n").find("no job"), std::string::npos);
  EXPECT_NE(error("[job]\ninclude other.fio\n").find("bad.fio:2: `include`"), std::string::npos);
  EXPECT_NE(error("[job]\nsize=${SIZE}\n").find("bad.fio:2: environment"), std::string::npos);
  EXPECT_THROW(read_fio_job_file("/nonexistent/job.fio"), FioJobError);
}

TEST(FioJobs, TranslatesTheModelledOptions) {
  const FioJobs jobs = translate(
      "[global]\nioengine=libaio\ndirect=1\nbs=16k\nsize=64m\noffset=1m\n"
      "[mix]\nrw=randrw\nrwmixread=70\niodepth=12\nnumber_ios=500\nfsync=8\nrandseed=40\n");
  ASSERT_EQ(jobs.jobs.size(), 1u);
  const config::WorkloadConfig& w = jobs.jobs[0].workload;
  EXPECT_EQ(jobs.jobs[0].name, "mix");
  EXPECT_EQ(w.pattern, "random");
  EXPECT_DOUBLE_EQ(w.read_ratio, 0.7);
  EXPECT_EQ(w.request_bytes, 16384u);
  EXPECT_EQ(w.align_bytes, 16384u);
  EXPECT_EQ(w.address_start_bytes, 1u << 20);
  EXPECT_EQ(w.address_span_bytes, 64u << 20);
  EXPECT_EQ(w.queue_depth, 12u);
  EXPECT_EQ(w.requests, 500u);
  EXPECT_EQ(w.io_bytes, 64u << 20);  // size bounds the job unless time_based
  EXPECT_EQ(w.flush_every_writes, 8u);
  EXPECT_EQ(w.sync_call, "flush");
  EXPECT_EQ(w.seed, 40u);
  EXPECT_TRUE(w.random_map);
  ASSERT_EQ(jobs.notes.size(), 2u);  // ioengine and direct, accepted and ignored
  EXPECT_NE(jobs.notes[0].find("job.fio:2: ioengine: accepted and ignored"), std::string::npos);
  ASSERT_EQ(jobs.jobs[0].options.size(), 6u);
  EXPECT_EQ(jobs.jobs[0].options[0].first, "rw");
  EXPECT_EQ(jobs.global_options.size(), 5u);
}

TEST(FioJobs, ModesSizesAndTimes) {
  const auto one = [](const std::string& options) {
    return translate("[j]\n" + options).jobs.at(0).workload;
  };
  EXPECT_EQ(one("rw=read\n").pattern, "sequential");
  EXPECT_DOUBLE_EQ(one("rw=read\n").read_ratio, 1.0);
  EXPECT_DOUBLE_EQ(one("rw=write\n").read_ratio, 0.0);
  EXPECT_DOUBLE_EQ(one("rw=randtrim\n").trim_ratio, 1.0);
  EXPECT_DOUBLE_EQ(one("readwrite=rw\n").read_ratio, 0.5);  // rwmixread's default
  EXPECT_DOUBLE_EQ(one("rw=rw\nrwmixwrite=20\n").read_ratio, 0.8);
  EXPECT_EQ(one("").pattern, "sequential");  // fio's default rw=read
  EXPECT_EQ(one("bs=4KiB\n").request_bytes, 4096u);
  EXPECT_EQ(one("bs=1M\n").request_bytes, 1u << 20);
  EXPECT_EQ(one("bs=8kb,8k\n").request_bytes, 8192u);
  EXPECT_EQ(one("size=50%\n").address_span_bytes, kDevice / 2);
  EXPECT_EQ(one("").address_span_bytes, kDevice);  // the whole device
  EXPECT_DOUBLE_EQ(one("runtime=2\n").duration_ms, 2000.0);
  EXPECT_DOUBLE_EQ(one("runtime=150ms\n").duration_ms, 150.0);
  EXPECT_DOUBLE_EQ(one("runtime=1m\n").duration_ms, 60000.0);
  const config::WorkloadConfig timed = one("runtime=10ms\ntime_based\n");
  EXPECT_EQ(timed.io_bytes, 0u);  // time_based: the region is gone over until the time is up
  EXPECT_EQ(one("io_size=1m\n").io_bytes, 1u << 20);
  const config::WorkloadConfig range = one("rw=randwrite\nbsrange=4k-64k\n");
  EXPECT_EQ(range.size_distribution, "uniform");
  EXPECT_EQ(range.request_bytes_max, 65536u);
  EXPECT_FALSE(range.random_map);
  EXPECT_FALSE(one("rw=randread\nnorandommap\n").random_map);
  EXPECT_FALSE(one("rw=read\n").random_map);
}

TEST(FioJobs, BssplitAndRandomDistribution) {
  const auto one = [](const std::string& options) {
    return translate("[j]\nrw=randwrite\n" + options).jobs.at(0).workload;
  };
  const config::WorkloadConfig split = one("bssplit=4k/10:64k/50:32k/\n");
  EXPECT_EQ(split.size_distribution, "split");
  EXPECT_EQ(split.split_bytes, (std::vector<uint32_t>{4096, 65536, 32768}));
  EXPECT_EQ(split.split_weights, (std::vector<double>{10, 50, 40}));  // the rest to the blank
  EXPECT_EQ(split.align_bytes, 4096u);
  EXPECT_FALSE(split.random_map);
  EXPECT_EQ(one("bssplit=8k:16k\n").split_weights, (std::vector<double>{50, 50}));
  EXPECT_EQ(one("bssplit=4k/0:8k/100\n").split_bytes, (std::vector<uint32_t>{8192}));
  const config::WorkloadConfig zipf = one("random_distribution=zipf:1.2\n");
  EXPECT_EQ(zipf.address_distribution, "zipf");
  EXPECT_DOUBLE_EQ(zipf.address_skew, 1.2);
  EXPECT_FALSE(zipf.random_map);
  EXPECT_EQ(one("random_distribution=pareto:0.9\n").address_distribution, "pareto");
  EXPECT_DOUBLE_EQ(one("random_distribution=normal:20\n").address_skew, 20.0);
  EXPECT_EQ(one("random_distribution=random\n").address_distribution, "uniform");
  // A sequential job has no random addresses to skew.
  EXPECT_EQ(translate("[j]\nrw=write\nrandom_distribution=zipf:1.2\n")
                .jobs.at(0)
                .workload.address_distribution,
            "uniform");
  EXPECT_NE(error_of("[j]\nbssplit=4k/60:8k/60\n").find("more than 100"), std::string::npos);
  EXPECT_NE(error_of("[j]\nbssplit=4k/50,8k/50\n").find("per direction"), std::string::npos);
  EXPECT_NE(error_of("[j]\nbssplit=6k/50:8k/50\n").find("multiples of the smallest"),
            std::string::npos);
  EXPECT_NE(error_of("[j]\nrandom_distribution=zipf:1\n").find("not 1"), std::string::npos);
  EXPECT_NE(error_of("[j]\nrandom_distribution=pareto:1.5\n").find("(0, 1)"), std::string::npos);
  EXPECT_NE(error_of("[j]\nrandom_distribution=normal\n").find("one parameter"), std::string::npos);
  EXPECT_NE(error_of("[j]\nrandom_distribution=zoned:50/5:50/95\n").find("not a modelled"),
            std::string::npos);
}

TEST(FioJobs, ThinkTimeRateAndStonewalls) {
  const FioJobs jobs = translate(
      "[fill]\nrw=write\n[a]\nstonewall\nrw=randread\nthinktime=250\nnumjobs=2\n"
      "[b]\nrw=randread\nrate_iops=5000,5000\nthinktime=2ms\n[c]\nwait_for_previous\n");
  ASSERT_EQ(jobs.jobs.size(), 5u);
  EXPECT_EQ(jobs.jobs[0].group, 0u);
  EXPECT_EQ(jobs.jobs[1].group, 1u);  // a stonewall: after the fill
  EXPECT_EQ(jobs.jobs[2].group, 1u);  // its copy, with it
  EXPECT_EQ(jobs.jobs[3].group, 1u);  // alongside
  EXPECT_EQ(jobs.jobs[4].group, 2u);
  EXPECT_DOUBLE_EQ(jobs.jobs[1].think_us, 250.0);  // thinktime's bare unit is microseconds
  EXPECT_DOUBLE_EQ(jobs.jobs[3].think_us, 2000.0);
  EXPECT_DOUBLE_EQ(jobs.jobs[3].rate_iops, 5000.0);
  EXPECT_DOUBLE_EQ(jobs.jobs[1].rate_iops, 0.0);
}

TEST(FioJobs, EveryJobAndCopyIsAStreamWithItsOwnSeed) {
  const FioJobs jobs = translate("[a]\nrw=randread\nnumjobs=3\n[b]\nrw=write\niodepth=4\n");
  ASSERT_EQ(jobs.jobs.size(), 4u);
  EXPECT_EQ(jobs.jobs[2].name, "a");
  EXPECT_EQ(jobs.jobs[3].name, "b");
  EXPECT_EQ(jobs.jobs[3].workload.queue_depth, 4u);
  EXPECT_NE(jobs.jobs[0].workload.seed, jobs.jobs[1].workload.seed);
}

// ramp_time: one window for the whole report, so every job ramps alike and in one group.
TEST(FioJobs, RampTimeIsOneWindowForEveryJob) {
  const FioJobs jobs = translate(
      "[global]\nramp_time=250ms\nruntime=1\ntime_based\n[a]\nrw=randread\n[b]\n"
      "rw=randwrite\n");
  EXPECT_DOUBLE_EQ(jobs.ramp_ms, 250.0);
  EXPECT_DOUBLE_EQ(jobs.jobs[1].workload.duration_ms, 1000.0);  // counted after the ramp
  EXPECT_DOUBLE_EQ(translate("[a]\nrw=randread\nramp_time=2\n").ramp_ms, 2000.0);  // seconds
  EXPECT_DOUBLE_EQ(translate("[a]\nrw=randread\n").ramp_ms, 0.0);
  EXPECT_EQ(error_of("[a]\nrw=randread\nramp_time=1\n[b]\nrw=randread\nramp_time=2\n"),
            "job.fio:6: job `b`: ramp_time must be the same for every job: the report measures "
            "one window, from the end of the ramp");
  EXPECT_EQ(error_of("[global]\nramp_time=1\n[a]\nrw=read\n[b]\nstonewall\nrw=read\n"),
            "job.fio:2: job `b`: ramp_time with stonewall groups is not modelled: the report "
            "measures one window, from the end of the ramp");
  EXPECT_NE(error_of("[a]\nrw=read\nramp_time=100d\nruntime=100d\n").find("latest simulated time"),
            std::string::npos);
}

TEST(FioJobs, RefusesWhatIsNotModelledNamingFileLineAndOption) {
  EXPECT_EQ(error_of("[j]\nrw=randread\nzonemode=zbd\n"),
            "job.fio:3: option `zonemode=zbd`: not modelled (docs/clients.md lists the options "
            "that are)");
  EXPECT_NE(error_of("[j]\nthinktime=10\nthinktime_blocks=4\n").find("only 1"), std::string::npos);
  EXPECT_NE(error_of("[j]\nrate_iops=100,200\n").find("a different rate per direction"),
            std::string::npos);
  EXPECT_NE(
      error_of("[j]\nrw=trimwrite\n").find("job.fio:2: option `rw=trimwrite`: not a modelled mode"),
      std::string::npos);
  EXPECT_NE(error_of("[j]\nrw=randread:8\n").find("offset modifier"), std::string::npos);
  EXPECT_NE(error_of("[j]\nbs=4k,8k\n").find("a different size per direction"), std::string::npos);
  EXPECT_NE(error_of("[j]\nbs=4q\n").find("unknown size unit `q`"), std::string::npos);
  EXPECT_NE(error_of("[j]\nrwmixread=120\n").find("must be 0 to 100"), std::string::npos);
  EXPECT_NE(error_of("[j]\niodepth=0\n").find("must be at least 1"), std::string::npos);
  EXPECT_NE(error_of("[j]\nruntime=5parsecs\n").find("unknown time unit"), std::string::npos);
  EXPECT_NE(error_of("[j]\ntime_based=yes\n").find("must be 0 or 1"), std::string::npos);
  // Times past the latest simulated time, a block of nothing, a zipf beyond its key's range.
  EXPECT_NE(error_of("[j]\nruntime=999999999d\n")
                .find("job.fio:2: option `runtime=999999999d`: "
                      "past the latest simulated time"),
            std::string::npos);
  EXPECT_NE(error_of("[j]\nthinktime=999999999d\n").find("past the latest simulated time"),
            std::string::npos);
  EXPECT_NE(error_of("[j]\nbs=0\n").find("job.fio:2: option `bs=0`: must be above 0"),
            std::string::npos);
  EXPECT_NE(error_of("[j]\nrandom_distribution=zipf:500\n").find("(0, 100]"), std::string::npos);
  EXPECT_NE(error_of("[j]\nkb_base=1000\n").find("kb_base=1024"), std::string::npos);
}

TEST(FioJobs, RefusesJobsThatDoNotFitTheDevice) {
  EXPECT_EQ(error_of("[big]\nsize=300m\n"),
            "job.fio:1: job `big`: offset + size (314572800 bytes) is past the device's "
            "268435456 bytes");
  EXPECT_NE(error_of("[j]\noffset=256m\n").find("past the device"), std::string::npos);
  EXPECT_NE(error_of("[j]\nbs=1000\n").find("whole sectors"), std::string::npos);
  EXPECT_NE(error_of("[j]\nsize=4k\nbs=8k\n").find("smaller than the largest block size"),
            std::string::npos);
  EXPECT_NE(error_of("[j]\ntime_based\n").find("time_based needs a runtime"), std::string::npos);
  try {
    translate("[deep]\niodepth=64\n", 32);
    ADD_FAILURE() << "an iodepth above host.max_queue_depth was taken";
  } catch (const FioJobError& error) {
    EXPECT_NE(std::string(error.what()).find("host.max_queue_depth (32)"), std::string::npos);
  }
}

}  // namespace
}  // namespace ssd::workload
