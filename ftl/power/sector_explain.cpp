#include "ftl/power/sector_explain.h"

#include <algorithm>

namespace ssd::ftl {

namespace {

// More tries than a test or a soak writes between flushes ever needs; beyond them the unit is
// reported undecided (as lost: the check must not pass what it could not verify).
constexpr uint64_t kMaxTries = uint64_t{1} << 22;

bool search(const std::vector<std::vector<Token>>& options, const std::vector<uint32_t>& open,
            size_t next, Token sum, Token target, std::vector<Token>& choice, uint64_t& tries) {
  if (next == open.size()) return sum == target;
  if (++tries > kMaxTries) return false;
  const uint32_t s = open[next];
  for (const Token value : options[s]) {
    choice[s] = value;
    if (search(options, open, next + 1, sum + value, target, choice, tries)) return true;
  }
  return false;
}

}  // namespace

bool UnitSectorsSince::allowed(uint32_t sector, Token token) const {
  const std::vector<Token>& since = given[sector];
  return token == durable[sector] || std::find(since.begin(), since.end(), token) != since.end();
}

SectorExplanation explain_unit_sectors(const UnitSectorsSince& unit, Token got,
                                       const std::function<SectorRead(uint32_t)>& read_alone) {
  const auto spu = static_cast<uint32_t>(unit.durable.size());
  SectorExplanation e;
  e.values.assign(spu, 0);
  e.exact.assign(spu, false);
  e.rest = got;
  bool exact_allowed = true;
  for (uint32_t s = 0; s < spu; ++s) {
    const SectorRead one = read_alone(s);
    if (!one.by_sector) continue;  // from the scheme's copy
    e.exact[s] = true;
    e.values[s] = one.token;
    e.rest -= one.token;
    if (exact_allowed && !unit.allowed(s, one.token)) {
      exact_allowed = false;
      e.why = "sector " + std::to_string(s) + " holds a value never allowed";
    }
  }
  if (!exact_allowed) return e;
  // The unit's states since its durable point, on the sectors not read exactly.
  std::vector<Token> state = unit.durable;
  const auto matches = [&] {
    Token sum = 0;
    for (uint32_t s = 0; s < spu; ++s) sum += e.exact[s] ? 0 : state[s];
    return sum == e.rest;
  };
  bool found = matches();
  for (size_t i = 0; !found && i < unit.history.size(); ++i) {
    state[unit.history[i].sector] = unit.history[i].token;
    found = matches();
  }
  if (found) {
    for (uint32_t s = 0; s < spu; ++s) {
      if (!e.exact[s]) e.values[s] = state[s];
    }
    e.explained = true;
    return e;
  }
  // Every choice of allowed values, the latest first.
  std::vector<std::vector<Token>> options(spu);
  std::vector<uint32_t> open;
  std::vector<Token> choice = e.values;
  Token fixed = 0;
  for (uint32_t s = 0; s < spu; ++s) {
    if (e.exact[s]) continue;
    options[s].assign(unit.given[s].rbegin(), unit.given[s].rend());
    options[s].push_back(unit.durable[s]);
    if (options[s].size() == 1) {
      choice[s] = options[s][0];
      fixed += choice[s];
    } else {
      open.push_back(s);
    }
  }
  uint64_t tries = 0;
  if (search(options, open, 0, fixed, e.rest, choice, tries)) {
    e.values = choice;
    e.explained = true;
    return e;
  }
  e.why = tries > kMaxTries
              ? "undecided: too many choices (" + std::to_string(open.size()) + " sectors open)"
              : "no choice of allowed values gives it";
  return e;
}

}  // namespace ssd::ftl
