// MappingScheme::expect_random_work: preconditioning gives the hint once, before anything is
// written, exactly when it ages the device (simulated or sampled); a fill alone does not. And
// backing a table by huge pages (prefaulted_allocator.h) leaves what it holds as it was.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "ftl/core/ftl_device.h"
#include "ftl/core/preconditioner.h"
#include "ftl/core/prefaulted_allocator.h"
#include "ftl/scheme_registry.h"
#include "tests/ftl/tiny_platform.h"

namespace ssd::ftl {
namespace {

// Page mapping that notes when it is told to expect random work: how many units had been
// written by then.
class HintedScheme final : public MappingScheme {
 public:
  HintedScheme(const SchemeContext& context, std::vector<uint64_t>& hints)
      : m_inner(create_scheme("page", context)), m_hints(hints) {}
  void read(const HostCommand& command) override { m_inner->read(command); }
  void write(const HostCommand& command) override {
    m_written += command.sector_count;
    m_inner->write(command);
  }
  void trim(const HostCommand& command) override { m_inner->trim(command); }
  void flush(const HostCommand& command) override { m_inner->flush(command); }
  bool fill_sequential(const SequentialFill& fill) override {
    if (!m_inner->fill_sequential(fill)) return false;
    m_written += fill.units;
    return true;
  }
  bool lay_out_aged(const AgedLayout& layout) override { return m_inner->lay_out_aged(layout); }
  void expect_random_work() override {
    m_hints.push_back(m_written);
    m_inner->expect_random_work();
  }
  const FtlStats& stats() const override { return m_inner->stats(); }
  uint64_t mapping_memory_bytes() const override { return m_inner->mapping_memory_bytes(); }

 private:
  std::unique_ptr<MappingScheme> m_inner;
  std::vector<uint64_t>& m_hints;
  uint64_t m_written = 0;
};

std::vector<uint64_t> hints_when_preconditioned(double overwrite_ratio, const char* aging) {
  std::vector<uint64_t> hints;
  FtlDevice device(testing::tiny_platform(), FtlDeviceOptions{}, [&](const SchemeContext& context) {
    return std::make_unique<HintedScheme>(context, hints);
  });
  config::PreconditionConfig config;
  config.fill_ratio = 1.0;
  config.overwrite_ratio = overwrite_ratio;
  config.aging = aging;
  config.seed = 3;
  const PreconditionResult result = precondition(device, config);
  EXPECT_EQ(result.aged_by_sampling, overwrite_ratio > 0 && std::string(aging) == "sampled");
  return hints;
}

TEST(RandomWorkHint, GivenOnceBeforeAnythingIsWrittenWhenTheDeviceIsAged) {
  EXPECT_EQ(hints_when_preconditioned(0.5, "simulated"), std::vector<uint64_t>{0});
  EXPECT_EQ(hints_when_preconditioned(0.5, "sampled"), std::vector<uint64_t>{0});
}

TEST(RandomWorkHint, NotGivenForAFillAlone) {
  EXPECT_TRUE(hints_when_preconditioned(0.0, "simulated").empty());
  EXPECT_TRUE(hints_when_preconditioned(0.0, "sampled").empty());
}

TEST(RandomWorkHint, HugePagesLeaveATableAsItWas) {
  // Large enough to be advised (PrefaultedAllocator::kLargeBytes), and not page-aligned at
  // either end: the advice covers only the pages lying whole in it.
  const size_t count = PrefaultedAllocator<char>::kLargeBytes / sizeof(uint32_t) + 1001;
  std::vector<uint32_t> table = populated_vector(count, uint32_t{0});
  for (size_t i = 0; i < count; ++i) table[i] = static_cast<uint32_t>(i * 2654435761u);
  back_by_huge_pages(table);
  for (size_t i = 0; i < count; ++i) {
    ASSERT_EQ(table[i], static_cast<uint32_t>(i * 2654435761u)) << "at " << i;
  }
}

}  // namespace
}  // namespace ssd::ftl
