// The mapping structures the experiments compare, by name: "page" (a page table), "emt", and
// "vet-<lis|bis>-<pd|pf>-<chaining|cuckoo>" (every VET variant; "vet" alone is the default
// variant, bis-pf-chaining).
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/page_table_map.h"
#include "ftl/extent/emt/emt_map.h"
#include "ftl/extent/vet/vet_map.h"

namespace ssd::bench {

inline std::vector<std::string> vet_variant_names() {
  std::vector<std::string> names;
  for (const char* insertion : {"lis", "bis"}) {
    for (const char* layout : {"pd", "pf"}) {
      for (const char* hash : {"chaining", "cuckoo"}) {
        names.push_back(std::string("vet-") + insertion + "-" + layout + "-" + hash);
      }
    }
  }
  return names;
}

inline std::unique_ptr<ftl::ExtentMap> make_structure(const std::string& name,
                                                      const ftl::ExtentSpace& space,
                                                      ftl::CpuWork& cpu) {
  if (name == "page") return std::make_unique<PageTableMap>(space, cpu);
  if (name == "emt") return std::make_unique<ftl::EmtMap>(space, cpu);
  if (name == "vet") return std::make_unique<ftl::VetMap>(space, ftl::VetOptions{}, cpu);
  for (const std::string& variant : vet_variant_names()) {
    if (name != variant) continue;
    ftl::VetOptions options;
    options.insertion =
        name.find("-lis-") != std::string::npos ? ftl::VetInsertion::kLis : ftl::VetInsertion::kBis;
    options.layout = name.find("-pd-") != std::string::npos ? ftl::VetLayout::kPointerDependent
                                                            : ftl::VetLayout::kPointerFree;
    options.hash =
        name.find("-cuckoo") != std::string::npos ? ftl::VetHash::kCuckoo : ftl::VetHash::kChaining;
    return std::make_unique<ftl::VetMap>(space, options, cpu);
  }
  throw std::invalid_argument("unknown mapping structure '" + name +
                              "' (page, emt, vet, vet-<lis|bis>-<pd|pf>-<chaining|cuckoo>)");
}

}  // namespace ssd::bench
