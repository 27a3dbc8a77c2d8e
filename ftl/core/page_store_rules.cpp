#include "ftl/core/page_store_rules.h"

#include <string>

namespace ssd::ftl {

std::optional<config::KeyProblem> check_page_granular(const config::PlatformConfig& p) {
  if (p.nand.pages_per_block >= 2) return std::nullopt;
  return config::KeyProblem{"nand.pages_per_block",
                            "must be >= 2 for the " + p.ftl.scheme +
                                " scheme: its garbage collection frees a block by moving valid "
                                "pages out, which a one-page block never allows (got " +
                                std::to_string(p.nand.pages_per_block) + ")"};
}

}  // namespace ssd::ftl
