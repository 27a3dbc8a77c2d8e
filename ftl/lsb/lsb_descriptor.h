// The LSB FTL's entry in the scheme registry (ftl/scheme_registry.cpp): everything else the
// simulator knows of the scheme besides its code: settings, rules, figures.
#pragma once

#include "ftl/core/scheme_descriptor.h"

namespace ssd::ftl {

SchemeDescriptor lsb_descriptor();

}  // namespace ssd::ftl
