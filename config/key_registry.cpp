#include "config/key_registry.h"

namespace ssd::config {

const std::vector<std::string_view>& platform_sections() {
  static const std::vector<std::string_view> sections = {
      "platform", "nand", "ftl",   "controller", "accelerator", "dram",
      "nvram",    "host", "cache", "energy",     "sim"};
  return sections;
}

const std::vector<std::string_view>& scenario_sections() {
  static const std::vector<std::string_view> sections = {"scenario", "workload", "precondition",
                                                         "run", "power"};
  return sections;
}

}  // namespace ssd::config
