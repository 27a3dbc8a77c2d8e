// What a page-granular scheme's descriptor needs to offer the sector layer (sector_layer.h)
// above it: the rules, the figures, the simulator's memory for it, and the wrapping. A scheme
// that supports the layer lists SectorLogSettings and WriteBufferSettings among its settings and
// calls these (ftl/page/page_descriptor.cpp, ftl/dac/dac_descriptor.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "config/key_def.h"
#include "config/platform_config.h"
#include "ftl/core/block_lender.h"
#include "ftl/core/geometry.h"
#include "ftl/core/mapping_scheme.h"
#include "ftl/core/scheme_descriptor.h"
#include "ftl/sector_log/lower_scheme.h"
#include "ftl/sector_log/sector_layer.h"

namespace ssd::ftl {

// Whether the platform puts the layer on (a write buffer or a sector log).
bool sector_layer_on(const config::PlatformConfig& platform);
// The layer's rules: its log must be whole blocks, at least two, and fit in the FTL's spare
// blocks beside what the scheme needs of them per plane (`scheme_blocks`; 0: page mapping's GC
// reserve plus its host and GC open blocks); the DRAM must hold the sector map of two log blocks.
std::optional<config::KeyProblem> check_sector_layer(const config::PlatformConfig& platform,
                                                     uint64_t scheme_blocks = 0);
// Power cuts: why the layer cannot recover with these settings, naming the key to change; none
// when it can, or when the layer is off.
std::optional<config::KeyProblem> sector_layer_recovery_problem(
    const config::PlatformConfig& platform);
// Sampled aging (ftl/core/sampled_aging.h) lays out the scheme's units, not the layer's: why not
// with the layer on, naming its key; none when it is off.
std::optional<config::KeyProblem> sector_layer_sampled_aging_problem(
    const config::PlatformConfig& platform);
// Spare words the layer adds per page when power may be cut (SchemeDescriptor::
// settings_recovery_spare_words): the sector log's addresses, when the spare area holds them.
uint32_t sector_layer_recovery_spare_words(const config::PlatformConfig& platform,
                                           const Geometry& geometry);
// The figures the layer adds after the scheme's own (report.json "mapping.<name>").
const std::vector<FigureDoc>& sector_layer_figure_docs();
// Host memory for the layer's state (log slots, map, buffer, shadow), estimated up front.
uint64_t sector_layer_simulator_bytes(const config::PlatformConfig& platform,
                                      const Geometry& geometry);

// `scheme` with the layer above it when the platform puts it on, else `scheme` itself.
// `Scheme` has a unit table (slot_of) over a PageStore (store()): LowerSchemeOf.
template <class Scheme>
std::unique_ptr<MappingScheme> with_sector_layer(
    const SchemeContext& context, std::unique_ptr<Scheme> scheme,
    SectorLayer::Start start = SectorLayer::Start::kFresh) {
  if (!sector_layer_on(context.platform)) return scheme;
  BlockLender& lender = *scheme;
  auto lower = std::make_unique<LowerSchemeOf<Scheme>>(*scheme);
  return std::make_unique<SectorLayer>(context, std::move(scheme), lender, std::move(lower), start);
}
// After a power cut: `recovered`, the scheme rebuilt from the flash, with the layer rebuilt above
// it when the platform puts it on (its write buffer starts empty; its log comes back from the
// blocks the scheme kept lent).
template <class Scheme>
std::unique_ptr<MappingScheme> recovered_with_sector_layer(const SchemeContext& context,
                                                           std::unique_ptr<Scheme> recovered) {
  return with_sector_layer(context, std::move(recovered), SectorLayer::Start::kAfterCut);
}

}  // namespace ssd::ftl
