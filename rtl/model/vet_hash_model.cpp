#include "rtl/model/vet_hash_model.h"

#include <stdexcept>
#include <string>

#include "ftl/extent/vet/vet_hash.h"

namespace ssd::rtl {

HashEngineModel::HashEngineModel(const HashEngineConfig& config) : m_config(config) {
  if (config.bucket_bits < 1 || config.bucket_bits > 13) {
    throw std::invalid_argument("HashEngineModel: bucket_bits must be 1..13, got " +
                                std::to_string(config.bucket_bits));
  }
  if (config.ways < 1 || config.ways > 16) {
    throw std::invalid_argument("HashEngineModel: ways must be 1..16, got " +
                                std::to_string(config.ways));
  }
  m_slots.assign((size_t{1} << config.bucket_bits) * config.ways, Slot{});
}

uint32_t HashEngineModel::bucket_of(uint64_t key, uint32_t bucket_bits) {
  return ftl::vet_hash(key) >> (32 - bucket_bits);
}

uint32_t HashEngineModel::bucket_of(uint64_t key) const {
  return bucket_of(key, m_config.bucket_bits);
}

uint64_t HashEngineModel::probe_key(uint64_t address, uint32_t bits, uint32_t depth) {
  // Six-bit arithmetic as in the RTL: level = (bits - depth) mod 64.
  const uint32_t level = (bits - depth) & 63u;
  return ((address >> level) << 6) | level;
}

HashEngineModel::Probe HashEngineModel::probe(uint32_t bucket, uint64_t key) const {
  Probe p;
  // Lowest matching way, lowest free way: the RTL's priority encoders.
  for (uint32_t w = m_config.ways; w-- > 0;) {
    const Slot& s = slot(bucket, w);
    if (s.valid && s.key == key) {
      p.hit = true;
      p.hit_way = w;
    }
    if (!s.valid) {
      p.full = false;
      p.free_way = w;
    }
  }
  return p;
}

HashResponse HashEngineModel::execute(const HashCommand& c) {
  HashResponse r;
  r.key = c.key;
  r.probes = 1;
  r.latency_cycles = kPipelineCycles;
  r.issue_cycles = 1;
  const auto op = static_cast<HashOp>(c.op & 7u);
  if (op == HashOp::kMultiLookup) return run_multi_lookup(c.key, c.bits & 63u);
  if (op == HashOp::kClear) {
    for (Slot& s : m_slots) s.valid = false;
    m_size = 0;
    r.status = HashStatus::kDone;
    r.probes = 0;
    return r;
  }
  if (op != HashOp::kFind && op != HashOp::kInsert && op != HashOp::kUpdate &&
      op != HashOp::kDelete) {
    r.status = HashStatus::kBadCommand;
    r.probes = 0;
    return r;
  }

  const uint32_t bucket = bucket_of(c.key);
  const Probe p = probe(bucket, c.key);
  switch (op) {
    case HashOp::kFind:
      if (p.hit) {
        r.status = HashStatus::kHit;
        r.value = slot(bucket, p.hit_way).value;
        r.way = p.hit_way;
      }
      break;
    case HashOp::kInsert:
      if (p.hit) {
        slot(bucket, p.hit_way).value = c.value;
        r.status = HashStatus::kHit;
        r.value = c.value;
        r.way = p.hit_way;
      } else if (!p.full) {
        Slot& s = slot(bucket, p.free_way);
        s.valid = true;
        s.key = c.key;
        s.value = c.value;
        ++m_size;
        r.status = HashStatus::kDone;
        r.value = c.value;
        r.way = p.free_way;
      } else {
        r.status = HashStatus::kOverflow;
      }
      break;
    case HashOp::kUpdate:
      if (p.hit) {
        slot(bucket, p.hit_way).value = c.value;
        r.status = HashStatus::kHit;
        r.value = c.value;
        r.way = p.hit_way;
      }
      break;
    case HashOp::kDelete:
      if (p.hit) {
        Slot& s = slot(bucket, p.hit_way);
        s.valid = false;
        --m_size;
        r.status = HashStatus::kHit;
        r.value = s.value;
        r.way = p.hit_way;
      }
      break;
    default:
      break;
  }
  return r;
}

// VET's binary search on levels (paper sec. 3.2, canonical_extent.h's vet_search_path): depths
// lo..hi = 0..B, probe mid = (lo + hi) / 2; absent -> hi = mid - 1; internal -> remember it,
// lo = mid + 1; leaf -> done. Each probe costs two cycles (S1, S2) and the response one more;
// the engine takes no other command meanwhile.
HashResponse HashEngineModel::run_multi_lookup(uint64_t address, uint32_t bits) {
  HashResponse r;
  r.status = HashStatus::kMiss;
  r.key = 0;
  int lo = 0;
  int hi = static_cast<int>(bits);
  uint32_t probes = 0;
  while (lo <= hi) {
    const int mid = (lo + hi) / 2;
    const uint64_t key = probe_key(address, bits, static_cast<uint32_t>(mid));
    const uint32_t bucket = bucket_of(key);
    const Probe p = probe(bucket, key);
    ++probes;
    if (!p.hit) {
      hi = mid - 1;
      continue;
    }
    const Slot& s = slot(bucket, p.hit_way);
    r.key = key;
    r.value = s.value;
    r.way = p.hit_way;
    if (is_leaf(s.value)) {
      r.status = HashStatus::kHit;
      break;
    }
    r.status = HashStatus::kInternal;
    lo = mid + 1;
  }
  r.probes = probes;
  r.latency_cycles = kCyclesPerProbe * probes + 1;
  r.issue_cycles = r.latency_cycles;
  return r;
}

HashStatus HashEngineModel::find(uint64_t key, NodeValue& value) {
  HashCommand c;
  c.op = static_cast<uint8_t>(HashOp::kFind);
  c.key = key;
  const HashResponse r = execute(c);
  if (r.status == HashStatus::kHit) value = r.value;
  return r.status;
}

HashStatus HashEngineModel::insert(uint64_t key, const NodeValue& value) {
  HashCommand c;
  c.op = static_cast<uint8_t>(HashOp::kInsert);
  c.key = key;
  c.value = value;
  return execute(c).status;
}

HashStatus HashEngineModel::update(uint64_t key, const NodeValue& value) {
  HashCommand c;
  c.op = static_cast<uint8_t>(HashOp::kUpdate);
  c.key = key;
  c.value = value;
  return execute(c).status;
}

HashStatus HashEngineModel::erase(uint64_t key) {
  HashCommand c;
  c.op = static_cast<uint8_t>(HashOp::kDelete);
  c.key = key;
  return execute(c).status;
}

void HashEngineModel::clear() {
  HashCommand c;
  c.op = static_cast<uint8_t>(HashOp::kClear);
  execute(c);
}

HashResponse HashEngineModel::multi_lookup(uint64_t address, uint32_t bits) {
  HashCommand c;
  c.op = static_cast<uint8_t>(HashOp::kMultiLookup);
  c.key = address;
  c.bits = bits;
  return execute(c);
}

uint32_t HashEngineModel::bucket_load(uint64_t key) const {
  const uint32_t bucket = bucket_of(key);
  uint32_t n = 0;
  for (uint32_t w = 0; w < m_config.ways; ++w) n += slot(bucket, w).valid ? 1 : 0;
  return n;
}

uint64_t HashEngineModel::memory_bytes(uint32_t node_bytes) const {
  return m_slots.size() * uint64_t{node_bytes} + (m_slots.size() + 7) / 8;
}

bool HashEngineModel::peek(uint64_t key, NodeValue& value) const {
  const uint32_t bucket = bucket_of(key);
  const Probe p = probe(bucket, key);
  if (p.hit) value = slot(bucket, p.hit_way).value;
  return p.hit;
}

void HashEngineModel::for_each(const std::function<void(uint64_t, const NodeValue&)>& visit) const {
  for (const Slot& s : m_slots) {
    if (s.valid) visit(s.key, s.value);
  }
}

}  // namespace ssd::rtl
