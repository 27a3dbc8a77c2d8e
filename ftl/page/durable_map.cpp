#include "ftl/page/durable_map.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssd::ftl {

Token SegmentVersions::add(uint32_t segment, std::vector<SlotId> entries) {
  const Token token = m_next;
  m_next += 2;
  std::vector<Version>& versions = m_by_segment[segment];
  if (versions.empty() || versions.back().durable_at != kUnsealed) m_unsealed.push_back(segment);
  versions.push_back({{token}, kUnsealed, std::move(entries)});
  return token;
}

void SegmentVersions::seal(uint64_t entry) {
  for (const uint32_t segment : m_unsealed) {
    for (auto it = m_by_segment[segment].rbegin();
         it != m_by_segment[segment].rend() && it->durable_at == kUnsealed; ++it) {
      it->durable_at = entry;
    }
  }
  m_unsealed.clear();
}

void SegmentVersions::prune(uint32_t segment, uint64_t retired_below) {
  std::vector<Version>& versions = m_by_segment[segment];
  // The newest version programmed for good: older ones cannot be the newest readable copy of
  // any of the segment's map units again (their blocks are erased only after the newer copies
  // are programmed, PageStore::replace).
  for (size_t i = versions.size(); i-- > 0;) {
    if (versions[i].durable_at <= retired_below) {
      versions.erase(versions.begin(), versions.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
  }
}

const std::vector<SlotId>& SegmentVersions::entries(uint32_t segment, Token token) const {
  for (const Version& version : m_by_segment[segment]) {
    for (const Token held : version.tokens) {
      if (held == token) return version.entries;
    }
  }
  throw std::logic_error("map segment " + std::to_string(segment) + " has no version " +
                         std::to_string(token) + " kept: its content was dropped too early");
}

void SegmentVersions::clear() {
  for (std::vector<Version>& versions : m_by_segment) versions.clear();
  m_unsealed.clear();
}

void SegmentVersions::keep(uint32_t segment, std::vector<Token> tokens,
                           std::vector<SlotId> entries) {
  m_by_segment[segment].push_back({std::move(tokens), 0, std::move(entries)});
}

uint64_t SegmentVersions::size() const {
  uint64_t total = 0;
  for (const std::vector<Version>& versions : m_by_segment) total += versions.size();
  return total;
}

}  // namespace ssd::ftl
