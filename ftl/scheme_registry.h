// The mapping schemes selectable with `--ftl NAME`: the built-in ones (one row each in
// scheme_registry.cpp) and any registered at run time (a test's toy scheme, an extension). The
// registry is also the scheme catalog configuration reads keys and rules from.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "config/scheme_catalog.h"
#include "ftl/core/mapping_scheme.h"
#include "ftl/core/scheme_descriptor.h"

namespace ssd::ftl {

// Every scheme, the built-in ones first, in a fixed order.
const std::deque<SchemeDescriptor>& schemes();
// The scheme called `name`, or nullptr.
const SchemeDescriptor* find_scheme(const std::string& name);
// The scheme called `name`; throws std::invalid_argument naming the known ones.
const SchemeDescriptor& scheme(const std::string& name);
std::vector<std::string> scheme_names();
// Adds a scheme; throws std::invalid_argument when its name is taken.
void register_scheme(SchemeDescriptor descriptor);

// The registry as configuration sees it (config/scheme_catalog.h).
const config::SchemeCatalog& scheme_catalog();

// Builds the scheme `name` (throws std::invalid_argument for an unknown one).
std::unique_ptr<MappingScheme> create_scheme(const std::string& name, const SchemeContext& context);
// How many 32-bit spare words per page scheme `name` keeps (sizes the FlashArray), with the words
// it adds when the device may lose power (`power_loss`: SchemeDescriptor::recovery_spare_words).
uint32_t scheme_spare_words(const std::string& name, const config::PlatformConfig& platform,
                            bool power_loss = false);
// Builds the scheme `name` again from the flash a power cut left (SchemeDescriptor::recover);
// throws std::invalid_argument when it cannot recover.
std::unique_ptr<MappingScheme> recover_scheme(const std::string& name,
                                              const SchemeContext& context);
// Whether the platform's scheme, with its settings, needs the platform's hash engine.
bool needs_hash_engine(const config::PlatformConfig& platform);

// Whether the platform's scheme, with its settings, keeps content by sector (a sector layer on):
// the oracle then checks sectors (oracle.h).
bool sector_granular(const config::PlatformConfig& platform);

// Host memory the simulator needs for the platform's device and scheme, estimated from the
// geometry before anything is allocated: the functional flash (spare words per page, a content
// token per slot with the oracle), block bookkeeping, the oracle's expected token per logical
// unit, the data cache's lines (DataCache::simulator_bytes) and the scheme's own state
// (SchemeDescriptor::simulator_bytes).
uint64_t simulator_bytes(const config::PlatformConfig& platform, bool oracle,
                         bool power_loss = false);

}  // namespace ssd::ftl
