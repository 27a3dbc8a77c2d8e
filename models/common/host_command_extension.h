// TLM-2.0 extension that carries a host command from the host interface to the controller and
// brings back what the controller found (integrity mismatches), or why it could not serve the
// command (with an error response). One instance per initiator, re-pointed per transaction:
// nothing is allocated per request.
#pragma once

#include <cstdint>
#include <string>

#include <tlm>

#include "ftl/core/host_command.h"

namespace ssd::models {

class HostCommandExtension : public tlm::tlm_extension<HostCommandExtension> {
 public:
  ftl::HostCommand* command = nullptr;
  uint64_t mismatches = 0;  // set by the controller
  // Set by the controller with an error response: why the command could not be served, and
  // whether it was a time past the latest simulated time (an input problem, not a failure).
  std::string failure;
  bool time_limit = false;

  tlm::tlm_extension_base* clone() const override { return new HostCommandExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    const auto& o = static_cast<const HostCommandExtension&>(other);
    command = o.command;
    mismatches = o.mismatches;
    failure = o.failure;
    time_limit = o.time_limit;
  }
};

}  // namespace ssd::models
