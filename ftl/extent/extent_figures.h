// The report figures the extent-mapping frame (extent_ftl.h) adds for VET and EMT alike, in the
// order ExtentFtl::mapping_figures() returns them (docs/report.md).
#pragma once

#include <vector>

#include "ftl/core/scheme_descriptor.h"

namespace ssd::ftl {

std::vector<FigureDoc> extent_figures();

}  // namespace ssd::ftl
