#include "ftl/extent/vet/chaining_table.h"

#include <cmath>
#include <stdexcept>

#include "ftl/core/types.h"
#include "ftl/extent/vet/vet_hash.h"

namespace ssd::ftl {

namespace {

// Primes roughly doubling, each far from a power of two (the list Clark's table also grows by).
constexpr uint32_t kPrimes[] = {
    53,       97,       193,      389,       769,       1543,      3079,      6151,      12289,
    24593,    49157,    98317,    196613,    393241,    786433,    1572869,   3145739,   6291469,
    12582917, 25165843, 50331653, 100663319, 201326611, 402653189, 805306457, 1610612741};
constexpr uint32_t kPrimeCount = sizeof(kPrimes) / sizeof(kPrimes[0]);

}  // namespace

ChainingTable::ChainingTable(CpuWork& cpu) : m_cpu(cpu) { clear(); }

void ChainingTable::clear() {
  m_entries.clear();
  m_free = kNone;
  m_size = 0;
  m_buckets.clear();
  resize(0);
}

void ChainingTable::resize(uint32_t prime_index) {
  m_prime_index = prime_index;
  const uint32_t buckets = kPrimes[prime_index];
  m_fastmod = ~uint64_t{0} / buckets + 1;
  m_load_limit = static_cast<uint64_t>(std::ceil(buckets * kMaxLoad));
  // Relink every entry by the hash it keeps: growing never recomputes a hash.
  std::vector<uint32_t> old(buckets, kNone);
  old.swap(m_buckets);
  for (uint32_t head : old) {
    while (head != kNone) {
      Entry& e = m_entries[head];
      const uint32_t next = e.next;
      uint32_t& bucket = m_buckets[bucket_of(e.hash)];
      e.next = bucket;
      bucket = head;
      head = next;
      ++m_cpu.hash_probes;
    }
  }
}

uint32_t ChainingTable::locate(uint64_t key, uint32_t hash, uint32_t** link) {
  uint32_t* at = &m_buckets[bucket_of(hash)];
  uint32_t examined = 0;
  while (*at != kNone) {
    const Entry& e = m_entries[*at];
    ++examined;
    if (e.hash == hash && e.key == key) break;
    at = &m_entries[*at].next;
  }
  m_cpu.hash_probes += examined > 1 ? examined : 1;
  *link = at;
  return *at;
}

bool ChainingTable::find(uint64_t key, NodeValue& value) {
  uint32_t* link;
  const uint32_t entry = locate(key, vet_hash(key), &link);
  if (entry == kNone) return false;
  value = m_entries[entry].value;
  return true;
}

void ChainingTable::link_new(uint64_t key, const NodeValue& value, uint32_t hash) {
  // Grow first (as Clark's table does) so the new entry is linked once.
  if (m_size + 1 > m_load_limit && m_prime_index + 1 < kPrimeCount) resize(m_prime_index + 1);
  uint32_t entry = m_free;
  if (entry != kNone) {
    m_free = m_entries[entry].next;
  } else {
    if (m_entries.size() >= kNone) throw std::length_error("VET chaining table: pool full");
    entry = static_cast<uint32_t>(m_entries.size());
    m_entries.emplace_back();
  }
  uint32_t& bucket = m_buckets[bucket_of(hash)];
  m_entries[entry] = Entry{key, value, hash, bucket};
  bucket = entry;
  ++m_size;
}

void ChainingTable::unlink(uint32_t entry, uint32_t* link) {
  *link = m_entries[entry].next;
  m_entries[entry].next = m_free;
  m_free = entry;
  --m_size;
}

void ChainingTable::insert(uint64_t key, const NodeValue& value) {
  ++m_cpu.hash_probes;
  link_new(key, value, vet_hash(key));
}

uint32_t ChainingTable::adjust_count(uint64_t key, int32_t delta) {
  const uint32_t hash = vet_hash(key);
  uint32_t* link;
  const uint32_t entry = locate(key, hash, &link);
  if (entry == kNone) {
    if (delta <= 0) throw std::logic_error("VET chaining table: count of an absent key");
    link_new(key, NodeValue{static_cast<uint32_t>(delta), 0, 0}, hash);
    return static_cast<uint32_t>(delta);
  }
  NodeValue& v = m_entries[entry].value;
  if (v.w1 != 0) throw std::logic_error("VET chaining table: count of a leaf");
  if (delta < 0 && v.w0 < static_cast<uint32_t>(-delta)) {
    throw std::logic_error("VET chaining table: count below zero");
  }
  v.w0 += static_cast<uint32_t>(delta);
  const uint32_t count = v.w0;
  if (count == 0) unlink(entry, link);
  return count;
}

void ChainingTable::update(uint64_t key, const NodeValue& value) {
  uint32_t* link;
  const uint32_t entry = locate(key, vet_hash(key), &link);
  if (entry == kNone) throw std::logic_error("VET chaining table: update of an absent key");
  m_entries[entry].value = value;
}

bool ChainingTable::erase(uint64_t key) {
  uint32_t* link;
  const uint32_t entry = locate(key, vet_hash(key), &link);
  if (entry == kNone) return false;
  unlink(entry, link);
  return true;
}

void ChainingTable::for_each(const std::function<void(uint64_t, const NodeValue&)>& visit) const {
  for (uint32_t head : m_buckets) {
    for (uint32_t e = head; e != kNone; e = m_entries[e].next)
      visit(m_entries[e].key, m_entries[e].value);
  }
}

uint32_t ChainingTable::longest_chain() const {
  uint32_t longest = 0;
  for (uint32_t head : m_buckets) {
    uint32_t length = 0;
    for (uint32_t e = head; e != kNone; e = m_entries[e].next) ++length;
    if (length > longest) longest = length;
  }
  return longest;
}

}  // namespace ssd::ftl
