#include "models/timeline/timeline.h"

#include <cinttypes>
#include <cstdio>

namespace ssd::models {

namespace {

// Track groups ("processes" in the format's words), in the order the UI shows them.
constexpr uint32_t kDiesPid = 1;
constexpr uint32_t kChannelsPid = 2;
constexpr uint32_t kControllerPid = 3;
constexpr uint32_t kHostPid = 4;
constexpr Picoseconds kNoEnd = ~Picoseconds{0};

// Picoseconds as microseconds, exactly: the integer part, a point, six digits. Written straight
// to the stream (`out << Micros{ps}`): no string per event.
struct Micros {
  Picoseconds ps;
};
std::ostream& operator<<(std::ostream& out, Micros t) {
  char text[32];
  const int n =
      std::snprintf(text, sizeof text, "%" PRIu64 ".%06" PRIu64,
                    static_cast<uint64_t>(t.ps / 1000000), static_cast<uint64_t>(t.ps % 1000000));
  return out.write(text, n);
}

const char* kind_name(ftl::OpKind kind) {
  switch (kind) {
    case ftl::OpKind::kRead:
      return "read";
    case ftl::OpKind::kSpareRead:
      return "spare read";
    case ftl::OpKind::kProgram:
      return "program";
    case ftl::OpKind::kErase:
      return "erase";
    case ftl::OpKind::kCopyback:
      return "copy-back";
    default:
      return "memory";  // never on the NAND
  }
}

const char* class_name(ftl::OpClass op_class) {
  switch (op_class) {
    case ftl::OpClass::kHostRead:
      return "host read";
    case ftl::OpClass::kHostWrite:
      return "host write";
    case ftl::OpClass::kMapping:
      return "mapping";
    default:
      return "gc";
  }
}

// What a channel transfer carries: data-out after the array time, or the operation's command
// (with a program's data in).
const char* transfer_name(const NandSpan& span) {
  if (span.data_out) return "data out";
  return span.kind == ftl::OpKind::kProgram ? "command + data in" : "command";
}

}  // namespace

Timeline::Timeline(std::ostream& out, const TimelineOptions& options)
    : m_out(out), m_options(options) {
  m_out << "{\"traceEvents\":[\n";
  write_track_names();
}

std::ostream& Timeline::begin_event() {
  if (!m_first_event) m_out << ",\n";
  m_first_event = false;
  return m_out << '{';
}

void Timeline::write_track_names() {
  const auto process = [&](uint32_t pid, const char* name) {
    begin_event() << "\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << pid
                  << ",\"args\":{\"name\":\"" << name << "\"}}";
    begin_event() << "\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" << pid
                  << ",\"args\":{\"sort_index\":" << pid << "}}";
  };
  const auto thread = [&](uint32_t pid, uint32_t tid, const std::string& name) {
    begin_event() << "\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << pid << ",\"tid\":" << tid
                  << ",\"args\":{\"name\":\"" << name << "\"}}";
    begin_event() << "\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":" << pid
                  << ",\"tid\":" << tid << ",\"args\":{\"sort_index\":" << tid << "}}";
  };
  process(kDiesPid, "NAND dies");
  for (uint32_t die = 0; die < m_options.dies; ++die) {
    thread(kDiesPid, die,
           "die " + std::to_string(die) + " (channel " + std::to_string(die % m_options.channels) +
               ")");
  }
  process(kChannelsPid, "NAND channels");
  for (uint32_t channel = 0; channel < m_options.channels; ++channel) {
    thread(kChannelsPid, channel, "channel " + std::to_string(channel));
  }
  process(kControllerPid, "controller");
  thread(kControllerPid, kCpuTrack, "FTL CPU");
  if (m_options.accelerator) thread(kControllerPid, kAcceleratorTrack, "accelerator");
  process(kHostPid, "host");
}

bool Timeline::take_event() {
  if (m_events >= m_options.max_events) {
    m_truncated = true;
    return false;
  }
  ++m_events;
  return true;
}

void Timeline::write_span(const SpanEvent& event) {
  if (!overlaps_window(event.start, event.end) || !take_event()) return;
  std::ostream& out = begin_event();
  out << "\"ph\":\"X\",\"name\":\"" << event.name;
  if (event.qualifier != nullptr) out << " (" << event.qualifier << ')';
  out << "\",\"cat\":\"" << event.category << "\",\"pid\":" << event.pid << ",\"tid\":" << event.tid
      << ",\"ts\":" << Micros{event.start} << ",\"dur\":" << Micros{event.end - event.start}
      << ",\"args\":{";
  const char* comma = "";
  for (const SpanEvent::Arg& arg : event.args) {
    if (arg.name == nullptr) continue;
    out << comma << '"' << arg.name << "\":" << arg.value;
    comma = ",";
  }
  out << "}}";
}

void Timeline::span(const NandSpan& span) {
  SpanEvent event{kDiesPid,
                  span.die,
                  span.start,
                  span.end,
                  kind_name(span.kind),
                  class_name(span.op_class),
                  ftl::to_string(span.op_class),
                  {}};
  if (span.on_channel) {
    event.pid = kChannelsPid;
    event.tid = span.die % m_options.channels;
    event.name = transfer_name(span);
    event.args[0] = {"die", span.die};
  } else {
    if (span.page != ftl::kNone) event.args[0] = {"page", span.page};
    if (span.planes > 1) event.args[1] = {"planes", span.planes};
  }
  write_span(event);
}

void Timeline::firmware(const char* what, Picoseconds start, Picoseconds cycles_end,
                        Picoseconds end, uint64_t cycles, uint64_t accelerator_commands) {
  if (cycles_end > start) {
    m_held.push_back({start, cycles_end, kCpuTrack, what, "cycles", cycles});
  }
  if (end > cycles_end) {
    m_held.push_back(
        {cycles_end, end, kAcceleratorTrack, "hash engine", "commands", accelerator_commands});
  }
}

void Timeline::write_controller(const ControllerSpan& span, Picoseconds cut) {
  if (span.start >= cut) return;  // it never ran
  write_span({kControllerPid,
              span.track,
              span.start,
              std::min(span.end, cut),
              span.name,
              nullptr,
              span.track == kCpuTrack ? "firmware" : "accelerator",
              {{{span.arg_name, span.arg}, {}}}});
}

void Timeline::release_controller(Picoseconds now) {
  while (!m_held.empty() && m_held.front().end <= now) {
    write_controller(m_held.front(), kNoEnd);
    m_held.pop_front();
  }
}

void Timeline::depth_changed(Picoseconds at, uint64_t depth) {
  if (at < m_options.from) {
    m_depth_before_window = depth;
    return;
  }
  if (at >= m_options.to) return;
  const auto counter = [&](Picoseconds ts, uint64_t value) {
    if (!take_event()) return;
    begin_event() << "\"ph\":\"C\",\"name\":\"queue depth\",\"pid\":" << kHostPid
                  << ",\"tid\":0,\"ts\":" << Micros{ts} << ",\"args\":{\"commands\":" << value
                  << "}}";
  };
  if (!m_depth_shown) {
    m_depth_shown = true;
    if (at > m_options.from) counter(m_options.from, m_depth_before_window);
  }
  counter(at, depth);
}

void Timeline::complete_through(Picoseconds now) {
  while (!m_in_flight.empty() && m_in_flight.top() <= now) {
    const Picoseconds at = m_in_flight.top();
    m_in_flight.pop();
    depth_changed(at, m_in_flight.size());
  }
}

void Timeline::submitted(Picoseconds at, Picoseconds completion) {
  complete_through(at);
  release_controller(at);
  m_in_flight.push(completion);
  depth_changed(at, m_in_flight.size());
}

void Timeline::power_cut(Picoseconds at) {
  complete_through(at);
  m_in_flight = {};
  depth_changed(at, 0);
  for (const ControllerSpan& held : m_held) write_controller(held, at);
  m_held.clear();
  if (overlaps_window(at, at + 1) && take_event()) {
    begin_event() << "\"ph\":\"i\",\"s\":\"g\",\"name\":\"power cut\",\"pid\":" << kHostPid
                  << ",\"tid\":0,\"ts\":" << Micros{at} << "}";
  }
}

void Timeline::finish() {
  if (m_finished) return;
  m_finished = true;
  release_controller(kNoEnd);
  complete_through(kNoEnd);
  m_out << "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"source\":\"ssdsim\""
        << ",\"window_from_us\":\"" << Micros{m_options.from} << "\",\"window_to_us\":\"";
  if (m_options.to == kNoEnd) {
    m_out << "end of run";
  } else {
    m_out << Micros{m_options.to};
  }
  m_out << "\",\"events\":" << m_events << ",\"truncated\":" << (m_truncated ? "true" : "false")
        << "}}\n";
}

}  // namespace ssd::models
