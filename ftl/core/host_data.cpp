#include "ftl/core/host_data.h"

#include <algorithm>
#include <cstring>

#include "ftl/core/unit_span.h"

namespace ssd::ftl {

HostData::HostData(uint32_t sector_bytes, uint32_t sectors_per_unit)
    : m_sector_bytes(sector_bytes),
      m_sectors_per_unit(sectors_per_unit),
      m_unit_bytes(sector_bytes * sectors_per_unit) {}

std::byte* HostData::unit(uint64_t index, bool create) {
  const auto found = m_units.find(index);
  if (found != m_units.end()) return found->second.get();
  if (!create) return nullptr;
  auto buffer = std::make_unique<std::byte[]>(m_unit_bytes);  // value-initialised: zeros
  return m_units.emplace(index, std::move(buffer)).first->second.get();
}

void HostData::drop_if_zero(uint64_t index) {
  const auto found = m_units.find(index);
  if (found == m_units.end()) return;
  const std::byte* bytes = found->second.get();
  if (std::all_of(bytes, bytes + m_unit_bytes, [](std::byte b) { return b == std::byte{0}; })) {
    m_units.erase(found);
  }
}

template <typename Visit>
void HostData::for_each_piece(uint64_t first_sector, uint32_t sectors, Visit&& visit) const {
  uint64_t sector = first_sector;
  const uint64_t end = first_sector + sectors;
  size_t done = 0;
  while (sector < end) {
    const uint64_t in_unit = sector % m_sectors_per_unit;
    const uint64_t count = std::min<uint64_t>(end - sector, m_sectors_per_unit - in_unit);
    const size_t length = count * m_sector_bytes;
    visit(sector / m_sectors_per_unit, in_unit * m_sector_bytes, done, length);
    done += length;
    sector += count;
  }
}

void HostData::write(uint64_t first_sector, uint32_t sectors, const std::byte* bytes) {
  for_each_piece(first_sector, sectors, [&](uint64_t index, size_t at, size_t from, size_t length) {
    const std::byte* piece = bytes != nullptr ? bytes + from : nullptr;
    const bool all_zero = piece == nullptr || std::all_of(piece, piece + length, [](std::byte b) {
                            return b == std::byte{0};
                          });
    // Zeros into a unit that holds none change nothing.
    std::byte* held = unit(index, !all_zero);
    if (held == nullptr) return;
    if (piece == nullptr) {
      std::memset(held + at, 0, length);
    } else {
      std::memcpy(held + at, piece, length);
    }
    if (all_zero) drop_if_zero(index);
  });
}

void HostData::read(uint64_t first_sector, uint32_t sectors, std::byte* bytes) const {
  for_each_piece(first_sector, sectors, [&](uint64_t index, size_t at, size_t to, size_t length) {
    const auto found = m_units.find(index);
    if (found == m_units.end()) {
      std::memset(bytes + to, 0, length);
    } else {
      std::memcpy(bytes + to, found->second.get() + at, length);
    }
  });
}

void HostData::trim(uint64_t first_sector, uint32_t sectors) {
  const UnitSpan span = unit_span(first_sector, sectors, m_sectors_per_unit);
  for (uint32_t i = 0; i < span.count; ++i) {
    if (span.mask_of(i) == span.full_mask) m_units.erase(span.first + i);
  }
}

}  // namespace ssd::ftl
