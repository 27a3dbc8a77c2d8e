#include "ftl/power/durability_check.h"

#include <algorithm>
#include <utility>

namespace ssd::ftl {

DurabilityCheck::DurabilityCheck(std::vector<Token> values)
    : m_durable(std::move(values)), m_trimmed(m_durable.size(), false) {}

void DurabilityCheck::acknowledged(uint64_t marker) {
  if (marker <= m_base) return;  // an earlier flush already covered it
  const size_t count = std::min<uint64_t>(marker - m_base, m_since.size());
  for (size_t i = 0; i < count; ++i) {
    const Change& change = m_since[i];
    m_durable[change.lun] = change.token;
    m_trimmed[change.lun] = change.token == 0;
  }
  m_since.erase(m_since.begin(), m_since.begin() + static_cast<std::ptrdiff_t>(count));
  m_base += count;
}

DurabilityCheck::Verdict DurabilityCheck::check_and_restart(const std::vector<Token>& read_back,
                                                            const std::vector<Token>& latest) {
  // The values given since the durable point, by unit.
  std::vector<Change> since = m_since;
  std::stable_sort(since.begin(), since.end(),
                   [](const Change& a, const Change& b) { return a.lun < b.lun; });
  Verdict verdict;
  auto next = since.begin();
  for (Lun lun = 0; lun < read_back.size(); ++lun) {
    while (next != since.end() && next->lun < lun) ++next;
    auto end = next;
    while (end != since.end() && end->lun == lun) ++end;
    const Token got = read_back[lun];
    ++verdict.units;
    bool given_since = false;
    bool trimmed_since = false;
    for (auto it = next; it != end; ++it) {
      given_since = given_since || it->token == got;
      trimmed_since = trimmed_since || it->token == 0;
    }
    next = end;
    if (got == latest[lun]) {
      ++verdict.current;
    } else if (got == m_durable[lun] || given_since) {
      ++verdict.rolled_back;
    } else if (m_trimmed[lun] || trimmed_since) {
      ++verdict.trimmed_resurrected;
    } else {
      if (verdict.lost_durable == 0) {
        verdict.first_loss = "unit " + std::to_string(lun) + " read back token " +
                             std::to_string(got) + "; durable token " +
                             std::to_string(m_durable[lun]) + ", latest " +
                             std::to_string(latest[lun]);
      }
      ++verdict.lost_durable;
    }
  }
  // What the device holds now is what survives the next cut, if nothing is written meanwhile.
  for (Lun lun = 0; lun < read_back.size(); ++lun) {
    if (read_back[lun] != 0) m_trimmed[lun] = false;
    m_durable[lun] = read_back[lun];
  }
  m_base += m_since.size();
  m_since.clear();
  return verdict;
}

}  // namespace ssd::ftl
