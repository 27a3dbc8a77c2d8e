#include "ftl/extent/vet/accelerator_table.h"

#include <stdexcept>
#include <string>

namespace ssd::ftl {

AcceleratorTable::AcceleratorTable(HashEngine& engine, CpuWork& cpu)
    : m_engine(engine), m_cpu(cpu), m_overflow(cpu) {}

HashResponse AcceleratorTable::run(HashOp op, uint64_t key, const NodeValue& value, uint32_t bits) {
  HashCommand command;
  command.op = static_cast<uint8_t>(op);
  command.key = key;
  command.value = value;
  command.bits = bits;
  const HashResponse response = m_engine.execute(command);
  ++m_cpu.accelerator_commands;
  m_cpu.accelerator_cycles += response.latency_cycles;
  return response;
}

bool AcceleratorTable::find(uint64_t key, NodeValue& value) {
  const HashResponse r = run(HashOp::kFind, key);
  if (r.status == HashStatus::kHit) {
    value = r.value;
    return true;
  }
  return m_overflow.size() > 0 && m_overflow.find(key, value);
}

void AcceleratorTable::insert(uint64_t key, const NodeValue& value) {
  const HashResponse r = run(HashOp::kInsert, key, value);
  switch (r.status) {
    case HashStatus::kDone:
      ++m_engine_entries;
      return;
    case HashStatus::kOverflow:
      ++m_overflows;
      m_overflow.insert(key, value);
      return;
    default:
      // kHit: the key was present, which the trie never lets happen; the engine overwrote it.
      throw std::logic_error("accelerator table: inserting a key the engine already holds");
  }
}

bool AcceleratorTable::peek(uint64_t key, NodeValue& value) {
  if (m_engine.peek(key, value)) return true;
  return m_overflow.size() > 0 && m_overflow.find(key, value);
}

void AcceleratorTable::update(uint64_t key, const NodeValue& value) {
  if (run(HashOp::kUpdate, key, value).status == HashStatus::kHit) return;
  m_overflow.update(key, value);  // throws when absent there too
}

bool AcceleratorTable::erase(uint64_t key) {
  if (run(HashOp::kDelete, key).status == HashStatus::kHit) {
    --m_engine_entries;
    return true;
  }
  return m_overflow.size() > 0 && m_overflow.erase(key);
}

uint32_t AcceleratorTable::adjust_count(uint64_t key, int32_t delta) {
  const HashResponse found = run(HashOp::kFind, key);
  if (found.status != HashStatus::kHit) {
    NodeValue ignored;
    if (m_overflow.size() > 0 && m_overflow.find(key, ignored)) {
      return m_overflow.adjust_count(key, delta);
    }
    if (delta <= 0) {
      throw std::logic_error("accelerator table: lowering the count of an absent key");
    }
    insert(key, NodeValue{static_cast<uint32_t>(delta), 0, 0});
    return static_cast<uint32_t>(delta);
  }
  if (found.value.w1 != 0) throw std::logic_error("accelerator table: counting a leaf");
  const int64_t count = int64_t{found.value.w0} + delta;
  if (count < 0) throw std::logic_error("accelerator table: a count below zero");
  if (count == 0) {
    run(HashOp::kDelete, key);
    --m_engine_entries;
    return 0;
  }
  run(HashOp::kUpdate, key, NodeValue{static_cast<uint32_t>(count), 0, 0});
  return static_cast<uint32_t>(count);
}

void AcceleratorTable::clear() {
  run(HashOp::kClear, 0);
  m_engine_entries = 0;
  m_overflow.clear();
}

uint64_t AcceleratorTable::memory_bytes(uint32_t node_bytes) const {
  const HashEngineConfig& c = m_engine.config();
  const uint64_t slots = (uint64_t{1} << c.bucket_bits) * c.ways;
  return slots * kSlotBytes + (slots + 7) / 8 + m_overflow.memory_bytes(node_bytes);
}

void AcceleratorTable::for_each(
    const std::function<void(uint64_t, const NodeValue&)>& visit) const {
  m_engine.for_each(visit);
  m_overflow.for_each(visit);
}

MultiLevelAnswer AcceleratorTable::multi_level_lookup(uint64_t address, uint32_t bits) {
  const HashResponse r = run(HashOp::kMultiLookup, address, NodeValue{}, bits);
  MultiLevelAnswer answer;
  if (r.status == HashStatus::kHit) {
    answer.outcome = MultiLevelAnswer::kLeaf;
    answer.key = r.key;
    answer.value = r.value;
  } else {
    answer.outcome =
        m_overflow.size() == 0 ? MultiLevelAnswer::kNoLeaf : MultiLevelAnswer::kUnknown;
  }
  return answer;
}

}  // namespace ssd::ftl
