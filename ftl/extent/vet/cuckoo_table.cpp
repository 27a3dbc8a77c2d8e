#include "ftl/extent/vet/cuckoo_table.h"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace ssd::ftl {

namespace {

// A rehash at the same size that fails this many times in a row makes the table grow.
constexpr int kRehashTriesPerSize = 2;
constexpr uint32_t kMaxBits = 31;

}  // namespace

CuckooTable::CuckooTable(CpuWork& cpu) : m_cpu(cpu) { clear(); }

void CuckooTable::clear() {
  m_size = 0;
  m_next_multiplier = 0;
  m_multiplier[0] = vet_hash_multiplier(m_next_multiplier++);
  m_multiplier[1] = vet_hash_multiplier(m_next_multiplier++);
  set_size(kInitialBits);
}

void CuckooTable::set_size(uint32_t bits) {
  m_bits = bits;
  for (auto& table : m_table) table.assign(table_slots(), Slot{});
  // Pagh and Rodler's bound on the rounds of one insertion.
  m_max_loop =
      static_cast<uint32_t>(std::ceil(3.0 * bits * std::log(2.0) / std::log(1 + kEpsilon)));
}

bool CuckooTable::find(uint64_t key, NodeValue& value) {
  for (int t = 0; t < 2; ++t) {
    ++m_cpu.hash_probes;
    const Slot& s = m_table[t][index(t, key)];
    if (s.key == key) {
      value = s.value;
      return true;
    }
  }
  return false;
}

void CuckooTable::update(uint64_t key, const NodeValue& value) {
  for (int t = 0; t < 2; ++t) {
    ++m_cpu.hash_probes;
    Slot& s = m_table[t][index(t, key)];
    if (s.key == key) {
      s.value = value;
      return;
    }
  }
  throw std::logic_error("VET cuckoo table: update of an absent key");
}

bool CuckooTable::erase(uint64_t key) {
  for (int t = 0; t < 2; ++t) {
    ++m_cpu.hash_probes;
    Slot& s = m_table[t][index(t, key)];
    if (s.key == key) {
      s = Slot{};
      --m_size;
      return true;
    }
  }
  return false;
}

bool CuckooTable::place(Slot& slot) {
  for (uint32_t round = 0; round < m_max_loop; ++round) {
    for (int t = 0; t < 2; ++t) {
      std::swap(slot, m_table[t][index(t, slot.key)]);
      if (slot.key == kVetNoKey) return true;
      ++m_cpu.hash_probes;  // a kick: the evicted entry goes to its other slot
    }
  }
  return false;
}

void CuckooTable::insert(uint64_t key, const NodeValue& value) {
  if (key == kVetNoKey) throw std::invalid_argument("VET cuckoo table: reserved key");
  ++m_cpu.hash_probes;
  insert_new(Slot{key, value});
}

void CuckooTable::insert_new(Slot slot) {
  if (m_size + 1 > load_limit()) {
    rehash(m_bits + 1, slot);  // places the new key too
  } else if (!place(slot)) {
    rehash(m_bits, slot);
  }
  ++m_size;
}

uint32_t CuckooTable::adjust_count(uint64_t key, int32_t delta) {
  for (int t = 0; t < 2; ++t) {
    ++m_cpu.hash_probes;
    Slot& s = m_table[t][index(t, key)];
    if (s.key != key) continue;
    if (s.value.w1 != 0) throw std::logic_error("VET cuckoo table: count of a leaf");
    if (delta < 0 && s.value.w0 < static_cast<uint32_t>(-delta)) {
      throw std::logic_error("VET cuckoo table: count below zero");
    }
    s.value.w0 += static_cast<uint32_t>(delta);
    const uint32_t count = s.value.w0;
    if (count == 0) {
      s = Slot{};
      --m_size;
    }
    return count;
  }
  if (delta <= 0) throw std::logic_error("VET cuckoo table: count of an absent key");
  if (key == kVetNoKey) throw std::invalid_argument("VET cuckoo table: reserved key");
  insert_new(Slot{key, NodeValue{static_cast<uint32_t>(delta), 0, 0}});
  return static_cast<uint32_t>(delta);
}

void CuckooTable::rehash(uint32_t bits, const Slot& homeless) {
  std::vector<Slot> entries;
  entries.reserve(m_size + 1);
  for (const auto& table : m_table) {
    for (const Slot& s : table) {
      if (s.key != kVetNoKey) entries.push_back(s);
    }
  }
  if (homeless.key != kVetNoKey) entries.push_back(homeless);
  for (int tries = 0;; ++tries) {
    if (tries == kRehashTriesPerSize) {
      ++bits;
      tries = 0;
    }
    if (bits > kMaxBits) throw std::length_error("VET cuckoo table: cannot grow further");
    ++m_rehashes;
    m_multiplier[0] = vet_hash_multiplier(m_next_multiplier++);
    m_multiplier[1] = vet_hash_multiplier(m_next_multiplier++);
    set_size(bits);
    bool placed = true;
    for (const Slot& e : entries) {
      Slot s = e;
      ++m_cpu.hash_probes;
      if (!place(s)) {
        placed = false;
        break;
      }
    }
    if (placed) return;
  }
}

void CuckooTable::set_multipliers(uint64_t m0, uint64_t m1) {
  std::vector<Slot> entries;
  for (const auto& table : m_table) {
    for (const Slot& s : table) {
      if (s.key != kVetNoKey) entries.push_back(s);
    }
  }
  m_multiplier[0] = m0 | 1;
  m_multiplier[1] = m1 | 1;
  set_size(m_bits);
  for (const Slot& e : entries) {
    Slot s = e;
    if (!place(s))
      throw std::logic_error("VET cuckoo table: these multipliers do not fit the keys");
  }
}

int CuckooTable::table_of(uint64_t key) const {
  for (int t = 0; t < 2; ++t) {
    if (m_table[t][index(t, key)].key == key) return t;
  }
  return -1;
}

void CuckooTable::for_each(const std::function<void(uint64_t, const NodeValue&)>& visit) const {
  for (const auto& table : m_table) {
    for (const Slot& s : table) {
      if (s.key != kVetNoKey) visit(s.key, s.value);
    }
  }
}

}  // namespace ssd::ftl
