// Where sampled aging (ftl/core/sampled_aging.h) puts a copy of something the miniature homes on
// a plane by stripe position: a logical block of the block-granular schemes (block_aged.cpp,
// BlockScheme::home_plane) or a superblock of the superblock frame (frame_aged.cpp, whose
// superblocks are striped over the planes the same way). Index k sits in stripe row k / planes
// on plane Geometry::plane_in_stripe_order(k % planes); the miniature's index m, in row r on its
// plane q, becomes in copy c (which lays the miniature's planes out on the device's planes
// c x (the miniature's planes) and on) the device's index in row r homed on plane
// c x (the miniature's planes) + q.
#pragma once

#include <cstdint>

#include "ftl/core/aged_planes.h"
#include "ftl/core/geometry.h"

namespace ssd::ftl {

class StripedCopies {
 public:
  StripedCopies(const AgedPlanes& aged, const Geometry& device)
      : m_mini_planes(aged.planes),
        m_mini_dies(aged.planes / device.planes_per_die),
        m_planes_per_die(device.planes_per_die),
        m_device_planes(device.planes()),
        m_device_dies(device.dies()) {}

  uint32_t copies() const { return m_device_planes / m_mini_planes; }
  // The device's index for the miniature's `index` in copy `copy`.
  uint64_t device_index(uint32_t copy, uint32_t index) const {
    const uint32_t row = index / m_mini_planes;
    const uint32_t position = index % m_mini_planes;
    // Geometry::plane_in_stripe_order on the miniature, then its inverse on the device.
    const uint32_t mini_plane =
        (position % m_mini_dies) * m_planes_per_die + position / m_mini_dies;
    const uint32_t plane = copy * m_mini_planes + mini_plane;
    const uint32_t device_position =
        (plane % m_planes_per_die) * m_device_dies + plane / m_planes_per_die;
    return uint64_t{row} * m_device_planes + device_position;
  }

 private:
  uint32_t m_mini_planes;
  uint32_t m_mini_dies;
  uint32_t m_planes_per_die;
  uint32_t m_device_planes;
  uint32_t m_device_dies;
};

}  // namespace ssd::ftl
