#include "ftl/core/ftl_device.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "ftl/core/unit_span.h"
#include "ftl/scheme_registry.h"

namespace ssd::ftl {

FtlDevice::FtlDevice(const config::PlatformConfig& platform, const FtlDeviceOptions& options)
    : FtlDevice(platform, options, [&](const SchemeContext& context) {
        return create_scheme(platform.ftl.scheme, context);
      }) {}

FtlDevice::FtlDevice(const config::PlatformConfig& platform, const FtlDeviceOptions& options,
                     const SchemeMaker& make)
    : m_geometry(Geometry::from_platform(platform)),
      m_platform(platform),
      m_hash_engine(options.hash_engine),
      m_make(make) {
  m_flash = std::make_unique<FlashArray>(
      m_geometry, scheme_spare_words(platform.ftl.scheme, platform, options.power_loss),
      options.oracle);
  m_flash->set_journal(options.journal || options.power_loss);
  m_backend = std::make_unique<FlashBackend>(*m_flash);
  if (options.oracle) {
    m_oracle.emplace(m_geometry.logical_units, m_geometry.sectors_per_unit,
                     sector_granular(platform));
  }
  m_scheme = make(
      SchemeContext{platform, *m_backend, options.hash_engine, m_oracle ? &*m_oracle : nullptr});
  if (platform.cache.on()) m_cache.emplace(m_platform, m_geometry, *m_backend);
  if (options.host_data) {
    // The oracle is what vouches for a read's bytes; a power cut would need the bytes of every
    // durable version, which are not kept.
    if (!options.oracle || options.power_loss) {
      throw std::invalid_argument("host data needs the oracle (run.oracle) and no power cuts");
    }
    m_data.emplace(platform.nand.sector_bytes, m_geometry.sectors_per_unit);
  }
}

uint64_t FtlDevice::run(HostCommand& command) {
  command.id = ++m_next_id;
  m_backend->begin_command();
  const uint64_t victims_before = m_scheme->stats().gc_invocations;
  if (m_cache && m_backend->recording()) {
    m_cache->execute(command, *m_scheme);
  } else {
    m_scheme->execute(command);
  }
  const bool fua = command.kind == CommandKind::kWrite && command.fua;
  if (fua) m_scheme->flush(command);
  const uint64_t victims = m_scheme->stats().gc_invocations - victims_before;
  m_victims_by_command.gc_victims_in_commands += victims;
  m_victims_by_command.gc_victims_squared_by_command += victims * victims;
  if (!m_oracle) return 0;
  switch (command.kind) {
    case CommandKind::kWrite: {
      m_oracle->on_write(command);
      // A write that brings no bytes (preconditioning's) leaves zeros.
      if (m_data) m_data->write(command.start_sector, command.sector_count, command.data);
      const uint64_t first = m_durability ? m_durability->marker() : 0;
      note_changes(command, false);
      if (fua && m_durability) m_last_fua_changes = {first, m_durability->marker()};
      return 0;
    }
    case CommandKind::kTrim:
      m_oracle->on_trim(command);
      if (m_data) m_data->trim(command.start_sector, command.sector_count);
      note_changes(command, true);
      return 0;
    case CommandKind::kRead: {
      const uint64_t mismatches = m_oracle->check_read(command, m_backend->delivered());
      if (m_data && command.data && mismatches == 0) {
        m_data->read(command.start_sector, command.sector_count, command.data);
      }
      return mismatches;
    }
    case CommandKind::kFlush:
      if (m_durability) m_last_flush_marker = m_durability->marker();
      return 0;
  }
  return 0;
}

bool FtlDevice::fill_sequential(uint64_t units, uint32_t chunk_units) {
  if (units == 0 || !may_build_in_bulk()) return false;
  const SequentialFill fill{units, chunk_units, m_next_id + 1};
  if (!m_scheme->fill_sequential(fill)) return false;
  learn_fill(fill);
  return true;
}

bool FtlDevice::lay_out_aged(const AgedPlanes& planes, uint64_t units, uint32_t chunk_units,
                             uint64_t seed) {
  // Laid out with the journal off, also on a device that may lose power: nothing has run, so the
  // journal holds nothing, and no cut could undo preconditioning (its operations are retired as
  // they are made). The pages still carry their sequence numbers (PageStore::lay_out_aged).
  if (units == 0 || m_flash->journal_size() != 0) return false;
  struct JournalOff {
    FlashArray& flash;
    bool was_on;
    ~JournalOff() { flash.set_journal(was_on); }
  } journal_off{*m_flash, m_flash->journal_on()};
  m_flash->set_journal(false);
  if (!may_build_in_bulk()) return false;
  const AgedLayout layout{&planes, SequentialFill{units, chunk_units, m_next_id + 1}, seed};
  if (!m_scheme->lay_out_aged(layout)) return false;
  learn_fill(layout.fill);
  return true;
}

bool FtlDevice::may_build_in_bulk() const {
  return m_next_id == 0 && !m_durability && !m_flash->journal_on() &&
         !(m_oracle && m_oracle->sector_granular()) && !m_backend->recording();
}

void FtlDevice::learn_fill(const SequentialFill& fill) {
  HostCommand command;
  command.kind = CommandKind::kWrite;
  for (uint64_t first = 0; first < fill.units; first += fill.chunk_units) {
    command.id = ++m_next_id;
    command.start_sector = first * m_geometry.sectors_per_unit;
    command.sector_count = static_cast<uint32_t>(
        std::min<uint64_t>(fill.chunk_units, fill.units - first) * m_geometry.sectors_per_unit);
    if (m_oracle) m_oracle->on_write(command);
  }
  m_backend->begin_command();  // as after run(): nothing of the fill is left in the lists
}

void FtlDevice::note_changes(const HostCommand& command, bool trim) {
  if (!m_durability) return;
  const uint32_t spu = m_geometry.sectors_per_unit;
  const bool by_sector = m_oracle->sector_granular();
  if (by_sector && !trim) {
    for (uint64_t s = command.start_sector; s < command.start_sector + command.sector_count; ++s)
      m_durability->changed(s, m_oracle->sector(s));
    return;
  }
  const UnitSpan span = unit_span(command.start_sector, command.sector_count, spu);
  for (uint32_t i = 0; i < span.count; ++i) {
    // A trim forgets only the units it covers whole (Oracle::on_trim).
    if (trim && span.mask_of(i) != span.full_mask) continue;
    const Lun lun = span.first + i;
    if (!by_sector) {
      m_durability->changed(lun, m_oracle->expected(lun));
      continue;
    }
    for (uint64_t s = uint64_t{lun} * spu; s < (uint64_t{lun} + 1) * spu; ++s)
      m_durability->changed(s, 0);
  }
}

void FtlDevice::start_durability_check() {
  if (!m_oracle) return;
  // By sector when content is sector-granular (DurabilityCheck, "Sector mode").
  const bool by_sector = m_oracle->sector_granular();
  std::vector<Token> values(by_sector ? m_geometry.logical_sectors() : m_geometry.logical_units);
  for (uint64_t cell = 0; cell < values.size(); ++cell) {
    values[cell] = by_sector ? m_oracle->sector(cell) : m_oracle->expected(static_cast<Lun>(cell));
  }
  m_durability.emplace(std::move(values));
  m_last_flush_marker = m_durability->marker();
}

void FtlDevice::flush_acknowledged(uint64_t marker) {
  if (m_durability) m_durability->acknowledged(marker);
}

void FtlDevice::fua_acknowledged(ChangeSpan changes) {
  if (m_durability) m_durability->acknowledged(changes);
}

FlashArray::CutResult FtlDevice::power_cut(Picoseconds cut) {
  m_retired_stats += m_scheme->stats();
  m_scheme.reset();  // DRAM: the scheme's tables, pages being assembled, buffers
  if (m_cache) m_cache->clear();
  m_backend->begin_command();
  return m_flash->power_cut(cut);
}

FtlDevice::RecoveryCounts FtlDevice::recover() {
  RecoveryCounts counts;
  const auto count = [&] {
    for (const FlashOp& op : m_backend->ops().ops()) {
      switch (op.kind) {
        case OpKind::kRead:
          ++counts.flash_reads;
          break;
        case OpKind::kSpareRead:
          ++counts.spare_reads;
          break;
        case OpKind::kProgram:
        case OpKind::kCopyback:
          ++counts.programs;
          break;
        case OpKind::kErase:
          ++counts.erases;
          break;
        case OpKind::kNvramRead:
          ++counts.nvram_reads;
          break;
        default:
          break;
      }
    }
  };
  std::function<void()> timing = m_backend->batch_sink();
  m_backend->set_batch_sink([&] {
    count();
    if (timing) timing();
  });
  m_backend->begin_command();
  m_scheme = recover_scheme(
      m_platform.ftl.scheme,
      SchemeContext{m_platform, *m_backend, m_hash_engine, m_oracle ? &*m_oracle : nullptr});
  m_backend->end_batch();  // what the scheme recorded after its last batch
  m_backend->set_batch_sink(std::move(timing));
  return counts;
}

DurabilityCheck::Verdict FtlDevice::check_after_recovery() {
  if (!m_durability) return {};
  const uint64_t units = m_geometry.logical_units;
  std::vector<Token> read_back(units, 0);
  std::vector<Token> latest(units, 0);
  // Reads of many units at a time, as the host would read the device back; nothing is timed.
  const uint32_t per_read = std::max<uint32_t>(1, 1024 / m_geometry.sectors_per_unit);
  m_backend->set_recording(false);
  HostCommand read;
  read.kind = CommandKind::kRead;
  for (Lun first = 0; first < units; first += per_read) {
    const uint32_t count = static_cast<uint32_t>(std::min<uint64_t>(per_read, units - first));
    read.start_sector = uint64_t{first} * m_geometry.sectors_per_unit;
    read.sector_count = count * m_geometry.sectors_per_unit;
    m_backend->begin_command();
    m_scheme->read(read);
    const std::vector<DeliveredUnit>& delivered = m_backend->delivered();
    for (uint32_t i = 0; i < count; ++i) {
      const Lun lun = first + i;
      // A unit delivered out of place reads as nothing it was given (kNone).
      const bool in_place = i < delivered.size() && delivered[i].lun == lun;
      read_back[lun] = in_place ? delivered[i].token : kNone;
      latest[lun] = m_oracle->expected(lun);
    }
  }
  DurabilityCheck::Verdict verdict;
  if (!m_oracle->sector_granular()) {
    verdict = m_durability->check_and_restart(read_back, latest);
    for (Lun lun = 0; lun < units; ++lun) m_oracle->set_expected(lun, read_back[lun]);
  } else {
    // A sector read alone, for the units whose sum does not tell (DurabilityCheck, "Sector mode").
    const auto read_alone = [&](uint64_t sector) {
      read.start_sector = sector;
      read.sector_count = 1;
      m_backend->begin_command();
      m_scheme->read(read);
      const std::vector<DeliveredUnit>& delivered = m_backend->delivered();
      const Lun lun = static_cast<Lun>(sector / m_geometry.sectors_per_unit);
      if (delivered.empty() || delivered[0].lun != lun) return SectorRead{kNone, false};
      return SectorRead{delivered[0].token, delivered[0].sectors != 0};
    };
    verdict =
        m_durability->check_sectors_and_restart(m_geometry.sectors_per_unit, read_back, read_alone);
    for (uint64_t s = 0; s < m_geometry.logical_sectors(); ++s)
      m_oracle->set_sector(s, m_durability->durable(s));
  }
  m_backend->begin_command();
  m_backend->set_recording(true);
  m_last_flush_marker = m_durability->marker();
  return verdict;
}

}  // namespace ssd::ftl
