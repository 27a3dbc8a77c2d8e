#include "ftl/core/page_store.h"

#include "config/capacity.h"
#include "ftl/core/plane_balance.h"

namespace ssd::ftl {

PageStore::PageStore(const config::PlatformConfig& platform, FlashBackend& backend,
                     MappingOwner& owner, FtlStats& stats)
    : m_backend(backend),
      m_blocks(backend.geometry(), config::gc_reserve_blocks_per_plane(platform)),
      m_policy(make_victim_policy(platform.ftl.gc_policy)),
      m_host_writer(backend, m_blocks, OpClass::kHostWrite),
      m_gc_writer(backend, m_blocks, OpClass::kGc),
      m_map_writer(backend, m_blocks, OpClass::kMapping),
      m_gc(backend, m_blocks, m_gc_writer, owner, *m_policy, stats, gc_mode(platform.ftl.gc_mode),
           platform.nand.copyback) {
  m_host_writer.set_listener(&m_gc);
  m_map_writer.set_listener(&m_gc);
  m_host_writer.set_placement(placement_policy(platform.ftl.placement));
  // Placement alone lets a plane drift past what its GC can reclaim (a small plane under random
  // overwrites); the host stream skips such a plane (plane_balance.h).
  m_host_writer.set_plane_live_limit(plane_live_limit(platform, backend.geometry()));
}

uint32_t PageStore::read(SlotId slot, uint32_t units, OpClass op_class, uint32_t after) {
  const Geometry& g = geometry();
  if (buffered(slot)) return m_backend.dram(false, units * g.unit_bytes, op_class, after);
  return m_backend.read(g.page_of_slot(slot), units, op_class, after);
}

uint32_t PageStore::flush() {
  const uint32_t host = m_host_writer.close_pages();
  const uint32_t gc = m_gc_writer.close_pages();
  const uint32_t map = m_map_writer.close_pages();
  return map != kNone ? map : gc != kNone ? gc : host;
}

}  // namespace ssd::ftl
