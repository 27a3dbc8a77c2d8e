// TLM-2.0 extension that carries a host command from the host interface to the controller and
// brings back what the controller found (integrity mismatches). One instance per initiator,
// re-pointed per transaction: nothing is allocated per request.
#pragma once

#include <cstdint>

#include <tlm>

#include "ftl/core/host_command.h"

namespace ssd::models {

class HostCommandExtension : public tlm::tlm_extension<HostCommandExtension> {
 public:
  ftl::HostCommand* command = nullptr;
  uint64_t mismatches = 0;  // set by the controller

  tlm::tlm_extension_base* clone() const override { return new HostCommandExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    const auto& o = static_cast<const HostCommandExtension&>(other);
    command = o.command;
    mismatches = o.mismatches;
  }
};

}  // namespace ssd::models
