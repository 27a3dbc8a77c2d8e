// The table of mapping schemes selectable with `--ftl NAME`. A new scheme adds one row.
#include <functional>
#include <stdexcept>

#include "ftl/block/block_mapping.h"
#include "ftl/core/geometry.h"
#include "ftl/core/mapping_scheme.h"
#include "ftl/core/page_store.h"
#include "ftl/dftl/dftl.h"
#include "ftl/extent/extent_ftl.h"
#include "ftl/fast/fast_ftl.h"
#include "ftl/nftl/nftl.h"
#include "ftl/page/page_mapping.h"

namespace ssd::ftl {

namespace {

struct SchemeEntry {
  const char* name;
  std::function<uint32_t(const Geometry&)> spare_words;
  std::function<std::unique_ptr<MappingScheme>(const SchemeContext&)> create;
};

const std::vector<SchemeEntry>& registry() {
  static const std::vector<SchemeEntry> entries = {
      {"page", PageStore::spare_words,
       [](const SchemeContext& c) { return std::make_unique<PageMapping>(c); }},
      {"block", BlockScheme::spare_words,
       [](const SchemeContext& c) { return std::make_unique<BlockMapping>(c); }},
      {"dftl", PageStore::spare_words,
       [](const SchemeContext& c) { return std::make_unique<Dftl>(c); }},
      {"nftl", BlockScheme::spare_words,
       [](const SchemeContext& c) { return std::make_unique<Nftl>(c); }},
      {"fast", BlockScheme::spare_words,
       [](const SchemeContext& c) { return std::make_unique<FastFtl>(c); }},
      {"vet", PageStore::spare_words,
       [](const SchemeContext& c) { return std::make_unique<ExtentFtl>(c, "vet"); }},
      {"emt", PageStore::spare_words,
       [](const SchemeContext& c) { return std::make_unique<ExtentFtl>(c, "emt"); }},
  };
  return entries;
}

const SchemeEntry& find(const std::string& name) {
  for (const auto& entry : registry()) {
    if (name == entry.name) return entry;
  }
  std::string known;
  for (const auto& entry : registry())
    known += (known.empty() ? "" : ", ") + std::string(entry.name);
  throw std::invalid_argument("unknown FTL scheme '" + name + "' (known: " + known + ")");
}

}  // namespace

void MappingScheme::execute(const HostCommand& command) {
  switch (command.kind) {
    case CommandKind::kRead:
      read(command);
      break;
    case CommandKind::kWrite:
      write(command);
      break;
    case CommandKind::kTrim:
      trim(command);
      break;
    case CommandKind::kFlush:
      flush(command);
      break;
  }
}

const char* to_string(CommandKind kind) {
  switch (kind) {
    case CommandKind::kRead:
      return "read";
    case CommandKind::kWrite:
      return "write";
    case CommandKind::kTrim:
      return "trim";
    case CommandKind::kFlush:
      return "flush";
  }
  return "?";
}

std::unique_ptr<MappingScheme> create_scheme(const std::string& name,
                                             const SchemeContext& context) {
  return find(name).create(context);
}

std::vector<std::string> scheme_names() {
  std::vector<std::string> names;
  for (const auto& entry : registry()) names.push_back(entry.name);
  return names;
}

uint32_t scheme_spare_words(const std::string& name, const config::PlatformConfig& platform) {
  return find(name).spare_words(Geometry::from_platform(platform));
}

}  // namespace ssd::ftl
