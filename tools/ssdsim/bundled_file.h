// The files the project ships (platforms/, scenarios/): found from any working directory, so that
// `ssdsim run` and `ssdsim serve` work outside the source tree too.
#pragma once

#include <string>

namespace ssd::tools {

// `relative` as given when it exists from the working directory, else the same path in the
// source tree (where this build was configured from) when it exists there, else as given (so the
// error that follows names what the user wrote).
std::string bundled_file(const std::string& relative);

}  // namespace ssd::tools
