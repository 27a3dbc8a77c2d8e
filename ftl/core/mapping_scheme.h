// The interface every address-mapping scheme implements (ftl/<scheme>/; the registry,
// ftl/scheme_registry.h, lists them). A scheme is sequential firmware: the controller hands it one
// host command at a time and it works through the FlashBackend, which applies and records every
// operation. Schemes never see time; they report their work (CPU primitives, flash and memory
// operations) and the controller model prices it. Read data is handed back with
// FlashBackend::deliver, one entry per mapping unit in address order, for the integrity oracle.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/platform_config.h"
#include "ftl/core/flash_backend.h"
#include "ftl/core/ftl_stats.h"
#include "ftl/core/host_command.h"

namespace ssd::ftl {

struct AgedPlanes;  // aged_planes.h

class HashEngine;  // ftl/extent/vet/hash_engine.h
class Oracle;      // ftl/core/oracle.h

// One scheme-specific figure of the report: a count, or a mean (`whole` = false), or a word
// (`text` not empty: a setting the reader must not miss, reported instead of the value), or a
// distribution (`counts` not empty: how many times the value 0, 1, 2... was seen, reported
// instead of the value, trailing zeros dropped).
struct MappingFigure {
  std::string name;
  double value = 0.0;
  bool whole = true;
  std::string text = {};
  std::vector<uint64_t> counts = {};
};

// Preconditioning's sequential fill (FtlDevice::fill_sequential): logical units 0 .. units-1
// written in order, whole, by write commands of `chunk_units` units each (the last may be
// shorter), the first of which has id `first_command_id`, each the next.
struct SequentialFill {
  uint64_t units = 0;
  uint32_t chunk_units = 1;
  uint64_t first_command_id = 1;

  uint64_t commands() const { return (units + chunk_units - 1) / chunk_units; }
  uint64_t command_id(Lun lun) const { return first_command_id + lun / chunk_units; }
};

// Sampled aging's layout (precondition.aging = sampled, sampled_aging.h): the miniature's
// `planes` laid out on every die, with `fill`'s units, in an order `seed` draws, in their valid
// slots, each unit holding the content the fill gave it.
struct AgedLayout {
  const AgedPlanes* planes = nullptr;
  SequentialFill fill;
  uint64_t seed = 0;
};

class MappingScheme {
 public:
  virtual ~MappingScheme() = default;

  virtual void read(const HostCommand& command) = 0;
  virtual void write(const HostCommand& command) = 0;
  virtual void trim(const HostCommand& command) = 0;
  // Makes every write accepted so far durable (closes open pages, persists volatile mapping).
  virtual void flush(const HostCommand& command) = 0;

  // Dispatches on the command kind.
  void execute(const HostCommand& command);

  // Runs `fill`'s writes, untimed (recording off), on a scheme that has served nothing yet, in
  // bulk: the same flash, mapping and counts as serving the commands one by one would leave,
  // faster. Returns false, having done nothing, when the scheme has no bulk path (the default)
  // or cannot take this one; the caller then runs the commands.
  virtual bool fill_sequential(const SequentialFill& /*fill*/) { return false; }

  // Sampled aging (sampled_aging.h). On the miniature, aged and flushed: describes its planes
  // (false: the scheme cannot). On the device, which has served nothing, recording off: lays
  // `layout` out, and writes as write() would the units the valid slots cannot hold; false,
  // having done nothing, when it cannot.
  virtual bool describe_aged_planes(AgedPlanes& /*planes*/) const { return false; }
  virtual bool lay_out_aged(const AgedLayout& /*layout*/) { return false; }
  // Whether the layout continues the miniature's sequence numbers, so that a device that may
  // lose power needs a miniature that may too (its pages then carry them): the block-granular
  // schemes, whose aged blocks keep stale copies a recovery tells apart by them. The others lay
  // their units out once each and number them afresh.
  virtual bool lays_out_miniature_sequences() const { return false; }

  // A hint: a write or read of logical unit `lun` comes soon (preconditioning draws its random
  // overwrites ahead). A scheme may start loading what it will look up (its table entry), so the
  // cache miss overlaps other work; nothing else may change.
  virtual void prefetch_unit(Lun /*lun*/) const {}

  // A hint: preconditioning is about to age the device (millions of writes at random places).
  // A scheme may back its per-unit tables by huge pages (back_by_huge_pages,
  // prefaulted_allocator.h); nothing else may change. Before sampled aging it runs on a thread of
  // its own while the miniature ages (preconditioner.cpp): it may touch nothing but its tables'
  // memory advice.
  virtual void expect_random_work() {}

  // The timed run starts (preconditioning and warm-up passes are over): a scheme whose figures
  // describe the measured run rather than the device's whole life starts counting again.
  virtual void start_measuring() {}

  virtual const FtlStats& stats() const = 0;
  // Mapping state as the controller would hold it in its memories (docs/schemes.md per scheme).
  virtual uint64_t mapping_memory_bytes() const = 0;
  // Hit ratio of the mapping cache, for schemes that cache translations.
  virtual std::optional<double> cache_hit_ratio() const { return std::nullopt; }
  // Figures only this scheme has (report.json "mapping.<name>", docs/report.md), in a fixed
  // order so reports stay byte-for-byte deterministic.
  virtual std::vector<MappingFigure> mapping_figures() const { return {}; }
};

// What a scheme is built from.
struct SchemeContext {
  const config::PlatformConfig& platform;
  FlashBackend& backend;
  // The platform's hash-lookup engine (a timed platform's accelerator target), for a scheme
  // whose descriptor says it needs one (SchemeDescriptor::needs_hash_engine); else nullptr.
  HashEngine* hash_engine = nullptr;
  // The integrity oracle (nullptr without one). Only a layer that keeps data by sector reads it:
  // to know what the unit below holds under each sector it takes in (simulation bookkeeping
  // standing in for the data bytes a real buffer holds, ftl/sector_log/sector_shadow.h).
  const Oracle* oracle = nullptr;
};

}  // namespace ssd::ftl
