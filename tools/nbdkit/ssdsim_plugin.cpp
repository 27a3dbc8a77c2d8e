// The nbdkit plugin that serves a simulated SSD to NBD clients (docs/clients.md):
//   nbdkit path/to/nbdkit-ssdsim-plugin.so platform=FILE [scenario=FILE] [scheme=NAME]
//          [set=KEY=VALUE ...] [out=DIR] [pacing=as_fast_as_possible|real_time]
// `ssdsim serve` starts it for the user. Each NBD request becomes one host command at the
// simulated time it arrives (ServeSession, LiveSource): read, write (FUA as the command's FUA),
// flush, trim, and write-zeroes (a trim when the client allows it and the range is whole mapping
// units, else a write of zeros). Requests must be whole sectors, as on a real block device.
// When nbdkit shuts down (the last client of --run, SIGTERM, Ctrl-C) the run ends and the report
// is written as `ssdsim run` writes it.
#define NBDKIT_API_VERSION 2
#include <nbdkit-plugin.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include <systemc>

#include "tools/nbdkit/serve_session.h"

// Parallel: every client request waits in its own nbdkit thread while the device runs it, so a
// client's queue depth reaches the simulated device.
#define THREAD_MODEL NBDKIT_THREAD_MODEL_PARALLEL

namespace {

using ssd::tools::ServeSession;
using ssd::tools::ServeSettings;

ServeSettings g_settings;
std::unique_ptr<ServeSession> g_session;
int g_handle;  // every connection shares the one device

void ssdsim_load() {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  // The host model ends the run with sc_stop(); that is the normal end, not news.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
}

int ssdsim_config(const char* key, const char* value) {
  const std::string name = key;
  if (name == "platform") {
    g_settings.platform = value;
  } else if (name == "scenario") {
    g_settings.scenario = value;
  } else if (name == "out") {
    g_settings.out = value;
  } else if (name == "scheme") {
    g_settings.assignments.push_back(std::string("ftl.scheme=") + value);
    g_settings.sources.push_back("scheme=");
  } else if (name == "set") {
    g_settings.assignments.push_back(value);
    g_settings.sources.push_back("set=");
  } else if (name == "pacing") {
    if (!ssd::workload::parse_pacing(value, g_settings.pacing)) {
      nbdkit_error("pacing=%s: expected as_fast_as_possible or real_time", value);
      return -1;
    }
  } else {
    nbdkit_error("unknown parameter '%s' (platform, scenario, scheme, set, out, pacing)", key);
    return -1;
  }
  return 0;
}

int ssdsim_config_complete() {
  try {
    g_session = std::make_unique<ServeSession>(g_settings);
  } catch (const std::exception& error) {
    nbdkit_error("%s", error.what());
    return -1;
  }
  return 0;
}

// Before nbdkit forks: a message here reaches the user.
int ssdsim_get_ready() {
  try {
    g_session->prepare_output();
  } catch (const std::exception& error) {
    nbdkit_error("%s", error.what());
    return -1;
  }
  return 0;
}

// The simulation thread starts here, after any fork (threads do not survive one).
int ssdsim_after_fork() {
  try {
    g_session->start();
  } catch (const std::exception& error) {
    nbdkit_error("run failed: %s", error.what());
    return -1;
  }
  return 0;
}

void ssdsim_cleanup() {
  if (!g_session) return;
  bool ok = false;
  const std::string result = g_session->finish(ok);
  std::fputs(result.c_str(), stderr);
  if (!ok) std::fputs("ssdsim: the run failed or a read mismatched (see above)\n", stderr);
  g_session.reset();
}

void* ssdsim_open(int) { return &g_handle; }

int64_t ssdsim_get_size(void*) { return static_cast<int64_t>(g_session->size_bytes()); }

int ssdsim_block_size(void*, uint32_t* minimum, uint32_t* preferred, uint32_t* maximum) {
  *minimum = g_session->sector_bytes();
  *preferred = std::max(g_session->unit_bytes(), 4096u);
  *maximum = 32u << 20;
  return 0;
}

int ssdsim_yes(void*) { return 1; }
int ssdsim_no(void*) { return 0; }
int ssdsim_fua(void*) { return NBDKIT_FUA_NATIVE; }

// Runs one command; -1 with nbdkit's error set when it failed.
int run(ssd::ftl::CommandKind kind, uint64_t offset, uint32_t count, void* data, bool fua) {
  const uint32_t sector = g_session->sector_bytes();
  if (offset % sector != 0 || count % sector != 0) {
    nbdkit_error("a request of %u bytes at offset %llu is not in whole %u-byte sectors", count,
                 static_cast<unsigned long long>(offset), sector);
    nbdkit_set_error(EINVAL);
    return -1;
  }
  ssd::workload::Request request;
  request.kind = kind;
  request.start_sector = offset / sector;
  request.sector_count = count / sector;
  request.fua = fua;
  request.data = static_cast<std::byte*>(data);
  const int status = g_session->source().execute(request);
  if (status == 0) return 0;
  if (status == EIO && kind == ssd::ftl::CommandKind::kRead) {
    nbdkit_error(
        "the read of %u bytes at offset %llu returned data the oracle did not expect, "
        "or the device failed (the report says which)",
        count, static_cast<unsigned long long>(offset));
  } else {
    nbdkit_error("the device could not serve a %s of %u bytes at offset %llu (%s)",
                 ssd::ftl::to_string(kind), count, static_cast<unsigned long long>(offset),
                 status == ESHUTDOWN ? "the run has ended" : "the run stopped; see its message");
  }
  nbdkit_set_error(status);
  return -1;
}

int ssdsim_pread(void*, void* buf, uint32_t count, uint64_t offset, uint32_t) {
  return run(ssd::ftl::CommandKind::kRead, offset, count, buf, false);
}

// The device only reads a write's bytes; HostCommand::data is not const because a read fills it.
int ssdsim_pwrite(void*, const void* buf, uint32_t count, uint64_t offset, uint32_t flags) {
  return run(ssd::ftl::CommandKind::kWrite, offset, count, const_cast<void*>(buf),
             (flags & NBDKIT_FLAG_FUA) != 0);
}

int ssdsim_flush(void*, uint32_t) {
  return run(ssd::ftl::CommandKind::kFlush, 0, 0, nullptr, false);
}

// A trim or zero with FUA: the command, then a flush, before the reply.
int then_flush_if(uint32_t flags) {
  return (flags & NBDKIT_FLAG_FUA) != 0 ? ssdsim_flush(nullptr, 0) : 0;
}

int ssdsim_trim(void*, uint32_t count, uint64_t offset, uint32_t flags) {
  if (run(ssd::ftl::CommandKind::kTrim, offset, count, nullptr, false) != 0) return -1;
  return then_flush_if(flags);
}

int ssdsim_zero(void*, uint32_t count, uint64_t offset, uint32_t flags) {
  // A trim reads as zeros only for the units it covers whole (ftl::Oracle::on_trim).
  const uint32_t unit = g_session->unit_bytes();
  const bool trim = (flags & NBDKIT_FLAG_MAY_TRIM) != 0 && offset % unit == 0 && count % unit == 0;
  // A write with no bytes writes zeros (ftl::FtlDevice::run).
  if (run(trim ? ssd::ftl::CommandKind::kTrim : ssd::ftl::CommandKind::kWrite, offset, count,
          nullptr, false) != 0) {
    return -1;
  }
  return then_flush_if(flags);
}

nbdkit_plugin make_plugin() {
  nbdkit_plugin plugin{};
  plugin.name = "ssdsim";
  plugin.longname = "ssdsim: a simulated SSD (SystemC/TLM-2.0 co-simulator) as a block device";
  plugin.version = "0.1.0";
  plugin.load = ssdsim_load;
  plugin.config = ssdsim_config;
  plugin.config_complete = ssdsim_config_complete;
  plugin.config_help =
      "platform=FILE      platform TOML (default: the bundled platforms/default.toml)\n"
      "scenario=FILE      scenario TOML: its preconditioning and run keys\n"
      "scheme=NAME        mapping scheme (set=ftl.scheme=NAME)\n"
      "set=KEY=VALUE      override a key (repeatable)\n"
      "out=DIR            report folder (default: results/<timestamp>)\n"
      "pacing=MODE        as_fast_as_possible (default) or real_time";
  plugin.get_ready = ssdsim_get_ready;
  plugin.after_fork = ssdsim_after_fork;
  plugin.cleanup = ssdsim_cleanup;
  plugin.open = ssdsim_open;
  plugin.get_size = ssdsim_get_size;
  plugin.block_size = ssdsim_block_size;
  plugin.can_write = ssdsim_yes;
  plugin.can_flush = ssdsim_yes;
  plugin.can_trim = ssdsim_yes;
  plugin.can_zero = ssdsim_yes;
  plugin.can_fua = ssdsim_fua;
  plugin.can_multi_conn = ssdsim_yes;  // one device: a flush on any connection covers all
  plugin.is_rotational = ssdsim_no;
  plugin.pread = ssdsim_pread;
  plugin.pwrite = ssdsim_pwrite;
  plugin.flush = ssdsim_flush;
  plugin.trim = ssdsim_trim;
  plugin.zero = ssdsim_zero;
  plugin.errno_is_preserved = 0;
  return plugin;
}

nbdkit_plugin g_plugin = make_plugin();

}  // namespace

// libsystemc.so brings a main() that calls sc_main(); nbdkit loads this plugin with every symbol
// resolved at once, so sc_main must exist. nbdkit's own main() runs; this one never does.
int sc_main(int, char*[]) { return 1; }

NBDKIT_REGISTER_PLUGIN(g_plugin)
