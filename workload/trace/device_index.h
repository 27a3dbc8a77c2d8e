// Dense device numbers for a trace's devices, ASUs or files, in order of first appearance, so a
// trace naming disks 3 and 17 uses regions 0 and 1. Bounded: a trace claiming more than
// kMaxDevices devices is bad input, not a reason to grow without limit.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ssd::workload {

class DeviceIndex {
 public:
  static constexpr uint32_t kMaxDevices = 4096;

  // The dense index of `key`; false when the key is new and the table is full.
  bool index_of(std::string_view key, uint32_t& index) {
    // Consecutive lines mostly name the same device: skip the hash for them.
    if (m_has_last && key == m_last_key) {
      index = m_last_index;
      return true;
    }
    auto it = m_indices.find(std::string(key));
    if (it == m_indices.end()) {
      if (m_indices.size() >= kMaxDevices) return false;
      it = m_indices.emplace(std::string(key), static_cast<uint32_t>(m_indices.size())).first;
    }
    m_last_key = it->first;
    m_last_index = it->second;
    m_has_last = true;
    index = it->second;
    return true;
  }

  // The index of a key already seen; false when it is new.
  bool contains(std::string_view key, uint32_t& index) const {
    if (m_has_last && key == m_last_key) {
      index = m_last_index;
      return true;
    }
    auto it = m_indices.find(std::string(key));
    if (it == m_indices.end()) return false;
    index = it->second;
    return true;
  }

  std::string too_many() const {
    return "more than " + std::to_string(kMaxDevices) + " devices in one trace";
  }

 private:
  std::unordered_map<std::string, uint32_t> m_indices;
  std::string m_last_key;
  uint32_t m_last_index = 0;
  bool m_has_last = false;
};

}  // namespace ssd::workload
