// The Verilated engine behind HashEngine (rtl/verilated_hash_engine.h), as the platform's
// accelerator target uses it: every size that was Verilated can be made and answers like the
// reference model; other sizes are refused naming what was built; peek and for_each see the table.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

#include "ftl/core/random.h"
#include "rtl/model/vet_hash_model.h"
#include "rtl/verilated_hash_engine.h"

namespace ssd::rtl {
namespace {

TEST(VerilatedHashEngine, RefusesSizesThatWereNotVerilated) {
  try {
    make_verilated_hash_engine({12, 8});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("built: 13 x 8, 10 x 4, 4 x 3"), std::string::npos)
        << e.what();
  }
}

TEST(VerilatedHashEngine, EverySizeAnswersLikeTheModel) {
  for (const HashEngineConfig& size : verilated_configs()) {
    auto engine = make_verilated_hash_engine(size);
    HashEngineModel model(size);
    EXPECT_EQ(engine->config().bucket_bits, size.bucket_bits);
    EXPECT_EQ(engine->config().ways, size.ways);
    ftl::Random rng(size.bucket_bits * 100 + size.ways);
    for (int i = 0; i < 20000; ++i) {
      HashCommand c;
      const uint64_t r = rng.below(100);
      c.op = static_cast<uint8_t>(r < 35   ? HashOp::kInsert
                                  : r < 60 ? HashOp::kFind
                                  : r < 75 ? HashOp::kDelete
                                  : r < 85 ? HashOp::kUpdate
                                           : HashOp::kMultiLookup);
      c.key = c.op == uint8_t(HashOp::kMultiLookup) ? rng.below(1u << 16)
                                                    : (rng.below(3000) << 6) | rng.below(17);
      c.bits = 16;
      c.value = ftl::NodeValue{uint32_t(i), uint32_t(rng.below(2)), uint32_t(i * 3)};
      ASSERT_EQ(engine->execute(c), model.execute(c)) << "command " << i;
    }
    std::map<uint64_t, uint32_t> seen_engine, seen_model;
    engine->for_each([&](uint64_t k, const NodeValue& v) { seen_engine[k] = v.w0; });
    model.for_each([&](uint64_t k, const NodeValue& v) { seen_model[k] = v.w0; });
    EXPECT_EQ(seen_engine, seen_model);
    ASSERT_FALSE(seen_model.empty());
    NodeValue v;
    EXPECT_TRUE(engine->peek(seen_model.begin()->first, v));
    EXPECT_EQ(v.w0, seen_model.begin()->second);
  }
}

}  // namespace
}  // namespace ssd::rtl
