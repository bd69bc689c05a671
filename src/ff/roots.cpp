#include "ff/roots.hpp"

#include <array>
#include <stdexcept>

#include "ff/bigint.hpp"

namespace cuzk {

Fr root_of_unity(int log_n, RootConvention conv) {
  constexpr int s = FrParams::two_adicity;
  if (log_n < 0 || log_n > s) throw std::out_of_range("root_of_unity: log_n must be in 0..32");
  static const auto table = [] {
    std::array<std::array<Fr, s + 1>, 2> t{};
    auto e = bigint::add_small(bigint::modulus<Fr>(), -1);
    for (int i = 0; i < s; i++) e = bigint::div_small(e, 2);  // (r − 1) / 2^32
    const uint64_t gens[2] = {7, 5};
    for (int c = 0; c < 2; c++) {
      t[c][s] = Fr::from_u64(gens[c]).pow(e.data(), Fr::N);
      for (int k = s; k > 0; k--) t[c][k - 1] = t[c][k].sqr();
    }
    return t;
  }();
  return table[conv == RootConvention::kGenerator7 ? 0 : 1][log_n];
}

}  // namespace cuzk
