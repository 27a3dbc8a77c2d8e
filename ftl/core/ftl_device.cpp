#include "ftl/core/ftl_device.h"

#include "ftl/scheme_registry.h"

namespace ssd::ftl {

FtlDevice::FtlDevice(const config::PlatformConfig& platform, const FtlDeviceOptions& options)
    : FtlDevice(platform, options, [&](const SchemeContext& context) {
        return create_scheme(platform.ftl.scheme, context);
      }) {}

FtlDevice::FtlDevice(const config::PlatformConfig& platform, const FtlDeviceOptions& options,
                     const SchemeMaker& make)
    : m_geometry(Geometry::from_platform(platform)) {
  m_flash = std::make_unique<FlashArray>(
      m_geometry, scheme_spare_words(platform.ftl.scheme, platform), options.oracle);
  m_flash->set_journal(options.journal);
  m_backend = std::make_unique<FlashBackend>(*m_flash);
  if (options.oracle) {
    m_oracle.emplace(m_geometry.logical_units, m_geometry.sectors_per_unit,
                     sector_granular(platform));
  }
  m_scheme = make(
      SchemeContext{platform, *m_backend, options.hash_engine, m_oracle ? &*m_oracle : nullptr});
}

uint64_t FtlDevice::run(HostCommand& command) {
  command.id = ++m_next_id;
  m_backend->begin_command();
  m_scheme->execute(command);
  if (!m_oracle) return 0;
  switch (command.kind) {
    case CommandKind::kWrite:
      m_oracle->on_write(command);
      return 0;
    case CommandKind::kTrim:
      m_oracle->on_trim(command);
      return 0;
    case CommandKind::kRead:
      return m_oracle->check_read(command, m_backend->delivered());
    case CommandKind::kFlush:
      return 0;
  }
  return 0;
}

}  // namespace ssd::ftl
