// A run's timeline as Chrome/Perfetto trace-event JSON (the "JSON Object Format": an object whose
// traceEvents are complete "X" spans, "C" counters and "M" track names; times in microseconds),
// streamed to a file as the run goes, for the Perfetto UI or chrome://tracing:
//   - "NAND dies": a track per die, a span per operation from its command to its last byte out,
//     named by kind and class ("program (gc)"), with its page and multi-plane width;
//   - "NAND channels": a track per channel, a span per transfer (command, data in, data out);
//   - "controller": the FTL CPU's firmware work per command, and the accelerator's work the CPU
//     waited for (drawn after the command's cycles: the two are interleaved in the firmware);
//   - "host": the queue depth (commands submitted, not completed) as a counter.
// The NAND spans are those of the final placement (NandSpanSink): a reservation is reported once
// it can no longer move. Only what overlaps the window [from, to) is written, and at most
// max_events events; then the trace stops, and its "otherData" says so. Plain C++, no SystemC.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <ostream>
#include <queue>
#include <string>
#include <vector>

#include "models/nand/nand_timing.h"

namespace ssd::models {

struct TimelineOptions {
  Picoseconds from = 0;              // run.timeline_from_us
  Picoseconds to = ~Picoseconds{0};  // run.timeline_to_us (all ones: the run's end)
  uint64_t max_events = 2000000;     // run.timeline_max_events
  uint32_t dies = 1;
  uint32_t channels = 1;
  bool accelerator = false;  // the platform has the hash-lookup accelerator
};

class Timeline final : public NandSpanSink {
 public:
  // Writes the opening of the JSON and the names of the tracks.
  Timeline(std::ostream& out, const TimelineOptions& options);

  // A die's or a channel's reservation, final.
  void span(const NandSpan& span) override;
  // The FTL CPU ran `what` (a command's kind, "recovery", ...) for `cycles` from `start` to
  // `cycles_end`, then waited for `accelerator_commands` accelerator commands until `end`.
  void firmware(const char* what, Picoseconds start, Picoseconds cycles_end, Picoseconds end,
                uint64_t cycles, uint64_t accelerator_commands);
  // The host submitted a command at `at` that completes at `completion`. Submissions come in
  // time order: the host's clock.
  void submitted(Picoseconds at, Picoseconds completion);
  // The power went off at `at`: the controller's work after it never happened, and the commands
  // in flight are gone.
  void power_cut(Picoseconds at);
  // Writes what is held back and closes the JSON. Call once, after the run (and after
  // NandTiming::flush_spans()).
  void finish();

  uint64_t events() const { return m_events; }
  bool truncated() const { return m_truncated; }

 private:
  // A controller span held until the host's clock passes its end (a power cut may cut it).
  struct ControllerSpan {
    Picoseconds start;
    Picoseconds end;
    uint32_t track;  // kCpuTrack or kAcceleratorTrack
    const char* name;
    const char* arg_name;
    uint64_t arg;
  };
  static constexpr uint32_t kCpuTrack = 1;
  static constexpr uint32_t kAcceleratorTrack = 2;

  void write_track_names();
  // Whether one more event may be written (the window is the caller's): false once max_events
  // have been.
  bool take_event();
  bool overlaps_window(Picoseconds start, Picoseconds end) const {
    return end > m_options.from && start < m_options.to;
  }
  // One complete ("X") event: named `name (qualifier)` (or `name`), with up to two numeric args
  // (an unnamed one is left out). Written straight to the stream, with no string built for it.
  struct SpanEvent {
    uint32_t pid;
    uint32_t tid;
    Picoseconds start;
    Picoseconds end;
    const char* name;
    const char* qualifier;
    const char* category;
    struct Arg {
      const char* name = nullptr;
      uint64_t value = 0;
    };
    std::array<Arg, 2> args;
  };
  void write_span(const SpanEvent& event);
  void write_controller(const ControllerSpan& span, Picoseconds cut);
  // Writes the held controller spans that end by `now`.
  void release_controller(Picoseconds now);
  // The queue depth became `depth` at `at`.
  void depth_changed(Picoseconds at, uint64_t depth);
  // Completions up to `now` lower the queue depth.
  void complete_through(Picoseconds now);
  // Begins an event: the comma between events, then "{".
  std::ostream& begin_event();

  std::ostream& m_out;
  TimelineOptions m_options;
  uint64_t m_events = 0;
  bool m_first_event = true;
  bool m_truncated = false;
  bool m_finished = false;
  std::deque<ControllerSpan> m_held;
  std::priority_queue<Picoseconds, std::vector<Picoseconds>, std::greater<>> m_in_flight;
  uint64_t m_depth_before_window = 0;
  bool m_depth_shown = false;  // the depth at the window's start has been written
};

}  // namespace ssd::models
