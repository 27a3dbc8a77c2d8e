// A functional SSD without time: the flash array, the backend, one mapping scheme and (optionally)
// the integrity oracle, driven one host command at a time. The controller model wraps it with
// timing; tests and the preconditioner drive it directly.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "config/platform_config.h"
#include "ftl/cache/data_cache.h"
#include "ftl/core/flash_array.h"
#include "ftl/core/flash_backend.h"
#include "ftl/core/geometry.h"
#include "ftl/core/host_command.h"
#include "ftl/core/host_data.h"
#include "ftl/core/mapping_scheme.h"
#include "ftl/core/oracle.h"
#include "ftl/power/durability_check.h"

namespace ssd::ftl {

struct FtlDeviceOptions {
  bool oracle = true;    // check every read (stores a token per unit and per slot)
  bool journal = false;  // remember in-flight operations for power-cut undo
  // The device may lose power (ftl/power/): the journal, the scheme's recovery words in the
  // spare area (sequence numbers) and, with the oracle, the durability check.
  bool power_loss = false;
  // Where VET's accelerator commands go (SchemeContext::hash_engine); must outlive the device.
  HashEngine* hash_engine = nullptr;
  // Keep the bytes the host writes (host_data.h) and give them back to reads the oracle passed:
  // a device that real clients use (ssdsim serve). Needs the oracle; not with power loss.
  bool host_data = false;
};

class FtlDevice {
 public:
  using SchemeMaker = std::function<std::unique_ptr<MappingScheme>(const SchemeContext&)>;

  FtlDevice(const config::PlatformConfig& platform, const FtlDeviceOptions& options);
  // With a scheme built by `make` (tests that assemble a scheme from parts); the flash keeps the
  // spare words of the scheme platform.ftl.scheme names.
  FtlDevice(const config::PlatformConfig& platform, const FtlDeviceOptions& options,
            const SchemeMaker& make);

  // Runs one command: gives it the next command id, lets the scheme serve it, keeps the oracle
  // up to date and checks reads. The operations it caused are in backend().ops() until the next
  // call. Returns the number of units that failed the integrity check (0 without oracle).
  // With a data cache the command goes through it (data_cache.h). With host data
  // (FtlDeviceOptions::host_data) a write keeps command.data's bytes and a read fills
  // command.data, but only when it returned no mismatching unit.
  // A FUA write is served as the write, then what a flush does (the scheme's flush: its open
  // pages programmed, its volatile mapping persisted), in the same command, so that the command
  // completes once its data is on flash. More than FUA needs (the scheme's other pending data
  // goes too), as many controllers do; the promise is only the write's own units.
  uint64_t run(HostCommand& command);

  // Preconditioning's sequential fill in bulk (MappingScheme::fill_sequential): logical units
  // 0 .. units-1 written whole, in order, by commands of `chunk_units` units, as run() would
  // serve them with recording off (the commands take the next ids, the oracle learns them), on a
  // device that has run nothing else. Returns false, having done nothing, when the scheme cannot
  // (nor while the journal or durability check is on, or content is sector-granular): the
  // caller then runs the commands one by one.
  bool fill_sequential(uint64_t units, uint32_t chunk_units);
  // Preconditioning aged by sampling (precondition.aging = sampled, sampled_aging.h): the
  // miniature's `planes` laid out on every die with units 0 .. units-1 in their valid slots, in
  // an order `seed` draws, each holding what the fill of `chunk_units`-unit commands gives it
  // (the commands take the next ids, the oracle learns them). Unlike fill_sequential(), also on
  // a device that may lose power (its journal is off while the layout runs; the pages get
  // sequence numbers). Returns false, having done nothing, when the scheme cannot.
  bool lay_out_aged(const AgedPlanes& planes, uint64_t units, uint32_t chunk_units, uint64_t seed);

  const config::PlatformConfig& platform() const { return m_platform; }

  const Geometry& geometry() const { return m_geometry; }
  FlashArray& flash() { return *m_flash; }
  FlashBackend& backend() { return *m_backend; }
  // What GC did over the device's life: the scheme's counts, plus those of the schemes power
  // cuts took away (a recovered scheme counts from zero), and how its victims fell into host
  // commands.
  FtlStats stats() const {
    FtlStats total = m_retired_stats;
    total += m_scheme->stats();
    total += m_victims_by_command;
    return total;
  }
  MappingScheme& scheme() { return *m_scheme; }
  // The host-side data cache (cache.mode; nullptr when off). Untimed runs (preconditioning,
  // recording off) go straight to the scheme, so the cache starts empty at the timed run.
  DataCache* data_cache() { return m_cache ? &*m_cache : nullptr; }
  const DataCache* data_cache() const { return m_cache ? &*m_cache : nullptr; }
  const MappingScheme& scheme() const { return *m_scheme; }
  const Oracle* oracle() const { return m_oracle ? &*m_oracle : nullptr; }
  // The bytes clients wrote (FtlDeviceOptions::host_data; nullptr without).
  const HostData* host_data() const { return m_data ? &*m_data : nullptr; }
  uint64_t commands_run() const { return m_next_id; }

  // --- power loss (options.power_loss; docs/power-loss.md) ---
  // The device's content from now on is what a cut is checked against: call once the untimed
  // preconditioning is over and flushed (changes before it are not kept).
  void start_durability_check();
  // The marker of the last flush run (DurabilityCheck::marker), and the host's word that it
  // completed before any cut.
  uint64_t last_flush_marker() const { return m_last_flush_marker; }
  void flush_acknowledged(uint64_t marker);
  // The changes the last FUA write run made, and the host's word that it completed before any
  // cut: the values it gave its own units are durable.
  ChangeSpan last_fua_changes() const { return m_last_fua_changes; }
  void fua_acknowledged(ChangeSpan changes);
  // The power goes off at `cut`: the flash keeps what completed by then (FlashArray::power_cut)
  // and the scheme and the data cache, with everything they held in DRAM, are gone.
  FlashArray::CutResult power_cut(Picoseconds cut);
  // The power is back: the scheme rebuilds itself from the flash (SchemeDescriptor::recover). Its
  // operations go to the backend's batch sink as it records them (FlashBackend::end_batch); the
  // counts are returned.
  struct RecoveryCounts {
    uint64_t flash_reads = 0;
    uint64_t spare_reads = 0;
    uint64_t programs = 0;
    uint64_t erases = 0;
    uint64_t nvram_reads = 0;
  };
  RecoveryCounts recover();
  // Reads every unit back through the recovered scheme (untimed) and checks it against what was
  // durable (DurabilityCheck); the oracle and the check then take the values read back. When
  // content is sector-granular the check is by sector: a unit whose sum is neither its latest nor
  // its durable one is read again sector by sector and explained (DurabilityCheck, "Sector mode").
  DurabilityCheck::Verdict check_after_recovery();

 private:
  Geometry m_geometry;
  std::unique_ptr<FlashArray> m_flash;
  std::unique_ptr<FlashBackend> m_backend;
  std::unique_ptr<MappingScheme> m_scheme;
  std::optional<DataCache> m_cache;
  std::optional<Oracle> m_oracle;
  std::optional<HostData> m_data;
  uint64_t m_next_id = 0;
  config::PlatformConfig m_platform;  // a copy: a recovered scheme's context refers to it
  HashEngine* m_hash_engine;
  SchemeMaker m_make;
  std::optional<DurabilityCheck> m_durability;
  FtlStats m_retired_stats;       // of the schemes power cuts took away
  FtlStats m_victims_by_command;  // only its gc_victims_* counts
  uint64_t m_last_flush_marker = 0;
  ChangeSpan m_last_fua_changes;

  // Whether the state may be built at once (fill_sequential, lay_out_aged): nothing run, no
  // journal nor durability check, content not by sector, recording off.
  bool may_build_in_bulk() const;
  // The oracle learns `fill`'s commands, which take the next ids.
  void learn_fill(const SequentialFill& fill);
  // The durability check learns what a write or trim gave its units.
  void note_changes(const HostCommand& command, bool trim);
};

}  // namespace ssd::ftl
