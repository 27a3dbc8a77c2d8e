// DAC (`--ftl dac`): the registry's row (ftl/scheme_registry.cpp) and everything else the
// simulator knows of the scheme besides its code: settings, rules, figures
// (ftl/core/scheme_descriptor.h).
#pragma once

#include "ftl/core/scheme_descriptor.h"

namespace ssd::ftl {

SchemeDescriptor dac_descriptor();

}  // namespace ssd::ftl
