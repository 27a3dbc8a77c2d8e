// The engines in rtl/ (the C++ reference model, the Verilated RTL) implement the FTL's
// hash-engine interface, ftl/extent/vet/hash_engine.h: the FTL owns it, rtl/ depends on it and
// never the other way. This header brings its names into ssd::rtl.
#pragma once

#include "ftl/extent/vet/hash_engine.h"

namespace ssd::rtl {

using ftl::HashCommand;
using ftl::HashEngine;
using ftl::HashEngineConfig;
using ftl::HashOp;
using ftl::HashResponse;
using ftl::HashStatus;
using ftl::kHashOpCount;
using ftl::NodeValue;
using ftl::to_string;

}  // namespace ssd::rtl
