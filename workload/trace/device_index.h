// Dense device numbers for a trace's devices, ASUs or files, in order of first appearance, so a
// trace naming disks 3 and 17 uses regions 0 and 1. Bounded: a trace claiming more than
// kMaxDevices devices is bad input, not a reason to grow without limit.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ssd::workload {

class DeviceIndex {
 public:
  static constexpr uint32_t kMaxDevices = 4096;

  // The dense index of `key`; false when the key is new and the table is full.
  bool index_of(std::string_view key, uint32_t& index) {
    if (contains(key, index)) return true;
    if (m_keys.size() >= kMaxDevices) return false;
    index = static_cast<uint32_t>(m_keys.size());
    m_keys.emplace_back(key);
    if (m_keys.size() > kLinearKeys) {
      if (m_indices.empty()) {
        for (uint32_t i = 0; i < m_keys.size(); ++i) m_indices.emplace(m_keys[i], i);
      } else {
        m_indices.emplace(m_keys.back(), index);
      }
    }
    return true;
  }

  // The index of a key already seen; false when it is new.
  bool contains(std::string_view key, uint32_t& index) const {
    // Traces mostly name a handful of devices: comparing a few short keys beats hashing one.
    if (m_keys.size() <= kLinearKeys) {
      for (uint32_t i = 0; i < m_keys.size(); ++i) {
        if (m_keys[i] == key) {
          index = i;
          return true;
        }
      }
      return false;
    }
    const auto it = m_indices.find(std::string(key));
    if (it == m_indices.end()) return false;
    index = it->second;
    return true;
  }

  std::string too_many() const {
    return "more than " + std::to_string(kMaxDevices) + " devices in one trace";
  }

 private:
  static constexpr size_t kLinearKeys = 16;

  std::vector<std::string> m_keys;                      // by dense index
  std::unordered_map<std::string, uint32_t> m_indices;  // filled once there are many keys
};

}  // namespace ssd::workload
