// libFuzzer target for one trace parser (SSD_FUZZ_FORMAT names it at compile time): the input is
// split into lines and each line is parsed, as the reader would, with blkparse's three actions
// tried in turn. A parser must never crash, hang or read out of bounds on any line; a bad line
// must come back as kBad with a reason.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "workload/trace/trace_parser.h"

using ssd::workload::LineKind;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  constexpr ssd::workload::TraceFormat kFormat = ssd::workload::TraceFormat::SSD_FUZZ_FORMAT;
  // Only blkparse depends on the action: the other parsers run once.
  const std::string_view actions = kFormat == ssd::workload::TraceFormat::kBlkparse ? "QDC" : "Q";
  for (char action : actions) {
    auto parser = ssd::workload::make_parser(kFormat, action);
    ssd::workload::TraceRecord record;
    std::string reason;
    size_t start = 0;
    while (start <= input.size()) {
      size_t end = input.find('\n', start);
      if (end == std::string_view::npos) end = input.size();
      const LineKind kind = parser->parse(input.substr(start, end - start), record, reason);
      if (kind == LineKind::kBad && reason.empty()) std::abort();  // a bad line must say why
      if (kind == LineKind::kRecord && record.size_bytes > (uint64_t(1) << 32)) std::abort();
      start = end + 1;
    }
  }
  return 0;
}
