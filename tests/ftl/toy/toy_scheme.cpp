#include "tests/ftl/toy/toy_scheme.h"

#include <vector>

#include "config/capacity.h"
#include "ftl/core/content_token.h"
#include "ftl/core/page_store.h"
#include "ftl/core/unit_span.h"
#include "ftl/scheme_registry.h"
#include "tests/ftl/toy/toy_settings.h"

namespace ssd::testing {

namespace {

using ftl::kNone;
using ftl::Lun;
using ftl::SlotId;

class ToyScheme final : public ftl::MappingScheme, private ftl::MappingOwner {
 public:
  explicit ToyScheme(const ftl::SchemeContext& context)
      : m_backend(context.backend),
        m_geometry(context.backend.geometry()),
        m_probes(context.platform.ftl.settings.get<ToySettings>().probes_per_lookup),
        m_map(m_geometry.logical_units, kNone),
        m_store(context.platform, context.backend, *this, m_stats) {}

  void read(const ftl::HostCommand& command) override {
    const ftl::UnitSpan span = span_of(command);
    for (uint32_t i = 0; i < span.count; ++i) {
      const Lun lun = span.first + i;
      look_up();
      if (m_map[lun] == kNone) {
        m_backend.deliver(lun, 0);
        continue;
      }
      m_store.read(m_map[lun], 1, ftl::OpClass::kHostRead);
      m_backend.deliver(lun, m_store.token(m_map[lun]));
    }
  }
  void write(const ftl::HostCommand& command) override {
    const ftl::UnitSpan span = span_of(command);
    for (uint32_t i = 0; i < span.count; ++i) {
      const Lun lun = span.first + i;
      look_up();
      // The store's rule for a write's content: the token a layer above supplies, else the one
      // the command makes (reading the old copy first for a partial unit).
      uint32_t after = kNone;
      const ftl::Token token = m_store.unit_content(command, span, i, m_map[lun], after);
      const SlotId slot = m_store.write(lun, token, after);
      if (m_map[lun] != kNone) m_store.invalidate(m_map[lun]);
      m_map[lun] = slot;
    }
  }
  void trim(const ftl::HostCommand& command) override {
    const ftl::UnitSpan span = span_of(command);
    for (uint32_t i = 0; i < span.count; ++i) {
      const Lun lun = span.first + i;
      if (span.mask_of(i) != span.full_mask || m_map[lun] == kNone) continue;
      m_store.invalidate(m_map[lun]);
      m_map[lun] = kNone;
    }
  }
  void flush(const ftl::HostCommand&) override { m_store.flush(); }

  const ftl::FtlStats& stats() const override { return m_stats; }
  uint64_t mapping_memory_bytes() const override { return m_map.size() * sizeof(SlotId); }
  std::vector<ftl::MappingFigure> mapping_figures() const override {
    return {{"toy_lookups", double(m_timed_lookups), true}};
  }

 private:
  bool maps(Lun lun, SlotId slot) const override { return m_map[lun] == slot; }
  void relocate(Lun lun, SlotId, SlotId to) override { m_map[lun] = to; }

  ftl::UnitSpan span_of(const ftl::HostCommand& command) const {
    return ftl::unit_span(command.start_sector, command.sector_count, m_geometry.sectors_per_unit);
  }
  void look_up() {
    m_backend.cpu().hash_probes += m_probes;
    if (m_backend.recording()) ++m_timed_lookups;  // preconditioning is not the run
  }

  ftl::FlashBackend& m_backend;
  const ftl::Geometry& m_geometry;
  uint32_t m_probes;
  ftl::FtlStats m_stats;
  std::vector<SlotId> m_map;
  ftl::PageStore m_store;
  uint64_t m_timed_lookups = 0;
};

// The toy's rule against the platform: whole pages only, naming the key to change.
std::optional<config::KeyProblem> check_toy(const config::PlatformConfig& p) {
  if (config::mapping_unit_bytes(p) == p.nand.page_bytes) return std::nullopt;
  return config::KeyProblem{"ftl.mapping_unit_bytes", "the toy scheme maps whole pages"};
}

}  // namespace

ftl::SchemeDescriptor toy_descriptor() {
  ftl::SchemeDescriptor d;
  d.name = "toy";
  d.summary = "test-only page mapping that proves the scheme frame";
  d.settings = ftl::settings_of<ToySettings>;
  d.check = check_toy;
  d.spare_words = ftl::spare_words_by_geometry<ftl::PageStore::spare_words>;
  d.figures = {{"toy_lookups", "units the toy scheme looked up during the run"}};
  d.simulator_bytes = [](const config::PlatformConfig&, const ftl::Geometry& g) {
    return g.logical_units * sizeof(SlotId);
  };
  d.create = [](const ftl::SchemeContext& c) { return std::make_unique<ToyScheme>(c); };
  return d;
}

void register_toy_scheme() {
  if (ftl::find_scheme("toy") == nullptr) ftl::register_scheme(toy_descriptor());
}

}  // namespace ssd::testing
