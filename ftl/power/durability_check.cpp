#include "ftl/power/durability_check.h"

#include <algorithm>
#include <utility>

namespace ssd::ftl {

DurabilityCheck::DurabilityCheck(std::vector<Token> values)
    : m_durable(std::move(values)), m_trimmed(m_durable.size(), false) {}

void DurabilityCheck::acknowledged(uint64_t marker) { make_durable_before(marker); }

void DurabilityCheck::acknowledged(ChangeSpan changes) {
  const uint64_t first = std::max(changes.first, m_base);
  if (changes.end <= first) return;  // a flush already covered it
  const auto at =
      std::lower_bound(m_fua_durable.begin(), m_fua_durable.end(), first,
                       [](const ChangeSpan& span, uint64_t marker) { return span.first < marker; });
  m_fua_durable.insert(at, ChangeSpan{first, changes.end});
  // At the front (nothing unacknowledged before it), it is as a flush up to its end would be.
  if (first == m_base) make_durable_before(m_base);
}

void DurabilityCheck::make_durable_before(uint64_t marker) {
  advance_to(marker);
  // The FUA spans the flush covered are done with; one that now starts at the front joins it.
  size_t taken = 0;
  while (taken < m_fua_durable.size() && m_fua_durable[taken].first <= m_base) {
    advance_to(m_fua_durable[taken].end);
    ++taken;
  }
  m_fua_durable.erase(m_fua_durable.begin(),
                      m_fua_durable.begin() + static_cast<std::ptrdiff_t>(taken));
}

void DurabilityCheck::advance_to(uint64_t marker) {
  if (marker <= m_base) return;  // an earlier flush already covered it
  const size_t count = std::min<uint64_t>(marker - m_base, m_since.size());
  for (size_t i = 0; i < count; ++i) {
    const Change& change = m_since[i];
    m_durable[change.cell] = change.token;
    m_trimmed[change.cell] = change.token == 0;
  }
  m_since.erase(m_since.begin(), m_since.begin() + static_cast<std::ptrdiff_t>(count));
  m_base += count;
}

std::vector<DurabilityCheck::Given> DurabilityCheck::given_since(uint64_t group) const {
  std::vector<Given> since;
  since.reserve(m_since.size());
  auto span = m_fua_durable.begin();
  for (size_t i = 0; i < m_since.size(); ++i) {
    const uint64_t marker = m_base + i;
    while (span != m_fua_durable.end() && span->end <= marker) ++span;
    const bool durable = span != m_fua_durable.end() && span->first <= marker;
    since.push_back({m_since[i].cell, m_since[i].token, durable});
  }
  std::stable_sort(since.begin(), since.end(), [group](const Given& a, const Given& b) {
    return a.cell / group < b.cell / group;
  });
  return since;
}

void DurabilityCheck::restart() {
  m_base += m_since.size();
  m_since.clear();
  m_fua_durable.clear();
}

DurabilityCheck::Verdict DurabilityCheck::check_and_restart(const std::vector<Token>& read_back,
                                                            const std::vector<Token>& latest) {
  const std::vector<Given> since = given_since(1);
  Verdict verdict;
  auto next = since.begin();
  for (Lun lun = 0; lun < read_back.size(); ++lun) {
    while (next != since.end() && next->cell < lun) ++next;
    auto end = next;
    while (end != since.end() && end->cell == lun) ++end;
    // The unit's durable value: the flush's, or the latest a FUA write made durable since; only
    // what was given after it may be rolled back to.
    Token durable = m_durable[lun];
    bool durably_trimmed = m_trimmed[lun];
    auto after_durable = next;
    for (auto it = next; it != end; ++it) {
      if (!it->fua_durable) continue;
      durable = it->token;
      durably_trimmed = it->token == 0;
      after_durable = it + 1;
    }
    const Token got = read_back[lun];
    ++verdict.units;
    bool given_since = false;
    bool trimmed_since = false;
    for (auto it = after_durable; it != end; ++it) {
      given_since = given_since || it->token == got;
      trimmed_since = trimmed_since || it->token == 0;
    }
    next = end;
    if (got == latest[lun]) {
      ++verdict.current;
    } else if (got == durable || given_since) {
      ++verdict.rolled_back;
    } else if (durably_trimmed || trimmed_since) {
      ++verdict.trimmed_resurrected;
    } else {
      if (verdict.lost_durable == 0) {
        verdict.first_loss = "unit " + std::to_string(lun) + " read back token " +
                             std::to_string(got) + "; durable token " + std::to_string(durable) +
                             ", latest " + std::to_string(latest[lun]);
      }
      ++verdict.lost_durable;
    }
  }
  // What the device holds now is what survives the next cut, if nothing is written meanwhile.
  for (Lun lun = 0; lun < read_back.size(); ++lun) {
    if (read_back[lun] != 0) m_trimmed[lun] = false;
    m_durable[lun] = read_back[lun];
  }
  restart();
  return verdict;
}

DurabilityCheck::Verdict DurabilityCheck::check_sectors_and_restart(
    uint32_t sectors_per_unit, const std::vector<Token>& read_back,
    const std::function<SectorRead(uint64_t)>& read_alone) {
  const uint32_t spu = sectors_per_unit;
  const std::vector<Given> since = given_since(spu);
  Verdict verdict;
  UnitSectorsSince unit;
  unit.durable.resize(spu);
  unit.given.resize(spu);
  std::vector<Token> latest(spu);
  std::vector<bool> trimmed(spu);  // durably trimmed (as of the sector's durable point)
  std::vector<size_t> after(spu);  // per sector: index in `since` past its durable change
  auto next = since.begin();
  for (Lun lun = 0; lun < read_back.size(); ++lun) {
    const uint64_t first = uint64_t{lun} * spu;
    auto end = next;
    while (end != since.end() && end->cell < first + spu) ++end;
    // Each sector's durable value: the flush's, or the latest a FUA write made durable since.
    for (uint32_t s = 0; s < spu; ++s) {
      unit.durable[s] = latest[s] = m_durable[first + s];
      trimmed[s] = m_trimmed[first + s];
      unit.given[s].clear();
      after[s] = 0;
    }
    for (auto it = next; it != end; ++it) {
      const auto s = static_cast<uint32_t>(it->cell - first);
      latest[s] = it->token;
      if (!it->fua_durable) continue;
      unit.durable[s] = it->token;
      trimmed[s] = it->token == 0;
      after[s] = static_cast<size_t>(it - next) + 1;
    }
    // What was given after it, by sector and in the unit's order.
    unit.history.clear();
    bool trimmed_since = false;
    for (auto it = next; it != end; ++it) {
      const auto s = static_cast<uint32_t>(it->cell - first);
      if (static_cast<size_t>(it - next) < after[s]) continue;
      unit.given[s].push_back(it->token);
      unit.history.push_back({s, it->token});
      trimmed_since = trimmed_since || it->token == 0;
    }
    next = end;
    ++verdict.units;
    const Token got = read_back[lun];
    Token latest_sum = 0;
    Token durable_sum = 0;
    for (uint32_t s = 0; s < spu; ++s) {
      latest_sum += latest[s];
      durable_sum += unit.durable[s];
    }
    std::vector<Token> values;
    if (got == latest_sum) {
      values = latest;  // nothing lost (the usual case: no sector need be read alone)
    } else if (got == durable_sum) {
      values = unit.durable;
    } else {
      SectorExplanation e =
          explain_unit_sectors(unit, got, [&](uint32_t s) { return read_alone(first + s); });
      const bool all_trimmed =
          std::all_of(trimmed.begin(), trimmed.end(), [](bool t) { return t; });
      if (e.explained) {
        values = std::move(e.values);
      } else {
        const bool resurrected = all_trimmed || trimmed_since;
        if (resurrected) {
          // A trimmed page's old copy came back: its sectors' values are unknowable from its sum.
          ++verdict.trimmed_resurrected;
        } else {
          if (verdict.lost_durable == 0) {
            verdict.first_loss = "unit " + std::to_string(lun) + " read back token " +
                                 std::to_string(got) + ", latest " + std::to_string(latest_sum) +
                                 ": " + e.why;
          }
          ++verdict.lost_durable;
        }
        // The device holds what it read from now on: the sectors read exactly, and the rest of
        // the sum on the first other sector.
        const auto other = std::find(e.exact.begin(), e.exact.end(), false);
        if (other != e.exact.end()) e.values[static_cast<size_t>(other - e.exact.begin())] = e.rest;
        for (uint32_t s = 0; s < spu; ++s) {
          m_durable[first + s] = e.values[s];
          m_trimmed[first + s] = false;
        }
        continue;
      }
    }
    ++(values == latest ? verdict.current : verdict.rolled_back);
    // What the device holds now is what survives the next cut, if nothing is written meanwhile;
    // a sector still reading 0 after a trim keeps its old copies' chance to come back.
    for (uint32_t s = 0; s < spu; ++s) {
      m_trimmed[first + s] = values[s] == 0 && (trimmed[s] || trimmed_since);
      m_durable[first + s] = values[s];
    }
  }
  restart();
  return verdict;
}

}  // namespace ssd::ftl
