#include "models/platform/energy.h"

#include <algorithm>

namespace ssd::models {

namespace {
// Joules from volts, milliamperes and picoseconds.
double joules(double volts, double milliamperes, double picoseconds) {
  return volts * milliamperes * 1e-3 * picoseconds * 1e-12;
}
}  // namespace

report::RunReport::Energy energy_of(const config::EnergyConfig& f, const EnergyInputs& in) {
  report::RunReport::Energy e;
  const NandCounters& nand = *in.nand;
  const double v = f.nand_vcc_v;
  e.nand_read_j = joules(v, f.nand_read_ma, static_cast<double>(nand.read_array_ps));
  e.nand_program_j = joules(v, f.nand_program_ma, static_cast<double>(nand.program_array_ps));
  e.nand_erase_j = joules(v, f.nand_erase_ma, static_cast<double>(nand.erase_array_ps));
  double channel_ps = 0.0;
  for (const Picoseconds busy : nand.channel_busy_ps) channel_ps += static_cast<double>(busy);
  e.nand_io_j = joules(v, f.nand_io_ma, channel_ps);
  // Standby: each die for the part of the run it was not reserved.
  const double run_ps = static_cast<double>(in.simulated_ns) * 1000.0;
  double idle_ps = 0.0;
  for (uint32_t die = 0; die < in.dies; ++die) {
    const double busy = die < nand.die_busy_ps.size() ? double(nand.die_busy_ps[die]) : 0.0;
    idle_ps += std::max(0.0, run_ps - busy);
  }
  e.nand_standby_j = joules(v, f.nand_standby_ua * 1e-3, idle_ps);
  e.dram_j = f.dram_pj_per_byte * 1e-12 * static_cast<double>(in.dram_bytes);
  e.nvram_j = f.nvram_pj_per_byte * 1e-12 * static_cast<double>(in.nvram_bytes);
  e.cpu_j = f.cpu_pj_per_cycle * 1e-12 * static_cast<double>(in.cpu_cycles);
  e.controller_idle_j = f.controller_idle_mw * 1e-3 * run_ps * 1e-12;
  return e;
}

}  // namespace ssd::models
