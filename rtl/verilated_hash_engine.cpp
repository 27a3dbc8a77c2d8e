#include "rtl/verilated_hash_engine.h"

#include <sstream>
#include <stdexcept>

#include "rtl/model/vet_hash_model.h"
#include "rtl/verilated_engine.h"

namespace ssd::rtl {

namespace {

std::string describe(const HashResponse& r) {
  std::ostringstream out;
  out << to_string(r.status) << " key=0x" << std::hex << r.key << " value={0x" << r.value.w0
      << ",0x" << r.value.w1 << ",0x" << r.value.w2 << "}" << std::dec << " way=" << r.way
      << " probes=" << r.probes << " latency=" << r.latency_cycles << " issue=" << r.issue_cycles;
  return out.str();
}

template <typename V>
class VerilatedHashEngine final : public HashEngine {
 public:
  explicit VerilatedHashEngine(const std::string& trace_path)
      : m_rtl(trace_path), m_model(m_config) {}

  HashResponse execute(const HashCommand& command) override {
    const HashResponse got = m_rtl.run(command);
    const HashResponse want = m_model.execute(command);
    if (got != want) {
      std::ostringstream out;
      out << "RTL hash engine diverged from the reference model on command " << m_commands << " ("
          << to_string(static_cast<HashOp>(command.op & 7u)) << " key=0x" << std::hex << command.key
          << std::dec << "): RTL " << describe(got) << ", model " << describe(want);
      throw std::runtime_error(out.str());
    }
    ++m_commands;
    return got;
  }
  const HashEngineConfig& config() const override { return m_config; }
  void for_each(const std::function<void(uint64_t, const NodeValue&)>& visit) const override {
    m_model.for_each(visit);  // the RTL's RAM is not readable from software; the model matches it
  }
  bool peek(uint64_t key, NodeValue& value) const override { return m_model.peek(key, value); }

 private:
  HashEngineConfig m_config = VerilatedEngine<V>::config();
  VerilatedEngine<V> m_rtl;
  HashEngineModel m_model;
  uint64_t m_commands = 0;
};

template <typename V>
bool is(const HashEngineConfig& c) {
  const HashEngineConfig built = VerilatedEngine<V>::config();
  return c.bucket_bits == built.bucket_bits && c.ways == built.ways;
}

}  // namespace

std::vector<HashEngineConfig> verilated_configs() {
  return {VerilatedEngine<Vvet_hash_engine_platform>::config(),
          VerilatedEngine<Vvet_hash_engine>::config(),
          VerilatedEngine<Vvet_hash_engine_small>::config()};
}

std::unique_ptr<HashEngine> make_verilated_hash_engine(const HashEngineConfig& config,
                                                       const std::string& trace_path) {
  if (is<Vvet_hash_engine_platform>(config)) {
    return std::make_unique<VerilatedHashEngine<Vvet_hash_engine_platform>>(trace_path);
  }
  if (is<Vvet_hash_engine>(config)) {
    return std::make_unique<VerilatedHashEngine<Vvet_hash_engine>>(trace_path);
  }
  if (is<Vvet_hash_engine_small>(config)) {
    return std::make_unique<VerilatedHashEngine<Vvet_hash_engine_small>>(trace_path);
  }
  std::string built;
  for (const HashEngineConfig& c : verilated_configs()) {
    built += (built.empty() ? "" : ", ") + std::to_string(c.bucket_bits) + " x " +
             std::to_string(c.ways);
  }
  throw std::invalid_argument("no Verilated hash engine with bucket_bits " +
                              std::to_string(config.bucket_bits) + " and " +
                              std::to_string(config.ways) + " ways (built: " + built + ")");
}

}  // namespace ssd::rtl
