// Applies one command-line override "section.key=value" (from --set) to whichever key list owns
// the section. The value is read by the key's type; errors name "--set" and the key.
#pragma once

#include <string>
#include <vector>

#include "config/config_messages.h"
#include "config/key_def.h"

namespace ssd::config {

// `source` names the option the assignment came from in messages ("--set", "--fit", ...).
void apply_override(const std::string& assignment, const KeyList& platform, const KeyList& scenario,
                    OriginMap& origins, const std::string& source = "--set");

}  // namespace ssd::config
