#include "ftl/core/preconditioner.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <thread>

#include "ftl/core/random.h"
#include "ftl/core/sampled_aging.h"

namespace ssd::ftl {

namespace {
constexpr uint32_t kFillChunkUnits = 256;  // large sequential writes: cheap per unit
constexpr uint64_t kProgressEvery = 1u << 20;
constexpr uint32_t kPrefetchAhead = 8;  // overwrites drawn ahead of the one written

// Ages the miniature (sampled_aging.h) while a second thread has the device's scheme prepare for
// the random work the layout and the run will do (MappingScheme::expect_random_work): backing a
// table already written by huge pages copies it, seconds on a large device, and nothing touches
// the device's tables before the layout. The same state either way; only the wall time differs.
AgedPlanes age_miniature_preparing(FtlDevice& device, const config::PreconditionConfig& config,
                                   const std::function<void(double)>& progress) {
  std::thread prepare([&device] { device.scheme().expect_random_work(); });
  try {
    AgedPlanes planes = age_miniature(device.platform(), config, progress,
                                      device.scheme().lays_out_miniature_sequences());
    prepare.join();
    return planes;
  } catch (...) {
    prepare.join();
    throw;
  }
}

// Preconditioning ends with a flush: everything written is durable.
void flush(FtlDevice& device, PreconditionResult& result) {
  HostCommand command;
  command.kind = CommandKind::kFlush;
  device.run(command);
  ++result.commands;
}

}  // namespace

PreconditionResult precondition(FtlDevice& device, const config::PreconditionConfig& config,
                                const std::function<void(double)>& progress, bool bulk_fill) {
  const Geometry& g = device.geometry();
  const uint64_t fill_units = std::min<uint64_t>(
      g.logical_units, static_cast<uint64_t>(std::floor(config.fill_ratio * g.logical_units)));
  const uint64_t overwrite_units =
      fill_units == 0 ? 0
                      : static_cast<uint64_t>(std::floor(config.overwrite_ratio * g.logical_units));
  const uint64_t total = fill_units + overwrite_units;
  PreconditionResult result;
  result.overwrites = overwrite_units;
  if (total == 0) return result;

  FlashBackend& backend = device.backend();
  const bool was_recording = backend.recording();
  backend.set_recording(false);
  HostCommand command;
  command.kind = CommandKind::kWrite;
  uint64_t next_report = kProgressEvery;
  const auto report = [&] {
    if (progress && result.units_written >= next_report) {
      progress(double(result.units_written) / double(total));
      next_report += kProgressEvery;
    }
  };

  // Aging writes at random places for seconds to minutes: worth the scheme's preparing for it
  // (huge pages for its tables). A fill alone is sequential and short.
  const bool sampled = config.aging == "sampled" && overwrite_units > 0;
  if (overwrite_units > 0 && !sampled) device.scheme().expect_random_work();
  // Aged by sampling: a miniature of a few dies runs the fill and the overwrites, and its planes
  // are laid out on every die (sampled_aging.h). The units are those of the fill, in new places.
  if (sampled) {
    const AgedPlanes planes = age_miniature_preparing(device, config, progress);
    if (!device.lay_out_aged(planes, fill_units, kFillChunkUnits, config.seed)) {
      throw std::invalid_argument("precondition.aging = sampled: the " +
                                  device.platform().ftl.scheme +
                                  " scheme cannot lay the aged planes out on this device");
    }
    result.aged_by_sampling = true;
    result.units_written = total;
    result.commands = (fill_units + kFillChunkUnits - 1) / kFillChunkUnits + overwrite_units;
    flush(device, result);
    backend.set_recording(was_recording);
    if (progress) progress(1.0);
    return result;
  }
  // In bulk where the scheme can (the same state as the commands one by one, faster).
  if (bulk_fill && device.fill_sequential(fill_units, kFillChunkUnits)) {
    result.filled_in_bulk = true;
    result.units_written = fill_units;
    result.commands = (fill_units + kFillChunkUnits - 1) / kFillChunkUnits;
    report();
  }
  for (uint64_t lun = result.units_written; lun < fill_units; lun += kFillChunkUnits) {
    const uint64_t units = std::min<uint64_t>(kFillChunkUnits, fill_units - lun);
    command.start_sector = lun * g.sectors_per_unit;
    command.sector_count = static_cast<uint32_t>(units * g.sectors_per_unit);
    device.run(command);
    result.units_written += units;
    ++result.commands;
    report();
  }
  // The overwrites' units are drawn kPrefetchAhead ahead, and the scheme told of each (the same
  // draws in the same order: the same units): its table entry is a cache miss on a large device.
  Random random(config.seed);
  Lun ahead[kPrefetchAhead];
  const uint64_t drawn_first = std::min<uint64_t>(kPrefetchAhead, overwrite_units);
  for (uint64_t i = 0; i < drawn_first; ++i) {
    ahead[i] = static_cast<Lun>(random.below(fill_units));
    device.scheme().prefetch_unit(ahead[i]);
  }
  command.sector_count = g.sectors_per_unit;
  for (uint64_t i = 0; i < overwrite_units; ++i) {
    Lun& slot = ahead[i % kPrefetchAhead];
    command.start_sector = uint64_t{slot} * g.sectors_per_unit;
    if (i + kPrefetchAhead < overwrite_units) {
      slot = static_cast<Lun>(random.below(fill_units));
      device.scheme().prefetch_unit(slot);
    }
    device.run(command);
    ++result.units_written;
    ++result.commands;
    report();
  }
  flush(device, result);
  backend.set_recording(was_recording);
  if (progress) progress(1.0);
  return result;
}

}  // namespace ssd::ftl
