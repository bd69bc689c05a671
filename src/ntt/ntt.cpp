#include "ntt/ntt.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "ff/fp52x8.hpp"
#include "ntt/butterfly_ifma.hpp"
#include "util/error.hpp"
#include "util/plural.hpp"

namespace cuzk {

namespace {

void check_size(const Domain& d, std::span<Fr> data, const char* fn) {
  if (data.size() != d.size())
    throw Error(ErrorCode::kInvalidArgument, std::string(fn) + ": data has " +
                                                 counted(data.size(), "element") + ", the domain " +
                                                 std::to_string(d.size()));
}

uint64_t bit_reverse(uint64_t x, int bits) {
  x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
  x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
  x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
  x = ((x >> 8) & 0x00FF00FF00FF00FFULL) | ((x & 0x00FF00FF00FF00FFULL) << 8);
  x = ((x >> 16) & 0x0000FFFF0000FFFFULL) | ((x & 0x0000FFFF0000FFFFULL) << 16);
  x = (x >> 32) | (x << 32);
  return x >> (64 - bits);
}

void bit_reverse_permute(Fr* a, int log_n, ThreadPool& pool) {
  const size_t n = size_t{1} << log_n;
  pool.parallel_for(n, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; i++) {
      size_t j = bit_reverse(i, log_n);
      if (i < j) std::swap(a[i], a[j]);
    }
  });
}

// Radix-2 DIT butterfly: (u, v) ← (u + w·v, u − w·v).
inline void butterfly(Fr& u, Fr& v, const Fr& w) {
  Fr t = v * w;
  v = u - t;
  u = u + t;
}

// Stages with half-size 1 .. B/2 on one block of B = 2^lb elements; tw[j] = ω_B^j for j < B/2 (tw8: the
// same in the vector butterflies' form, or null for scalar code only).
void local_stages(Fr* a, int lb, const Fr* tw, const Fr* tw8) {
  const size_t B = size_t{1} << lb;
  int s0 = 1;
  if (tw8 && lb >= 6) {  // half-sizes 1, 2, 4 in lanes; tw8[j·B/8] = ω_8^j
    const Fr w8[4] = {tw8[0], tw8[B / 8], tw8[2 * B / 8], tw8[3 * B / 8]};
    ntt_detail::first_stages_x8(a, B, w8);
    s0 = 3;
  }
  for (size_t i = 0; s0 == 1 && i < B; i += 2) {  // m = 1: twiddle 1
    Fr u = a[i], v = a[i + 1];
    a[i] = u + v;
    a[i + 1] = u - v;
  }
  for (int s = s0; s < lb; s++) {
    const size_t m = size_t{1} << s;
    const size_t stride = size_t{1} << (lb - 1 - s);  // ω_{2m}^j = ω_B^(j·B/(2m))
    if (tw8 && m >= 8) {
      for (size_t k = 0; k < B; k += 2 * m) ntt_detail::butterflies_x8(a + k, m, 0, m, tw8, stride);
      continue;
    }
    for (size_t k = 0; k < B; k += 2 * m) {
      Fr* x = a + k;
      Fr u = x[0], v = x[m];
      x[0] = u + v;
      x[m] = u - v;
      for (size_t j = 1; j < m; j++) butterfly(x[j], x[j + m], tw[j * stride]);
    }
  }
}

// The forward transform on bit-reversed input, natural-order output.
void dit(const Domain& d, Fr* a, ThreadPool& pool) {
  const int log_n = d.log_n();
  const size_t n = d.size();
  const Fr* tw = d.twiddles().data();
  const int lb = std::min(log_n, Domain::kLocalLog);
  const size_t B = size_t{1} << lb;
  const Fr* ltw = d.local_twiddles().data();
  const Fr* ltw8 = d.simd() ? d.local_twiddles_x8().data() : nullptr;
  const Fr* tw8 = d.simd() ? d.twiddles_x8().data() : nullptr;
  pool.parallel_for(
      n / B,
      [&](size_t b, size_t e) {
        for (size_t blk = b; blk < e; blk++) local_stages(a + blk * B, lb, ltw, ltw8);
      },
      1);
  for (int s = lb; s < log_n; s++) {
    const size_t m = size_t{1} << s;
    const size_t stride = n >> (s + 1);
    // butterfly t: block t >> s, offset j = t & (m − 1); chunks are whole runs of j inside a block
    pool.parallel_for(n / 2, [&](size_t b, size_t e) {
      size_t t = b;
      while (t < e) {
        size_t blk = t >> s, j = t & (m - 1);
        size_t run = std::min(e - t, m - j);
        Fr* x = a + blk * 2 * m;
        size_t jj = j, je = j + run;
        if (tw8) {  // scalar up to a multiple of 8, then vector groups of 8, then the scalar rest
          const size_t vb = std::min(je, (jj + 7) & ~size_t{7}), ve = vb + (je - vb) / 8 * 8;
          for (; jj < vb; jj++) butterfly(x[jj], x[jj + m], tw[jj * stride]);
          ntt_detail::butterflies_x8(x, m, vb, ve, tw8, stride);
          jj = ve;
        }
        for (; jj < je; jj++) butterfly(x[jj], x[jj + m], tw[jj * stride]);
        t += run;
      }
    });
  }
}

// data[k] ← data[k]·c·g^k.
void scale_by_powers(Fr* a, size_t n, const Fr& c, const Fr& g, ThreadPool& pool) {
  pool.parallel_for(n, [&](size_t b, size_t e) {
    uint64_t eb = b;
    Fr p = c * g.pow(&eb, 1);
    for (size_t k = b; k < e; k++) {
      a[k] = a[k] * p;
      p = p * g;
    }
  });
}

}  // namespace

Domain::Domain(int log_n, RootConvention conv, bool simd) : log_n_(log_n), conv_(conv) {
  if (log_n < 1 || log_n > 28)
    throw Error(ErrorCode::kInvalidArgument, "Domain: log_n must be in 1..28, got " + std::to_string(log_n));
  omega_ = root_of_unity(log_n, conv);
  omega_inv_ = omega_.inverse();
  n_inv_ = Fr::from_u64(size()).inverse();
  const size_t half = size() / 2;
  tw_.resize(half);
  auto fill = [&](size_t b, size_t e) {
    uint64_t eb = b;
    Fr p = omega_.pow(&eb, 1);
    for (size_t j = b; j < e; j++) {
      tw_[j] = p;
      p = p * omega_;
    }
  };
  if (half < (size_t{1} << 16)) {
    fill(0, half);
  } else {
    ThreadPool pool(0);
    pool.parallel_for(half, fill);
  }
  const int lb = std::min(log_n, kLocalLog);
  local_tw_.resize(size_t{1} << (lb - 1));
  for (size_t j = 0; j < local_tw_.size(); j++) local_tw_[j] = tw_[j << (log_n - lb)];
  if (simd && ifma::cpu_has_ifma() && log_n >= 4) {
    tw_x8_.resize(half);
    auto convert = [&](size_t b, size_t e) {
      for (size_t j = b; j < e; j++) tw_x8_[j] = ntt_detail::to_lane_twiddle(tw_[j]);
    };
    if (half < (size_t{1} << 16)) {
      convert(0, half);
    } else {
      ThreadPool pool(0);
      pool.parallel_for(half, convert);
    }
    local_tw_x8_.resize(local_tw_.size());
    for (size_t j = 0; j < local_tw_.size(); j++) local_tw_x8_[j] = tw_x8_[j << (log_n - lb)];
  }
}

void ntt(const Domain& d, std::span<Fr> data, ThreadPool& pool) {
  check_size(d, data, "ntt");
  bit_reverse_permute(data.data(), d.log_n(), pool);
  dit(d, data.data(), pool);
}

namespace {
// n·INTT(x) = NTT(x') with x'[k] = x[(n − k) mod n]: swap x[i] ↔ x[n − i] for 0 < i < n/2, transform.
void intt_unscaled(const Domain& d, Fr* a, ThreadPool& pool) {
  const size_t n = d.size();
  pool.parallel_for(n / 2, [&](size_t b, size_t e) {
    for (size_t i = std::max<size_t>(b, 1); i < e; i++) std::swap(a[i], a[n - i]);
  });
  bit_reverse_permute(a, d.log_n(), pool);
  dit(d, a, pool);
}
}  // namespace

void intt(const Domain& d, std::span<Fr> data, ThreadPool& pool) {
  check_size(d, data, "intt");
  intt_unscaled(d, data.data(), pool);
  const Fr ni = d.n_inv();
  pool.parallel_for(data.size(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; i++) data[i] = data[i] * ni;
  });
}

void coset_ntt(const Domain& d, std::span<Fr> data, const Fr& shift, ThreadPool& pool) {
  check_size(d, data, "coset_ntt");
  scale_by_powers(data.data(), data.size(), Fr::one(), shift, pool);
  ntt(d, data, pool);
}

void coset_intt(const Domain& d, std::span<Fr> data, const Fr& shift, ThreadPool& pool) {
  check_size(d, data, "coset_intt");
  if (shift.is_zero()) throw Error(ErrorCode::kInvalidArgument, "coset_intt: shift must be non-zero");
  intt_unscaled(d, data.data(), pool);
  scale_by_powers(data.data(), data.size(), d.n_inv(), shift.inverse(), pool);
}

BigVector<Fr> coset_factors(const Domain& d, const Fr& shift, ThreadPool& pool) {
  BigVector<Fr> f(d.size());
  // c·shift^k with c = n⁻¹, or n⁻¹·2^4 (its lane form) for the vector code
  const Fr c = d.simd() ? ntt_detail::to_lane_twiddle(d.n_inv()) : d.n_inv();
  pool.parallel_for(f.size(), [&](size_t b, size_t e) {
    uint64_t eb = b;
    Fr p = c * shift.pow(&eb, 1);
    for (size_t k = b; k < e; k++) {
      f[k] = p;
      p = p * shift;
    }
  });
  return f;
}

void values_to_coset(const Domain& d, std::span<Fr> data, std::span<const Fr> factors, ThreadPool& pool) {
  check_size(d, data, "values_to_coset");
  if (factors.size() != d.size())
    throw Error(ErrorCode::kInvalidArgument, "values_to_coset: " + std::to_string(factors.size()) +
                                                 " factors for a domain of " + std::to_string(d.size()));
  intt_unscaled(d, data.data(), pool);
  pool.parallel_for(data.size() / 8, [&](size_t b, size_t e) {
    if (d.simd()) {
      ntt_detail::scale_x8(data.data() + 8 * b, factors.data() + 8 * b, 8 * (e - b));
    } else {
      for (size_t i = 8 * b; i < 8 * e; i++) data[i] = data[i] * factors[i];
    }
  });
  for (size_t i = data.size() / 8 * 8; i < data.size(); i++) data[i] = data[i] * factors[i];  // n < 8
  ntt(d, data, pool);
}

void mul_sub_pointwise(const Domain& d, std::span<Fr> out, std::span<const Fr> a, std::span<const Fr> b,
                       std::span<const Fr> c, ThreadPool& pool) {
  const size_t n = out.size();
  if (a.size() != n || b.size() != n || (!c.empty() && c.size() != n))
    throw Error(ErrorCode::kInvalidArgument, "mul_sub_pointwise: spans of different lengths");
  const Fr* cp = c.empty() ? nullptr : c.data();
  pool.parallel_for(n / 8, [&](size_t lo, size_t hi) {
    if (d.simd()) {
      ntt_detail::mul_sub_x8(out.data() + 8 * lo, a.data() + 8 * lo, b.data() + 8 * lo,
                             cp ? cp + 8 * lo : nullptr, 8 * (hi - lo));
    } else {
      for (size_t i = 8 * lo; i < 8 * hi; i++) out[i] = cp ? a[i] * b[i] - cp[i] : a[i] * b[i];
    }
  });
  for (size_t i = n / 8 * 8; i < n; i++) out[i] = cp ? a[i] * b[i] - cp[i] : a[i] * b[i];
}

Fr coset_shift_snarkjs(int log_n) {
  if (log_n < 0 || log_n > 31)
    throw Error(ErrorCode::kInvalidArgument, "coset_shift_snarkjs: log_n must be in 0..31");
  return root_of_unity(log_n + 1, RootConvention::kSnarkjs5);
}

}  // namespace cuzk
