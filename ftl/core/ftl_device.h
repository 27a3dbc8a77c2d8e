// A functional SSD without time: the flash array, the backend, one mapping scheme and (optionally)
// the integrity oracle, driven one host command at a time. The controller model wraps it with
// timing; tests and the preconditioner drive it directly.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "config/platform_config.h"
#include "ftl/core/flash_array.h"
#include "ftl/core/flash_backend.h"
#include "ftl/core/geometry.h"
#include "ftl/core/host_command.h"
#include "ftl/core/mapping_scheme.h"
#include "ftl/core/oracle.h"

namespace ssd::ftl {

struct FtlDeviceOptions {
  bool oracle = true;    // check every read (stores a token per unit and per slot)
  bool journal = false;  // remember in-flight operations for power-cut undo
  // Where VET's accelerator commands go (SchemeContext::hash_engine); must outlive the device.
  HashEngine* hash_engine = nullptr;
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
  uint64_t run(HostCommand& command);

  const Geometry& geometry() const { return m_geometry; }
  FlashArray& flash() { return *m_flash; }
  FlashBackend& backend() { return *m_backend; }
  MappingScheme& scheme() { return *m_scheme; }
  const MappingScheme& scheme() const { return *m_scheme; }
  const Oracle* oracle() const { return m_oracle ? &*m_oracle : nullptr; }
  uint64_t commands_run() const { return m_next_id; }

 private:
  Geometry m_geometry;
  std::unique_ptr<FlashArray> m_flash;
  std::unique_ptr<FlashBackend> m_backend;
  std::unique_ptr<MappingScheme> m_scheme;
  std::optional<Oracle> m_oracle;
  uint64_t m_next_id = 0;
};

}  // namespace ssd::ftl
