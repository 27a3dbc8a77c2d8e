#include "workload/address_law.h"

#include <algorithm>
#include <cmath>

namespace ssd::workload {

namespace {

// zeta(n, theta) = sum of 1 / i^theta for i = 1..n: summed term by term up to ten million (what
// fio sums too), the rest by the integral of x^-theta, which differs from the sum's tail by less
// than its first term (about 1e-7 of the total at theta near 1).
double zeta(uint64_t n, double theta) {
  constexpr uint64_t kSummed = 10'000'000;
  double sum = 0.0;
  const uint64_t summed = std::min(n, kSummed);
  for (uint64_t i = 1; i <= summed; ++i) sum += std::pow(double(i), -theta);
  if (n > summed) {
    const double a = double(summed) + 0.5;
    const double b = double(n) + 0.5;
    sum += (std::pow(b, 1.0 - theta) - std::pow(a, 1.0 - theta)) / (1.0 - theta);
  }
  return sum;
}

}  // namespace

AddressLaw::AddressLaw(const std::string& law, double skew, uint64_t positions, uint64_t seed)
    : m_kind(law == "zipf"     ? Kind::kZipf
             : law == "pareto" ? Kind::kPareto
             : law == "normal" ? Kind::kNormal
                               : Kind::kUniform),
      m_skew(skew),
      m_n(std::max<uint64_t>(positions, 1)),
      m_scatter(m_n, seed ^ 0x5ca77e4ull) {
  if (m_kind == Kind::kZipf) {
    m_zeta_n = zeta(m_n, skew);
    m_zeta_2 = zeta(2, skew);
    m_alpha = 1.0 / (1.0 - skew);
    m_eta = (1.0 - std::pow(2.0 / double(m_n), 1.0 - skew)) / (1.0 - m_zeta_2 / m_zeta_n);
  } else if (m_kind == Kind::kPareto) {
    m_pareto_inverse = std::log(1.0 - skew) / std::log(skew);
  }
}

uint64_t AddressLaw::rank(ftl::Random& random) {
  switch (m_kind) {
    case Kind::kZipf: {
      const double u = random.unit();
      const double uz = u * m_zeta_n;
      if (uz < 1.0) return 0;
      if (uz < 1.0 + std::pow(0.5, m_skew)) return std::min<uint64_t>(1, m_n - 1);
      const double k = double(m_n) * std::pow(m_eta * u - m_eta + 1.0, m_alpha);
      return std::min<uint64_t>(static_cast<uint64_t>(k), m_n - 1);
    }
    case Kind::kPareto: {
      const double x = std::pow(random.unit(), m_pareto_inverse);  // share of n, hot near 0
      return std::min<uint64_t>(static_cast<uint64_t>(x * double(m_n)), m_n - 1);
    }
    case Kind::kNormal: {
      const double deviation = m_skew / 100.0 * double(m_n);
      for (;;) {  // Box-Muller; a draw outside the range is drawn again
        const double u1 = 1.0 - random.unit();  // in (0, 1]: its logarithm is finite
        const double u2 = random.unit();
        const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
        const double at = double(m_n) / 2.0 + z * deviation;
        if (at >= 0.0 && at < double(m_n)) return static_cast<uint64_t>(at);
      }
    }
    case Kind::kUniform:
      break;
  }
  return random.below(m_n);
}

uint64_t AddressLaw::draw(ftl::Random& random) {
  const uint64_t k = rank(random);
  return m_kind == Kind::kUniform ? k : m_scatter.at(k);
}

}  // namespace ssd::workload
