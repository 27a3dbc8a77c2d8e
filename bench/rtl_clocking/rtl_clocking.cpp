// rtl-clocking: how fast the Verilated hash engine (rtl/vet_hash_engine.sv, 1024 buckets x 4 ways)
// runs one long command sequence when
//   (a) --cc  ticked by hand from C++: rtl::VerilatedEngine<Vvet_hash_engine>::run(), an eval()
//             pair per cycle, as the platform's accelerator target runs it
//             (rtl/verilated_hash_engine.cpp);
//   (b) --sc  the same RTL Verilated as a SystemC module (sc_in<bool> clk, ...), clocked by an
//             sc_clock, with an SC_THREAD driver that presents each command on the clock edges and
//             collects the response through sc_signals;
//   (c) --cc  clocked from SystemC (option --systemc cc): the --cc engine's cycle() called from an
//             SC_THREAD woken by every rising edge of an sc_clock (the SystemC clock without
//             SystemC ports and signals).
// Every response (status, key, value, way, probes, latency and issue interval in cycles) is
// compared with the C++ reference model's (rtl/model/vet_hash_model.h); a mismatch fails the run.
// Only one SystemC variant runs per process (a SystemC simulation cannot be restarted).
// Prints a Markdown table; docs/results/rtl-clocking.md has the measurements.
//
//   rtl-clocking [--commands 1000000] [--seed 1] [--keys 3072] [--systemc sc|cc|none]
//                [--period-ns 2.5]

// The --sc model's header brings systemc.h; it goes first so that every Verilated header in this
// file is read in SystemC mode.
#include "Vvet_hash_engine_sc.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "rtl/model/vet_hash_model.h"
#include "rtl/verilated_engine.h"

namespace {

using ssd::ftl::HashCommand;
using ssd::ftl::HashOp;
using ssd::ftl::HashResponse;
using ssd::ftl::HashStatus;
using ssd::ftl::NodeValue;
using ssd::rtl::HashEngineModel;
using Clock = std::chrono::steady_clock;

constexpr uint32_t kBits = 20;  // MLOOKUP universe: 2^20 addresses

struct Options {
  uint64_t commands = 1000000;
  uint64_t seed = 1;
  uint32_t keys = 3072;  // the key set; ~62% of it is present at steady state (see make_commands)
  std::string systemc = "sc";
  double period_ns = 2.5;
};

[[noreturn]] void usage(const char* msg) {
  std::fprintf(stderr,
               "rtl-clocking: %s\nusage: rtl-clocking [--commands N] [--seed S] [--keys K] "
               "[--systemc sc|cc|none] [--period-ns P]\n",
               msg);
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") usage("help");
    if (i + 1 >= argc) usage(("missing value for " + a).c_str());
    const std::string v = argv[++i];
    if (a == "--commands") {
      o.commands = std::stoull(v);
    } else if (a == "--seed") {
      o.seed = std::stoull(v);
    } else if (a == "--keys") {
      o.keys = static_cast<uint32_t>(std::stoul(v));
    } else if (a == "--systemc") {
      if (v != "sc" && v != "cc" && v != "none") usage("--systemc takes sc, cc or none");
      o.systemc = v;
    } else if (a == "--period-ns") {
      o.period_ns = std::stod(v);
    } else {
      usage(("unknown option " + a).c_str());
    }
  }
  if (o.keys == 0) usage("--keys must be > 0");
  return o;
}

// The command sequence. Keys are VET keys (prefix << 6 | level) of random addresses in a 2^20
// universe at levels 0..20, so multi-level lookups (op 5, bits 20) find nodes on their paths.
// Mix: 30% FIND, 25% INSERT, 15% DELETE, 10% UPDATE, 20% MLOOKUP (half of them at addresses under
// a key of the set). With inserts at 25% and deletes at 15% of uniformly chosen keys, about
// 25/40 of the key set is present at steady state: ~1900 of 4096 slots with the default 3072
// keys, some buckets full (inserts overflow), most not.
std::vector<HashCommand> make_commands(const Options& o) {
  std::mt19937_64 rng(o.seed);
  const uint64_t mask = (uint64_t{1} << kBits) - 1;
  std::vector<uint64_t> keys(o.keys);
  for (uint64_t& k : keys) {
    const uint64_t addr = rng() & mask;
    const uint64_t level = rng() % (kBits + 1);
    k = ((addr >> level) << 6) | level;
  }
  auto value = [&rng] {
    NodeValue v;
    v.w0 = static_cast<uint32_t>(rng());
    v.w1 = (rng() % 3 == 0) ? 0u : (static_cast<uint32_t>(rng()) | 1u);  // 1/3 internal nodes
    v.w2 = static_cast<uint32_t>(rng());
    return v;
  };
  std::vector<HashCommand> cmds(o.commands);
  for (HashCommand& c : cmds) {
    const uint64_t r = rng() % 100;
    const uint64_t key = keys[rng() % keys.size()];
    if (r < 30) {
      c.op = static_cast<uint8_t>(HashOp::kFind);
      c.key = key;
    } else if (r < 55) {
      c.op = static_cast<uint8_t>(HashOp::kInsert);
      c.key = key;
      c.value = value();
    } else if (r < 70) {
      c.op = static_cast<uint8_t>(HashOp::kDelete);
      c.key = key;
    } else if (r < 80) {
      c.op = static_cast<uint8_t>(HashOp::kUpdate);
      c.key = key;
      c.value = value();
    } else {
      c.op = static_cast<uint8_t>(HashOp::kMultiLookup);
      c.bits = kBits;
      if (r < 90) {
        c.key = rng() & mask;
      } else {  // an address under `key`
        const uint64_t level = key & 63;
        c.key = (((key >> 6) << level) | (rng() & ((uint64_t{1} << level) - 1))) & mask;
      }
    }
  }
  return cmds;
}

std::string describe(const HashResponse& r) {
  std::ostringstream out;
  out << ssd::ftl::to_string(r.status) << " key=0x" << std::hex << r.key << " value={0x"
      << r.value.w0 << ",0x" << r.value.w1 << ",0x" << r.value.w2 << "}" << std::dec
      << " way=" << r.way << " probes=" << r.probes << " latency=" << r.latency_cycles
      << " issue=" << r.issue_cycles;
  return out.str();
}

// Mismatches between `got` and the model's `want`; prints the first few.
uint64_t compare(const char* name, const std::vector<HashCommand>& cmds,
                 const std::vector<HashResponse>& want, const std::vector<HashResponse>& got) {
  uint64_t bad = 0;
  if (got.size() != want.size()) {
    std::fprintf(stderr, "%s: %zu responses for %zu commands\n", name, got.size(), want.size());
    return want.size();
  }
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i] == want[i]) continue;
    if (++bad <= 5) {
      std::fprintf(stderr, "%s: command %zu (%s key=0x%llx) RTL %s, model %s\n", name, i,
                   ssd::ftl::to_string(static_cast<HashOp>(cmds[i].op & 7u)),
                   static_cast<unsigned long long>(cmds[i].key), describe(got[i]).c_str(),
                   describe(want[i]).c_str());
    }
  }
  return bad;
}

struct Row {
  std::string name;
  double seconds = 0;
  uint64_t cycles = 0;  // engine clock cycles simulated (0: not clocked)
  uint64_t mismatches = 0;
  bool checked = false;
};

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// ---------------------------------------------------------------- (b) --sc, sc_clock, sc_signals
SC_MODULE(ScBench) {
  sc_core::sc_in<bool> clk;
  sc_core::sc_signal<bool> rst{"rst"}, cmd_valid{"cmd_valid"}, cmd_ready{"cmd_ready"},
      rsp_valid{"rsp_valid"};
  sc_core::sc_signal<uint32_t> cmd_op{"cmd_op"}, cmd_bits{"cmd_bits"}, rsp_status{"rsp_status"},
      rsp_way{"rsp_way"}, rsp_probes{"rsp_probes"};
  sc_core::sc_signal<uint64_t> cmd_key{"cmd_key"}, rsp_key{"rsp_key"};
  sc_core::sc_signal<sc_dt::sc_bv<96>> cmd_value{"cmd_value"}, rsp_value{"rsp_value"};
  Vvet_hash_engine_sc dut{"dut"};

  const std::vector<HashCommand>* cmds = nullptr;
  std::vector<HashResponse> got;
  uint64_t edges = 0;
  std::string error;

  SC_CTOR(ScBench) {
    dut.clk(clk);
    dut.rst(rst);
    dut.cmd_valid(cmd_valid);
    dut.cmd_ready(cmd_ready);
    dut.cmd_op(cmd_op);
    dut.cmd_key(cmd_key);
    dut.cmd_value(cmd_value);
    dut.cmd_bits(cmd_bits);
    dut.rsp_valid(rsp_valid);
    dut.rsp_status(rsp_status);
    dut.rsp_key(rsp_key);
    dut.rsp_value(rsp_value);
    dut.rsp_way(rsp_way);
    dut.rsp_probes(rsp_probes);
    SC_THREAD(drive);
    sensitive << clk.pos();
  }

  // One rising edge; the signals read after it hold what the engine showed in the cycle that the
  // edge ends (the engine's own update of this edge is seen one delta cycle later).
  void edge() {
    wait();
    ++edges;
  }

  // The protocol of VerilatedEngine::run(): present the command until it is taken, then wait for
  // its response and for cmd_ready again.
  void drive() {
    rst.write(true);
    cmd_valid.write(false);
    for (int i = 0; i < 3; ++i) edge();
    rst.write(false);
    edges = 0;  // count the cycles of the commands only, as (a) does
    got.reserve(cmds->size());
    try {
      for (const HashCommand& c : *cmds) {
        cmd_valid.write(true);
        cmd_op.write(c.op & 7u);
        cmd_key.write(c.key);
        sc_dt::sc_bv<96> v;
        v.set_word(0, c.value.w0);
        v.set_word(1, c.value.w1);
        v.set_word(2, c.value.w2);
        cmd_value.write(v);
        cmd_bits.write(c.bits & 63u);
        do edge();
        while (!cmd_ready.read());
        const uint64_t accepted = edges;
        cmd_valid.write(false);
        HashResponse r;
        bool answered = false, ready_again = false;
        while (!answered || !ready_again) {
          edge();
          const uint64_t now = edges;
          if (rsp_valid.read()) {
            if (answered) throw std::runtime_error("two responses to one command");
            r.status = static_cast<HashStatus>(rsp_status.read());
            r.key = rsp_key.read();
            const sc_dt::sc_bv<96>& rv = rsp_value.read();
            r.value = NodeValue{static_cast<uint32_t>(rv.get_word(0)),
                                static_cast<uint32_t>(rv.get_word(1)),
                                static_cast<uint32_t>(rv.get_word(2))};
            r.way = rsp_way.read();
            r.probes = rsp_probes.read();
            r.latency_cycles = static_cast<uint32_t>(now - accepted);
            answered = true;
          }
          if (cmd_ready.read() && !ready_again) {
            r.issue_cycles = static_cast<uint32_t>(now - accepted);
            ready_again = true;
          }
          if (now - accepted > 100) throw std::runtime_error("no response after 100 cycles");
        }
        got.push_back(r);
      }
    } catch (const std::exception& e) {
      error = e.what();
    }
    sc_core::sc_stop();
  }
};

// ---------------------------------------------------------------- (c) --cc, woken by an sc_clock
SC_MODULE(CcOnScClock) {
  sc_core::sc_in<bool> clk;
  ssd::rtl::VerilatedEngine<Vvet_hash_engine> engine;
  const std::vector<HashCommand>* cmds = nullptr;
  std::vector<HashResponse> got;
  std::string error;

  SC_CTOR(CcOnScClock) {
    SC_THREAD(drive);
    sensitive << clk.pos();
  }

  // VerilatedEngine::run() with a wait for the sc_clock's rising edge before every cycle.
  void drive() {
    got.reserve(cmds->size());
    try {
      for (const HashCommand& c : *cmds) got.push_back(engine.run(c, [] { sc_core::wait(); }));
    } catch (const std::exception& e) {
      error = e.what();
    }
    sc_core::sc_stop();
  }
};

std::string fmt(double x, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

}  // namespace

int sc_main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  // Quiet "Info: /OSCI/SystemC: Simulation stopped by user." (sc_stop() ends the drivers).
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  const std::vector<HashCommand> cmds = make_commands(opt);
  std::vector<Row> rows;

  // The reference model: the expected responses (and how fast plain C++ gives them).
  std::vector<HashResponse> want;
  uint64_t table_size = 0;
  want.reserve(cmds.size());
  {
    HashEngineModel model(ssd::ftl::HashEngineConfig{10, 4});
    const auto t0 = Clock::now();
    for (const HashCommand& c : cmds) want.push_back(model.execute(c));
    rows.push_back({"C++ reference model (no RTL, no clock)", seconds_since(t0), 0, 0, false});
    table_size = model.size();
  }
  uint64_t status_counts[8] = {};
  for (const HashResponse& r : want) ++status_counts[static_cast<unsigned>(r.status) & 7u];

  // (a) --cc ticked by hand.
  {
    ssd::rtl::VerilatedEngine<Vvet_hash_engine> engine;
    std::vector<HashResponse> got;
    got.reserve(cmds.size());
    const uint64_t c0 = engine.cycles();
    const auto t0 = Clock::now();
    for (const HashCommand& c : cmds) got.push_back(engine.run(c));
    const double s = seconds_since(t0);
    rows.push_back({"(a) `--cc`, ticked by hand (`VerilatedEngine::run`, 2 `eval()` per cycle)", s,
                    engine.cycles() - c0, compare("(a) --cc", cmds, want, got), true});
  }

  // (b) or (c): one SystemC simulation.
  const sc_core::sc_time period(opt.period_ns, sc_core::SC_NS);
  if (opt.systemc == "sc") {
    // A --sc model takes Verilated's thread context, which still points at (a)'s context, gone.
    VerilatedContext context;
    Verilated::threadContextp(&context);
    sc_core::sc_clock clk("clk", period);
    ScBench bench("bench");
    bench.clk(clk);
    bench.cmds = &cmds;
    const auto t0 = Clock::now();
    sc_core::sc_start();
    const double s = seconds_since(t0);
    if (!bench.error.empty()) std::fprintf(stderr, "(b) --sc: %s\n", bench.error.c_str());
    rows.push_back({"(b) `--sc`, `sc_clock` " + fmt(opt.period_ns, 2) +
                        " ns + `SC_THREAD` driver on `sc_signal`s",
                    s, bench.edges, compare("(b) --sc", cmds, want, bench.got), true});
    bench.dut.final();
  } else if (opt.systemc == "cc") {
    sc_core::sc_clock clk("clk", period);
    CcOnScClock bench("bench");
    bench.clk(clk);
    bench.cmds = &cmds;
    const uint64_t c0 = bench.engine.cycles();
    const auto t0 = Clock::now();
    sc_core::sc_start();
    const double s = seconds_since(t0);
    if (!bench.error.empty())
      std::fprintf(stderr, "(c) --cc on sc_clock: %s\n", bench.error.c_str());
    rows.push_back(
        {"(c) `--cc`, `cycle()` per rising edge of an `sc_clock` " + fmt(opt.period_ns, 2) + " ns",
         s, bench.engine.cycles() - c0, compare("(c) --cc/sc_clock", cmds, want, bench.got), true});
  }

  std::printf(
      "rtl-clocking: %llu commands (seed %llu, %u keys; 30%% FIND, 25%% INSERT, 15%% DELETE, "
      "10%% UPDATE, 20%% MLOOKUP bits=%u), engine 1024 x 4\n",
      static_cast<unsigned long long>(opt.commands), static_cast<unsigned long long>(opt.seed),
      opt.keys, kBits);
  std::printf("model answers:");
  for (unsigned s = 0; s < 6; ++s) {
    std::printf(" %s %llu", ssd::ftl::to_string(static_cast<HashStatus>(s)),
                static_cast<unsigned long long>(status_counts[s]));
  }
  std::printf("; %llu of 4096 slots full at the end\n\n",
              static_cast<unsigned long long>(table_size));
  const double base = rows.size() > 1 ? rows[1].seconds : 0;
  std::printf(
      "| variant | wall s | commands/s | engine cycles | cycles/s | vs (a) | responses = model "
      "|\n");
  std::printf("|---|---:|---:|---:|---:|---:|---|\n");
  bool ok = true;
  for (const Row& r : rows) {
    const double cps = r.seconds > 0 ? static_cast<double>(cmds.size()) / r.seconds : 0;
    const double cyc = r.seconds > 0 ? static_cast<double>(r.cycles) / r.seconds : 0;
    std::string check = "(reference)";
    if (r.checked) {
      check = r.mismatches == 0 ? "yes, all " + std::to_string(cmds.size())
                                : "NO: " + std::to_string(r.mismatches) + " differ";
      ok = ok && r.mismatches == 0;
    }
    std::printf("| %s | %s | %s | %s | %s | %s | %s |\n", r.name.c_str(), fmt(r.seconds, 3).c_str(),
                fmt(cps, 0).c_str(), r.cycles ? std::to_string(r.cycles).c_str() : "-",
                r.cycles ? fmt(cyc, 0).c_str() : "-",
                base > 0 ? (fmt(r.seconds / base, 2) + "x").c_str() : "-", check.c_str());
  }
  if (rows.size() > 2 && rows[1].seconds > 0 && rows[2].seconds > 0) {
    const double ratio = rows[2].seconds / rows[1].seconds;
    std::printf("\nwall-time ratio %s / (a): %.2f (%s is %.2fx faster)\n",
                opt.systemc == "sc" ? "(b)" : "(c)", ratio,
                ratio > 1 ? "(a)" : "the SystemC variant", ratio > 1 ? ratio : 1 / ratio);
  }
  return ok ? 0 : 1;
}
