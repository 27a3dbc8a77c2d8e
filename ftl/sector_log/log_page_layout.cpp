#include "ftl/sector_log/log_page_layout.h"

#include "ftl/core/page_store.h"
#include "ftl/core/unit_writer.h"
#include "ftl/sector_log/sector_log_settings.h"

namespace ssd::ftl {

namespace {

uint32_t sectors_per_page(const Geometry& g) { return g.page_bytes / g.sector_bytes; }

// The scheme's words per page when power may be cut: one per unit, then the sequence.
uint32_t scheme_words(const Geometry& g) {
  return PageStore::spare_words(g) + UnitWriter::kSequenceWords;
}

}  // namespace

uint32_t LogPageLayout::bits_per_address(const Geometry& geometry) {
  // Enough bits for the value logical_sectors itself, so all ones is never an address.
  const uint64_t count = geometry.logical_sectors();
  uint32_t bits = 1;
  while (bits < 63 && (count >> bits) != 0) ++bits;
  return bits;
}

uint32_t LogPageLayout::address_words_for(const Geometry& geometry, uint32_t sectors) {
  return static_cast<uint32_t>((uint64_t{sectors} * bits_per_address(geometry) + 31) / 32);
}

uint32_t LogPageLayout::address_sectors_for(const Geometry& geometry) {
  const uint32_t sectors = sectors_per_page(geometry);
  const uint64_t bits = bits_per_address(geometry);
  const uint64_t sector_bits = uint64_t{geometry.sector_bytes} * 8;
  for (uint32_t k = 1; k < sectors; ++k) {
    if ((sectors - k) * bits <= k * sector_bits) return k;
  }
  return 0;
}

LogPageLayout LogPageLayout::of(const Geometry& geometry, uint32_t spare_words_per_page) {
  LogPageLayout layout;
  layout.unit_words = PageStore::spare_words(geometry);
  layout.sectors = sectors_per_page(geometry);
  layout.recoverable = spare_words_per_page >= scheme_words(geometry);
  if (!layout.recoverable) return layout;
  layout.address_bits = bits_per_address(geometry);
  const uint32_t in_spare = address_words_for(geometry, layout.sectors);
  layout.addresses_in_spare = spare_words_per_page >= scheme_words(geometry) + in_spare;
  if (!layout.addresses_in_spare) {
    layout.address_sectors = address_sectors_for(geometry);
    layout.sectors -= layout.address_sectors;
  }
  layout.address_words = address_words_for(geometry, layout.sectors);
  return layout;
}

void LogPageLayout::pack(const std::vector<uint64_t>& addresses, uint32_t* words) const {
  for (uint32_t w = 0; w < address_words; ++w) words[w] = 0;
  for (uint32_t slot = 0; slot < sectors; ++slot) {
    const uint64_t address = slot < addresses.size() ? addresses[slot] : no_address();
    const uint64_t first_bit = uint64_t{slot} * address_bits;
    for (uint32_t b = 0; b < address_bits; ++b) {
      if (((address >> b) & 1) == 0) continue;
      const uint64_t bit = first_bit + b;
      words[bit / 32] |= 1u << (bit % 32);
    }
  }
}

uint64_t LogPageLayout::unpack(const uint32_t* words, uint32_t slot) const {
  uint64_t address = 0;
  const uint64_t first_bit = uint64_t{slot} * address_bits;
  for (uint32_t b = 0; b < address_bits; ++b) {
    const uint64_t bit = first_bit + b;
    if ((words[bit / 32] >> (bit % 32)) & 1) address |= uint64_t{1} << b;
  }
  return address;
}

uint32_t sector_log_spare_words(const config::PlatformConfig& platform, const Geometry& geometry) {
  if (platform.ftl.settings.get<SectorLogSettings>().size_bytes == 0) return 0;
  const uint32_t words = LogPageLayout::address_words_for(geometry, sectors_per_page(geometry));
  const uint64_t bytes = 4ull * (scheme_words(geometry) + words);
  return bytes <= geometry.spare_bytes ? words : 0;
}

}  // namespace ssd::ftl
