// A test-only mapping scheme that proves the scheme frame: everything it needs lives in this
// folder (settings, rules, figures, code) and one call registers it (register_toy_scheme()), as
// one row of ftl/scheme_registry.cpp does for a built-in scheme. It maps whole pages through
// the shared PageStore and charges `ftl.toy.probes_per_lookup` hash probes per unit it looks up.
#pragma once

#include "ftl/core/scheme_descriptor.h"

namespace ssd::testing {

ftl::SchemeDescriptor toy_descriptor();

// Registers "toy" once per process (later calls do nothing).
void register_toy_scheme();

}  // namespace ssd::testing
