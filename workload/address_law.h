// Where a random request goes among n positions of the span (workload.address_distribution):
// uniform, or skewed as fio's random_distribution skews it (docs/clients.md):
// - zipf (theta > 0, not 1): the position of rank k (1-based) has probability proportional to
//   1 / k^theta, drawn by Gray et al.'s method ("Quickly generating billion-record synthetic
//   databases", SIGMOD 1994), the one fio's zipf uses;
// - pareto (0 < h < 1): a fraction h of the requests go to a fraction 1 - h of the positions, at
//   every scale (the rank's share x of n has the distribution function x^p, p = ln h / ln(1 - h));
// - normal (deviation > 0, in per cent of the span): ranks from the middle of the range, with
//   that standard deviation, redrawn outside it.
// Skewed ranks are scattered over the span by a seeded permutation, as fio scatters them with a
// hash, so that the hot positions are not one contiguous run at the start.
#pragma once

#include <cstdint>
#include <string>

#include "ftl/core/random.h"
#include "ftl/core/random_permutation.h"

namespace ssd::workload {

class AddressLaw {
 public:
  // `law`: "uniform", "zipf", "pareto" or "normal"; `skew`: its parameter (above).
  AddressLaw(const std::string& law, double skew, uint64_t positions, uint64_t seed);

  // A position in [0, positions), drawing from `random`.
  uint64_t draw(ftl::Random& random);

 private:
  enum class Kind { kUniform, kZipf, kPareto, kNormal };
  uint64_t rank(ftl::Random& random);

  Kind m_kind;
  double m_skew;
  uint64_t m_n;
  ftl::RandomPermutation m_scatter;
  // Zipf (Gray et al.): zeta(n, theta), zeta(2, theta), and the method's alpha and eta.
  double m_zeta_n = 0.0, m_zeta_2 = 0.0, m_alpha = 0.0, m_eta = 0.0;
  double m_pareto_inverse = 0.0;  // 1 / p (pareto)
};

}  // namespace ssd::workload
