// The table of mapping schemes selectable with `--ftl NAME`. A new scheme adds one row; everything
// else about it (settings, rules, figures) lives in its folder's descriptor.
#include "ftl/scheme_registry.h"

#include <deque>
#include <map>
#include <stdexcept>

#include "config/validation.h"
#include "ftl/block/block_descriptor.h"
#include "ftl/cache/data_cache.h"
#include "ftl/core/sampled_aging.h"
#include "ftl/dac/dac_descriptor.h"
#include "ftl/dftl/dftl_descriptor.h"
#include "ftl/extent/emt/emt_descriptor.h"
#include "ftl/extent/vet/vet_descriptor.h"
#include "ftl/fast/fast_descriptor.h"
#include "ftl/lsb/lsb_descriptor.h"
#include "ftl/nftl/nftl_descriptor.h"
#include "ftl/page/page_descriptor.h"
#include "ftl/sector_log/sector_layer_descriptor.h"
#include "ftl/sector_log/sector_log_settings.h"
#include "ftl/superblock/superblock_descriptor.h"

namespace ssd::ftl {

namespace {

std::deque<SchemeDescriptor>& table() {
  // A deque: registering a scheme never moves the descriptors others hold references to.
  static std::deque<SchemeDescriptor> entries = {
      page_descriptor(), block_descriptor(), dftl_descriptor(), nftl_descriptor(),
      fast_descriptor(), vet_descriptor(),   emt_descriptor(),  superblock_descriptor(),
      lsb_descriptor(),  dac_descriptor(),
  };
  return entries;
}

std::string known_names() {
  std::string known;
  for (const auto& entry : table()) known += (known.empty() ? "" : ", ") + entry.name;
  return known;
}

class RegistryCatalog final : public config::SchemeCatalog {
 public:
  std::vector<std::string> scheme_names() const override { return ftl::scheme_names(); }

  // Groups several schemes share (the extent frame's, for VET and EMT) are listed once.
  std::vector<std::unique_ptr<config::SettingsGroup>> settings_groups() const override {
    std::map<std::string, std::unique_ptr<config::SettingsGroup>, std::less<>> by_name;
    for (const SchemeDescriptor& entry : schemes()) {
      if (!entry.settings) continue;
      for (auto& group : entry.settings()) {
        const std::string name(group->group());
        by_name.emplace(name, std::move(group));
      }
    }
    std::vector<std::unique_ptr<config::SettingsGroup>> groups;
    for (auto& entry : by_name) groups.push_back(std::move(entry.second));
    return groups;
  }

  std::optional<config::KeyProblem> check(const config::PlatformConfig& platform) const override {
    const SchemeDescriptor& entry = scheme(platform.ftl.scheme);
    // Every scheme keeps its words in the spare area, which must hold them.
    const uint32_t needed = entry.spare_words(platform, Geometry::from_platform(platform)) * 4;
    if (needed > platform.nand.spare_bytes) {
      return config::KeyProblem{"nand.spare_bytes",
                                "the " + entry.name + " scheme keeps " + std::to_string(needed) +
                                    " bytes per page in the spare area (got " +
                                    std::to_string(platform.nand.spare_bytes) + ")"};
    }
    // The sector layer's keys are read by the schemes that put the layer above them only.
    if (!entry.sector_granular && sector_layer_on(platform)) {
      const bool log = platform.ftl.settings.get<SectorLogSettings>().size_bytes > 0;
      return config::KeyProblem{log ? "ftl.sector_log.size_bytes" : "ftl.write_buffer.bytes",
                                "the sector layer (write buffer, sector log) runs above the "
                                "page and dac schemes only, not " +
                                    entry.name + ": set it to 0 or choose one of them"};
    }
    return entry.check ? entry.check(platform) : std::nullopt;
  }

  std::optional<config::KeyProblem> recovery_problem(
      const config::PlatformConfig& platform) const override {
    const SchemeDescriptor& entry = scheme(platform.ftl.scheme);
    if (!entry.recover) {
      return config::KeyProblem{"ftl.scheme", "the " + entry.name +
                                                  " scheme cannot recover from a power cut yet "
                                                  "(schemes that can: " +
                                                  recovering_names() + ")"};
    }
    const uint32_t needed = scheme_spare_words(entry.name, platform, true) * 4;
    if (needed > platform.nand.spare_bytes) {
      return config::KeyProblem{"nand.spare_bytes",
                                "the " + entry.name + " scheme keeps " + std::to_string(needed) +
                                    " bytes per page in the spare area when power may be cut, "
                                    "sequence numbers included (got " +
                                    std::to_string(platform.nand.spare_bytes) + ")"};
    }
    return entry.recovery_problem ? entry.recovery_problem(platform) : std::nullopt;
  }

  std::optional<config::KeyProblem> sampled_aging_problem(const config::PlatformConfig& platform,
                                                          uint32_t sample_dies) const override {
    const SchemeDescriptor& entry = scheme(platform.ftl.scheme);
    if (!entry.ages_by_sampling) {
      return config::KeyProblem{
          "precondition.aging",
          "the " + entry.name + " scheme cannot be aged by sampling (schemes that can: " +
              names_where([](const SchemeDescriptor& e) { return e.ages_by_sampling; }) +
              "); use simulated"};
    }
    if (platform.ftl.placement == "static") {
      return config::KeyProblem{"ftl.placement",
                                "static placement puts a unit on the die its number names, which "
                                "sampled aging's random places do not keep: use "
                                "precondition.aging = simulated"};
    }
    const uint32_t dies = Geometry::from_platform(platform).dies();
    if (sample_dies == 0 || sample_dies > dies || dies % sample_dies != 0) {
      return config::KeyProblem{"precondition.sample_dies",
                                "the miniature's dies must divide the device's " +
                                    std::to_string(dies) + " (got " + std::to_string(sample_dies) +
                                    ")"};
    }
    if (auto problem =
            config::find_platform_problem(miniature_platform(platform, sample_dies), *this)) {
      return config::KeyProblem{"precondition.aging",
                                "sampled aging runs a miniature of the device, which is not a "
                                "valid platform (" +
                                    problem->key + ": " + problem->reason + "); use simulated"};
    }
    return entry.sampled_aging_problem ? entry.sampled_aging_problem(platform) : std::nullopt;
  }

 private:
  // The schemes `has` holds for, comma-separated ("none" when none).
  template <typename Has>
  static std::string names_where(Has has) {
    std::string names;
    for (const SchemeDescriptor& entry : schemes()) {
      if (!has(entry)) continue;
      names += (names.empty() ? "" : ", ") + entry.name;
    }
    return names.empty() ? "none" : names;
  }
  static std::string recovering_names() {
    return names_where([](const SchemeDescriptor& entry) { return bool(entry.recover); });
  }
};

}  // namespace

const std::deque<SchemeDescriptor>& schemes() { return table(); }

const SchemeDescriptor* find_scheme(const std::string& name) {
  for (const auto& entry : table()) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

const SchemeDescriptor& scheme(const std::string& name) {
  if (const SchemeDescriptor* entry = find_scheme(name)) return *entry;
  throw std::invalid_argument("unknown FTL scheme '" + name + "' (known: " + known_names() + ")");
}

std::vector<std::string> scheme_names() {
  std::vector<std::string> names;
  for (const auto& entry : table()) names.push_back(entry.name);
  return names;
}

void register_scheme(SchemeDescriptor descriptor) {
  if (descriptor.name.empty() || find_scheme(descriptor.name) != nullptr) {
    throw std::invalid_argument("cannot register a scheme as '" + descriptor.name +
                                "': the name is empty or taken");
  }
  if (!descriptor.create || !descriptor.spare_words) {
    throw std::invalid_argument("scheme '" + descriptor.name +
                                "' needs a factory and a spare-word count");
  }
  table().push_back(std::move(descriptor));
}

const config::SchemeCatalog& scheme_catalog() {
  static const RegistryCatalog catalog;
  return catalog;
}

std::unique_ptr<MappingScheme> create_scheme(const std::string& name,
                                             const SchemeContext& context) {
  return scheme(name).create(context);
}

uint32_t scheme_spare_words(const std::string& name, const config::PlatformConfig& platform,
                            bool power_loss) {
  const SchemeDescriptor& entry = scheme(name);
  const Geometry g = Geometry::from_platform(platform);
  const bool extra = power_loss && entry.recovery_spare_words;
  const bool settings_extra = power_loss && entry.settings_recovery_spare_words;
  return entry.spare_words(platform, g) + (extra ? entry.recovery_spare_words(g) : 0) +
         (settings_extra ? entry.settings_recovery_spare_words(platform, g) : 0);
}

std::unique_ptr<MappingScheme> recover_scheme(const std::string& name,
                                              const SchemeContext& context) {
  const SchemeDescriptor& entry = scheme(name);
  if (!entry.recover) {
    throw std::invalid_argument("the " + name + " scheme cannot recover from a power cut");
  }
  return entry.recover(context);
}

bool needs_hash_engine(const config::PlatformConfig& platform) {
  const SchemeDescriptor& entry = scheme(platform.ftl.scheme);
  return entry.needs_hash_engine && entry.needs_hash_engine(platform);
}

bool sector_granular(const config::PlatformConfig& platform) {
  const SchemeDescriptor& entry = scheme(platform.ftl.scheme);
  return entry.sector_granular && entry.sector_granular(platform);
}

uint64_t simulator_bytes(const config::PlatformConfig& platform, bool oracle, bool power_loss) {
  const SchemeDescriptor& entry = scheme(platform.ftl.scheme);
  const Geometry g = Geometry::from_platform(platform);
  // FlashArray: write pointer and erase count per block, the scheme's spare words per page, a
  // token per slot with the oracle; block bookkeeping (state, valid count, free-pool entry).
  uint64_t bytes = uint64_t(g.blocks()) * (2 + 4 + 8);
  bytes += g.pages() * 4 * scheme_spare_words(entry.name, platform, power_loss);
  // The oracle's expected token: per unit, or per sector when content is sector-granular.
  const uint64_t expected =
      sector_granular(platform) ? g.logical_units * g.sectors_per_unit : g.logical_units;
  // Power cuts: the durability check's durable token and trim bit, kept as the oracle's are.
  if (power_loss) bytes += expected * (sizeof(Token) + 1);
  if (oracle) bytes += g.slots() * sizeof(Token) + expected * sizeof(Token);
  bytes += DataCache::simulator_bytes(platform, g);
  return bytes + entry.simulator_bytes(platform, g);
}

}  // namespace ssd::ftl
