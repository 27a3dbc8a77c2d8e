// The bytes real clients wrote (FtlDeviceOptions::host_data; ssdsim serve, docs/clients.md):
// sparse, one buffer per mapping unit that holds a non-zero byte, so memory follows what was
// written, never the device. A unit never written, trimmed whole or written all zero holds no
// buffer and reads as zeros.
//
// The FTL keeps content tokens, not bytes (content_token.h); these bytes are kept per logical
// unit beside the oracle and given to a read only when the oracle found that every unit the
// scheme delivered carries the token the host's commands gave it. So the scheme decides what a
// read returns, as with bytes in the flash: a mapping that returned a stale or foreign version
// fails the read (and counts a mismatch) instead of handing back other bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace ssd::ftl {

class HostData {
 public:
  HostData(uint32_t sector_bytes, uint32_t sectors_per_unit);

  // Sectors [first_sector, first_sector + sectors) take `bytes` (sectors x sector_bytes), or
  // zeros when `bytes` is nullptr.
  void write(uint64_t first_sector, uint32_t sectors, const std::byte* bytes);
  // Fills `bytes` with what those sectors hold.
  void read(uint64_t first_sector, uint32_t sectors, std::byte* bytes) const;
  // A trim: the units it covers whole read as zeros from now on (trim is advisory at unit
  // granularity, as Oracle::on_trim keeps it: a unit it covers in part keeps its data).
  void trim(uint64_t first_sector, uint32_t sectors);

  uint64_t units_held() const { return m_units.size(); }
  uint64_t bytes_held() const { return m_units.size() * m_unit_bytes; }

 private:
  // The unit's buffer, made (zeroed) when `create`; nullptr when it has none.
  std::byte* unit(uint64_t index, bool create);
  // Drops the unit's buffer when every byte of it is zero.
  void drop_if_zero(uint64_t index);
  // Calls visit(unit, byte offset in the unit, byte offset in the request, bytes) for each
  // unit's piece of the sector range, in order.
  template <typename Visit>
  void for_each_piece(uint64_t first_sector, uint32_t sectors, Visit&& visit) const;

  uint32_t m_sector_bytes;
  uint32_t m_sectors_per_unit;
  uint32_t m_unit_bytes;
  std::unordered_map<uint64_t, std::unique_ptr<std::byte[]>> m_units;
};

}  // namespace ssd::ftl
