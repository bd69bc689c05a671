// One Montgomery prime-field template for host and device code.
//
// Storage is N little-endian 64-bit limbs holding a·R mod m (R = 2^(64·N)), the same bytes on host and
// device, so arrays of elements can be copied between them unchanged. The host multiplies with 64-bit
// limbs and unsigned __int128 (CIOS, Koç–Acar–Kaliski 1996, "no-carry" variant valid because the top
// limb of both BLS12-381 moduli is below 2^63 − 1); the device views the same limbs as 2N 32-bit words
// and multiplies with PTX carry chains (mad.lo/hi.cc), the shape that maps to Hopper's IMAD pipeline.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/platform.hpp"

// `#pragma unroll` for the device pass only (g++, also as nvcc's host compiler, warns about it), and
// GCC's unroll pragma for the portable host multiplier outside nvcc only (nvcc warns about it).
#if defined(__CUDA_ARCH__)
#define CUZK_MONT_UNROLL _Pragma("unroll")
#else
#define CUZK_MONT_UNROLL
#endif
#if defined(__CUDACC__)
#define CUZK_HOST_UNROLL
#else
#define CUZK_HOST_UNROLL _Pragma("GCC unroll 8")
#endif

#if defined(CUZK_X86_ASM) && !defined(__CUDA_ARCH__)
extern "C" {
/// out = a·b·2^-256 mod m for 4-limb operands < m (BMI2/ADX; src/ff/mont_x86_64.S).
void cuzk_mul_mont_256(uint64_t* out, const uint64_t* a, const uint64_t* b, const uint64_t* m, uint64_t inv);
/// out = a·b·2^-384 mod m for 6-limb operands < m (BMI2/ADX; src/ff/mont_x86_64.S).
void cuzk_mul_mont_384(uint64_t* out, const uint64_t* a, const uint64_t* b, const uint64_t* m, uint64_t inv);
}
#endif

namespace cuzk {

#if defined(CUZK_X86_ASM) && !defined(__CUDA_ARCH__)
/// True when this CPU has the mulx/adcx/adox instructions the assembly multiplier needs.
inline bool cpu_has_adx() {
  static const bool ok = __builtin_cpu_supports("adx") && __builtin_cpu_supports("bmi2");
  return ok;
}
#endif

/// A prime field element in Montgomery form.
///
/// `P` supplies: `N` (64-bit limbs), `mod(i)`, `r2(i)` (R² mod m), `one(i)` (R mod m), `inv`
/// (−m⁻¹ mod 2^64) and `bits`. Values are always fully reduced (< m). All operations are constant
/// shape except `inverse` / `pow` / `sqrt`, which are not constant time (a prover has no secrets in
/// them but r and s, which only enter scalar multiplications).
template <class P>
struct Mont {
  static constexpr int N = P::N;
  static constexpr int kBytes = 8 * N;
  using Params = P;

  uint64_t l[N];

  CUZK_HD static constexpr Mont zero() {
    Mont r{};
    return r;
  }
  CUZK_HD static constexpr Mont one() {
    Mont r{};
    for (int i = 0; i < N; i++) r.l[i] = P::one(i);
    return r;
  }
  /// The modulus m as limbs (not a field element: m ≡ 0).
  CUZK_HD static constexpr Mont modulus_limbs() {
    Mont r{};
    for (int i = 0; i < N; i++) r.l[i] = P::mod(i);
    return r;
  }

  CUZK_HD bool is_zero() const {
    uint64_t a = 0;
    for (int i = 0; i < N; i++) a |= l[i];
    return a == 0;
  }
  CUZK_HD bool is_one() const { return *this == one(); }
  CUZK_HD friend bool operator==(const Mont& a, const Mont& b) {
    uint64_t d = 0;
    for (int i = 0; i < N; i++) d |= a.l[i] ^ b.l[i];
    return d == 0;
  }
  CUZK_HD friend bool operator!=(const Mont& a, const Mont& b) { return !(a == b); }

  // ---- addition ---------------------------------------------------------------------------
  /// a + b mod m. Both moduli leave a spare top bit, so a + b never overflows N limbs. The device
  /// uses the 32-bit carry chains of add_chain.
  CUZK_HD friend Mont operator+(const Mont& a, const Mont& b) {
#ifdef __CUDA_ARCH__
    PtxCarryOps ops;
    return add_chain(a, b, ops);
#else
    Mont t;
    uint64_t c = 0;
    for (int i = 0; i < N; i++) {
      uint64_t s = a.l[i] + c;
      c = s < c;
      t.l[i] = s + b.l[i];
      c += t.l[i] < s;
    }
    return t.reduce_once();
#endif
  }
  /// a − b mod m. The device uses the 32-bit carry chains of sub_chain.
  CUZK_HD friend Mont operator-(const Mont& a, const Mont& b) {
#ifdef __CUDA_ARCH__
    PtxCarryOps ops;
    return sub_chain(a, b, ops);
#else
    Mont t;
    uint64_t borrow = 0;
    for (int i = 0; i < N; i++) {
      uint64_t d = a.l[i] - b.l[i];
      uint64_t b1 = a.l[i] < b.l[i];
      t.l[i] = d - borrow;
      borrow = b1 | (d < borrow);
    }
    // add m back when the subtraction borrowed (mask, no branch)
    uint64_t mask = 0 - borrow, c = 0;
    for (int i = 0; i < N; i++) {
      uint64_t s = t.l[i] + c;
      c = s < c;
      uint64_t add = P::mod(i) & mask;
      t.l[i] = s + add;
      c += t.l[i] < s;
    }
    return t;
#endif
  }
  CUZK_HD Mont operator-() const { return is_zero() ? *this : modulus_limbs() - *this; }
  CUZK_HD Mont dbl() const { return *this + *this; }
  CUZK_HD Mont& operator+=(const Mont& b) { return *this = *this + b; }
  CUZK_HD Mont& operator-=(const Mont& b) { return *this = *this - b; }
  CUZK_HD Mont& operator*=(const Mont& b) { return *this = *this * b; }

  // ---- multiplication ---------------------------------------------------------------------
  /// a · b · R⁻¹ mod m (Montgomery product; with both in Montgomery form, the product's form).
  CUZK_HD friend Mont operator*(const Mont& a, const Mont& b) {
#ifdef __CUDA_ARCH__
    return mul_device(a, b);
#else
    return mul_host(a, b);
#endif
  }
  CUZK_HD Mont sqr() const { return *this * *this; }

  /// Montgomery reduction of a single-width value: a · R⁻¹ (turns Montgomery form into canonical).
  CUZK_HD Mont from_mont_limbs() const {
    Mont one_plain{};
    one_plain.l[0] = 1;
    return *this * one_plain;
  }

  /// a^e for an exponent given as little-endian 64-bit limbs (variable time in e).
  CUZK_HD Mont pow(const uint64_t* e, int nlimbs) const {
    Mont r = one();
    for (int i = nlimbs - 1; i >= 0; i--)
      for (int b = 63; b >= 0; b--) {
        r = r.sqr();
        if ((e[i] >> b) & 1) r = r * *this;
      }
    return r;
  }
  CUZK_HD Mont pow_u64(uint64_t e) const { return pow(&e, 1); }

  /// a⁻¹ by Fermat (a^(m−2)); the inverse of 0 is returned as 0 (callers check is_zero first).
  CUZK_HD Mont inverse() const {
    uint64_t e[N];
    for (int i = 0; i < N; i++) e[i] = P::mod(i);
    e[0] -= 2;  // m is odd and > 2: no borrow
    return pow(e, N);
  }

  /// Legendre symbol: 1 for a non-zero square, −1 for a non-square, 0 for 0.
  CUZK_HD int legendre() const {
    if (is_zero()) return 0;
    uint64_t e[N];
    shr1_mod(e);  // (m−1)/2
    Mont t = pow(e, N);
    return t.is_one() ? 1 : -1;
  }

  /// Sets out = (m − 1) / 2 as limbs.
  CUZK_HD static void shr1_mod(uint64_t* out) {
    for (int i = 0; i < N; i++) {
      uint64_t hi = i + 1 < N ? P::mod(i + 1) : 0;
      out[i] = (P::mod(i) >> 1) | (hi << 63);
    }
  }

  // ---- conversions (canonical integers are little-endian limbs) ------------------------------
  /// Builds an element from a canonical integer (limbs, little-endian); returns false if ≥ m.
  CUZK_HD static bool from_canonical(const uint64_t* in, Mont& out) {
    if (!less_than_mod(in)) return false;
    Mont t;
    for (int i = 0; i < N; i++) t.l[i] = in[i];
    Mont r2;
    for (int i = 0; i < N; i++) r2.l[i] = P::r2(i);
    out = t * r2;
    return true;
  }
  /// The canonical integer value (limbs, little-endian).
  CUZK_HD void to_canonical(uint64_t* out) const {
    Mont t = from_mont_limbs();
    for (int i = 0; i < N; i++) out[i] = t.l[i];
  }
  /// The element whose Montgomery limbs are the canonical integer 2^e mod m (not the Montgomery form of
  /// 2^e): multiplying by it multiplies a value by 2^(e − 64N), which converts between Montgomery radices.
  CUZK_HD static Mont raw_pow2(uint64_t e) {
    Mont r;
    from_u64(2).pow_u64(e).to_canonical(r.l);
    return r;
  }
  /// Small integers (already reduced).
  CUZK_HD static Mont from_u64(uint64_t v) {
    uint64_t t[N] = {};
    t[0] = v;
    Mont r;
    from_canonical(t, r);
    return r;
  }
  /// True if the limbs (little-endian) encode an integer < m.
  CUZK_HD static bool less_than_mod(const uint64_t* in) {
    for (int i = N - 1; i >= 0; i--) {
      if (in[i] < P::mod(i)) return true;
      if (in[i] > P::mod(i)) return false;
    }
    return false;
  }
  /// Lexicographic "largest" test used by compressed encodings: canonical value > (m − 1) / 2.
  CUZK_HD bool is_lexicographically_largest() const {
    uint64_t c[N], h[N];
    to_canonical(c);
    shr1_mod(h);
    for (int i = N - 1; i >= 0; i--) {
      if (c[i] > h[i]) return true;
      if (c[i] < h[i]) return false;
    }
    return false;
  }

 private:
  CUZK_HD Mont reduce_once() const {
    Mont t;
    uint64_t borrow = 0;
    for (int i = 0; i < N; i++) {
      uint64_t d = l[i] - P::mod(i);
      uint64_t b1 = l[i] < P::mod(i);
      t.l[i] = d - borrow;
      borrow = b1 | (d < borrow);
    }
    return borrow ? *this : t;
  }

#ifndef __CUDA_ARCH__
  // CIOS with the two inner loops fused ("no-carry" form, valid because the modulus's top limb is
  // below 2^63 − 1: the running value then never needs an (N+1)-th limb).
  static Mont mul_host(const Mont& a, const Mont& b) {
#if defined(CUZK_X86_ASM)
    if constexpr (N == 4 || N == 6) {
      static constexpr auto kMod = [] {
        struct {
          uint64_t v[N];
        } m{};
        for (int i = 0; i < N; i++) m.v[i] = P::mod(i);
        return m;
      }();
      if (cpu_has_adx()) {
        Mont r;
        if constexpr (N == 4)
          cuzk_mul_mont_256(r.l, a.l, b.l, kMod.v, P::inv);
        else
          cuzk_mul_mont_384(r.l, a.l, b.l, kMod.v, P::inv);
        return r;
      }
    }
#endif
    return mul_portable(a, b);
  }

 public:
  /// The portable host multiplier (used when the CPU lacks BMI2/ADX); public so tests can compare it
  /// with the assembly one on machines that have both.
  static Mont mul_portable(const Mont& a, const Mont& b) {
    using u128 = unsigned __int128;
    uint64_t t[N] = {};
    CUZK_HOST_UNROLL
    for (int i = 0; i < N; i++) {
      u128 s = (u128)a.l[0] * b.l[i] + t[0];
      uint64_t A = (uint64_t)(s >> 64);
      uint64_t t0 = (uint64_t)s;
      uint64_t m = t0 * P::inv;
      s = (u128)m * P::mod(0) + t0;
      uint64_t C = (uint64_t)(s >> 64);
      CUZK_HOST_UNROLL
      for (int j = 1; j < N; j++) {
        s = (u128)a.l[j] * b.l[i] + t[j] + A;
        A = (uint64_t)(s >> 64);
        s = (u128)m * P::mod(j) + (uint64_t)s + C;
        C = (uint64_t)(s >> 64);
        t[j - 1] = (uint64_t)s;
      }
      t[N - 1] = C + A;
    }
    Mont r;
    for (int i = 0; i < N; i++) r.l[i] = t[i];
    return r.reduce_once();
  }
#else

 public:
  /// The PTX extended-precision primitives mul_evenodd is written in, one instruction each. The carry
  /// flag CC.CF lives between consecutive volatile asm statements; ptxas maps it to a predicate.
  struct PtxCarryOps {
#define CUZK_PTX_OP3(name, ins)                                                  \
  __device__ __forceinline__ uint32_t name(uint32_t a, uint32_t b, uint32_t c) { \
    uint32_t d;                                                                  \
    asm volatile(ins " %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));     \
    return d;                                                                    \
  }
#define CUZK_PTX_OP2(name, ins)                                      \
  __device__ __forceinline__ uint32_t name(uint32_t a, uint32_t b) { \
    uint32_t d;                                                      \
    asm volatile(ins " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));     \
    return d;                                                        \
  }
    CUZK_PTX_OP3(mad_lo_cc, "mad.lo.cc.u32")
    CUZK_PTX_OP3(madc_lo_cc, "madc.lo.cc.u32")
    CUZK_PTX_OP3(madc_hi_cc, "madc.hi.cc.u32")
    CUZK_PTX_OP2(add_cc, "add.cc.u32")
    CUZK_PTX_OP2(addc_cc, "addc.cc.u32")
    CUZK_PTX_OP2(addc, "addc.u32")
    CUZK_PTX_OP2(sub_cc, "sub.cc.u32")
    CUZK_PTX_OP2(subc_cc, "subc.cc.u32")
    CUZK_PTX_OP2(subc, "subc.u32")
#undef CUZK_PTX_OP3
#undef CUZK_PTX_OP2
  };

 private:
  __device__ static Mont mul_device(const Mont& a, const Mont& b) {
    PtxCarryOps ops;
    return mul_evenodd<false>(a, b, ops);
  }
#endif

 public:
  /// The j-th 32-bit word of the modulus (little-endian).
  CUZK_HD static constexpr uint32_t mod_word(int j) { return (uint32_t)(P::mod(j / 2) >> (32 * (j & 1))); }

  /// Montgomery product a·b·R⁻¹ mod m on 32-bit words with even/odd accumulators: the device
  /// multiplier (`Ops` = PTX carry chains), also instantiated on the host with an emulated carry flag
  /// so that the exact instruction sequence is tested without a GPU. `Ops` supplies mad_lo_cc,
  /// madc_lo_cc, madc_hi_cc, add_cc, addc_cc, addc, sub_cc, subc_cc and subc with PTX semantics.
  ///
  /// Algorithm: CIOS (Koç–Acar–Kaliski 1996) with the running value kept as V = E + O·2^32. The
  /// products a_j·b_i with j even land, low and high halves, on consecutive words of E without
  /// overlap, and those with j odd on consecutive words of O, so each row is two unbroken chains of
  /// adjacent (lo, hi) pairs (the even/odd split of Emmart, Zheng and Weems, "Faster modular
  /// exponentiation using double precision floating point arithmetic on the GPU", ARITH 2018). The
  /// division by 2^32 ending a round swaps the roles of E and O: the new E is O plus the single word
  /// E_1, whose carry is left pending and enters the next row's O chain as its carry-in. When the
  /// modulus's lowest 32-bit word is 1 (Fr), −m⁻¹ ≡ −1 mod 2^32 and m·m_0 = m, which removes the three
  /// multiplications per round that involve m_0; when its second word is 2^32 − 1 as well (Fr again),
  /// m·m_1 = (m − [m ≠ 0])·2^32 + (−m mod 2^32) needs none either (5 of 33 per round saved). The
  /// "no-carry" bound (top word of m below 2^31 − 1) keeps V < 2m < 2^(64N). Inputs < m; output < m
  /// (one conditional subtraction).
  ///
  /// kReduce = false skips that subtraction, for lazily reduced chains (Fr's NTT): with one input below
  /// m, the other below 2m and 2m < R = 2^(64N) (kLazyRoom; Fr: 2r ≈ 0.91·2^256), V < a·b/R + m <
  /// (2m/R + 1)·m < 2m, so the output is a·b·R⁻¹ mod m plus 0 or m, in [0, 2m). (Both inputs below 2m
  /// would not do for Fr: 4r²/R + r ≈ 2.8r overflows the 2N words.)
  ///
  /// kShapeTricks enables the Fr-shape savings above. Measured on an H200 (sm_90, CUDA 13.0): alone
  /// they win slightly (5.4 against 5.2·10^10 Fr mul/s); operator* uses the plain form, the benchmark
  /// compares both (MulVariant::kEvenOddShape). The NTT's pass kernel uses them together with kReduce =
  /// false (cuda/ntt_pass.cuh PassArith; docs/PERFORMANCE.md §19: an earlier NTT, 2^27 forward 76 ms,
  /// was slower with them, today's is not).
  template <bool kShapeTricks = false, bool kReduce = true, class Ops>
  CUZK_HD static Mont mul_evenodd(const Mont& a, const Mont& b, Ops& op) {
    static_assert(kReduce || kLazyRoom, "lazy reduction needs 2m < 2^(64N)");
    constexpr int n = 2 * N;
    constexpr bool kLowWordOne = kShapeTricks && mod_word(0) == 1u;
    constexpr bool kSecondWordOnes = kLowWordOne && mod_word(1) == 0xffffffffu;
    uint32_t A[n], B[n], E[n + 1], O[n + 1];
    CUZK_MONT_UNROLL
    for (int i = 0; i < N; i++) {
      A[2 * i] = (uint32_t)a.l[i];
      A[2 * i + 1] = (uint32_t)(a.l[i] >> 32);
      B[2 * i] = (uint32_t)b.l[i];
      B[2 * i + 1] = (uint32_t)(b.l[i] >> 32);
    }
    CUZK_MONT_UNROLL
    for (int k = 0; k <= n; k++) E[k] = O[k] = 0;
    uint32_t pend = 0;  // carry owed to O[0]
    CUZK_MONT_UNROLL
    for (int i = 0; i < n; i++) {
      const uint32_t bi = B[i];
      // E += Σ_{j even} a_j·b_i·2^(32j)
      E[0] = op.mad_lo_cc(A[0], bi, E[0]);
      E[1] = op.madc_hi_cc(A[0], bi, E[1]);
      CUZK_MONT_UNROLL
      for (int j = 2; j < n; j += 2) {
        E[j] = op.madc_lo_cc(A[j], bi, E[j]);
        E[j + 1] = op.madc_hi_cc(A[j], bi, E[j + 1]);
      }
      E[n] = op.addc(E[n], 0);
      // O += Σ_{j odd} a_j·b_i·2^(32(j−1)) + pend
      op.add_cc(pend, 0xffffffffu);  // CF = pend
      O[0] = op.madc_lo_cc(A[1], bi, O[0]);
      O[1] = op.madc_hi_cc(A[1], bi, O[1]);
      CUZK_MONT_UNROLL
      for (int j = 3; j < n; j += 2) {
        O[j - 1] = op.madc_lo_cc(A[j], bi, O[j - 1]);
        O[j] = op.madc_hi_cc(A[j], bi, O[j]);
      }
      O[n] = op.addc(O[n], 0);
      // V += m·p with V + m·p ≡ 0 mod 2^32 (V mod 2^32 = E_0)
      uint32_t m;
      const uint32_t e0 = E[0];
      if constexpr (kLowWordOne) {
        m = 0u - e0;
        E[0] = op.add_cc(E[0], m);  // 0, carry = (E_0 ≠ 0)
        E[1] = op.addc_cc(E[1], 0);
      } else {
        m = E[0] * (uint32_t)P::inv;
        E[0] = op.mad_lo_cc(mod_word(0), m, E[0]);
        E[1] = op.madc_hi_cc(mod_word(0), m, E[1]);
      }
      CUZK_MONT_UNROLL
      for (int j = 2; j < n; j += 2) {
        E[j] = op.madc_lo_cc(mod_word(j), m, E[j]);
        E[j + 1] = op.madc_hi_cc(mod_word(j), m, E[j + 1]);
      }
      E[n] = op.addc(E[n], 0);
      if constexpr (kSecondWordOnes) {
        // m·(2^32 − 1) = (m − [m ≠ 0])·2^32 + (−m mod 2^32), and −m = E_0 here
        O[0] = op.add_cc(O[0], e0);
        O[1] = op.addc_cc(O[1], m - (uint32_t)(e0 != 0));
      } else {
        O[0] = op.mad_lo_cc(mod_word(1), m, O[0]);
        O[1] = op.madc_hi_cc(mod_word(1), m, O[1]);
      }
      CUZK_MONT_UNROLL
      for (int j = 3; j < n; j += 2) {
        O[j - 1] = op.madc_lo_cc(mod_word(j), m, O[j - 1]);
        O[j] = op.madc_hi_cc(mod_word(j), m, O[j]);
      }
      O[n] = op.addc(O[n], 0);
      // V /= 2^32: new E = (O_0 + E_1, O_1..O_n), new O = (E_2..E_n, 0, 0); register renaming
      const uint32_t ne0 = op.add_cc(O[0], E[1]);
      pend = op.addc(0, 0);
      uint32_t nE[n + 1], nO[n + 1];
      nE[0] = ne0;
      CUZK_MONT_UNROLL
      for (int k = 1; k <= n; k++) nE[k] = O[k];
      CUZK_MONT_UNROLL
      for (int k = 0; k + 2 <= n; k++) nO[k] = E[k + 2];
      nO[n - 1] = nO[n] = 0;
      CUZK_MONT_UNROLL
      for (int k = 0; k <= n; k++) {
        E[k] = nE[k];
        O[k] = nO[k];
      }
    }
    // V = E + (O + pend)·2^32 < 2m fits in n words
    uint32_t R[n];
    R[0] = E[0];
    op.add_cc(pend, 0xffffffffu);
    CUZK_MONT_UNROLL
    for (int k = 1; k < n; k++) R[k] = op.addc_cc(E[k], O[k - 1]);
    if constexpr (kReduce) {
      return reduce_words(R, op);
    } else {
      return from_words(R);
    }
  }

  /// Whether 2m < 2^(64N): room for values kept in [0, 2m) between operations (the lazy forms below;
  /// true for Fr, whose top word is 0x73ed…, and for Fp).
  static constexpr bool kLazyRoom = (P::mod(N - 1) >> 63) == 0;

  /// a + b reduced into [0, 2m) for a, b in [0, 2m) (the lazily reduced form of add_chain; needs
  /// kLazyRoom). a + b < 4m may carry out of the 2N words (Fr: 4r ≈ 1.8·2^256), so the carry is kept and
  /// 2m is subtracted unless the (2N + 1)-word difference is negative: one add chain, one sub chain and
  /// a select, as add_chain. `Ops` as for mul_evenodd.
  template <class Ops>
  CUZK_HD static Mont add_lazy(const Mont& a, const Mont& b, Ops& op) {
    static_assert(kLazyRoom, "lazy reduction needs 2m < 2^(64N)");
    constexpr int n = 2 * N;
    uint32_t T[n], S[n];
    T[0] = op.add_cc(word(a, 0), word(b, 0));
    CUZK_MONT_UNROLL
    for (int k = 1; k < n; k++) T[k] = op.addc_cc(word(a, k), word(b, k));
    const uint32_t carry = op.addc(0, 0);
    S[0] = op.sub_cc(T[0], mod2_word(0));
    CUZK_MONT_UNROLL
    for (int k = 1; k < n; k++) S[k] = op.subc_cc(T[k], mod2_word(k));
    // carry − borrow: all ones when carry:T < 2m, else 0 (a carry implies a borrow: T < 4m − 2^(64N) < 2m)
    const uint32_t keep = op.subc(carry, 0);
    CUZK_MONT_UNROLL
    for (int k = 0; k < n; k++) T[k] = keep ? T[k] : S[k];
    return from_words(T);
  }
  /// a − b in [0, 2m) for a, b in [0, 2m): sub_chain with 2m added back when it borrowed (the lazily
  /// reduced form; needs kLazyRoom). `Ops` as for mul_evenodd.
  template <class Ops>
  CUZK_HD static Mont sub_lazy(const Mont& a, const Mont& b, Ops& op) {
    static_assert(kLazyRoom, "lazy reduction needs 2m < 2^(64N)");
    return sub_add_back<true>(a, b, op);
  }
  /// The canonical representative (< m) of a value in [0, 2m): one conditional subtraction of m.
  template <class Ops>
  CUZK_HD static Mont reduce_lazy(const Mont& a, Ops& op) {
    constexpr int n = 2 * N;
    uint32_t T[n];
    CUZK_MONT_UNROLL
    for (int k = 0; k < n; k++) T[k] = word(a, k);
    return reduce_words(T, op);
  }

  /// a + b mod m on 2N 32-bit words: one add.cc/addc.cc chain for t = a + b (no carry out: the
  /// moduli leave a spare top bit), one sub.cc/subc.cc chain for t − m, and a select on the final
  /// borrow. `Ops` as for mul_evenodd (the device's operator+; the tests run it with an emulated
  /// carry flag). Inputs < m; output < m.
  template <class Ops>
  CUZK_HD static Mont add_chain(const Mont& a, const Mont& b, Ops& op) {
    constexpr int n = 2 * N;
    uint32_t T[n];
    T[0] = op.add_cc(word(a, 0), word(b, 0));
    CUZK_MONT_UNROLL
    for (int k = 1; k < n; k++) T[k] = op.addc_cc(word(a, k), word(b, k));
    return reduce_words(T, op);
  }
  /// a − b mod m on 2N 32-bit words: a sub.cc/subc.cc chain, then m masked by the borrow added back
  /// with an add.cc/addc.cc chain. Inputs < m; output < m.
  template <class Ops>
  CUZK_HD static Mont sub_chain(const Mont& a, const Mont& b, Ops& op) {
    return sub_add_back<false>(a, b, op);
  }
  /// a − b, plus m (kTwice: 2m) when that borrows: the body of sub_chain and sub_lazy.
  template <bool kTwice, class Ops>
  CUZK_HD static Mont sub_add_back(const Mont& a, const Mont& b, Ops& op) {
    constexpr int n = 2 * N;
    uint32_t T[n];
    T[0] = op.sub_cc(word(a, 0), word(b, 0));
    CUZK_MONT_UNROLL
    for (int k = 1; k < n; k++) T[k] = op.subc_cc(word(a, k), word(b, k));
    const uint32_t mask = op.subc(0, 0);  // all ones when a < b
    T[0] = op.add_cc(T[0], (kTwice ? mod2_word(0) : mod_word(0)) & mask);
    CUZK_MONT_UNROLL
    for (int k = 1; k < n; k++) T[k] = op.addc_cc(T[k], (kTwice ? mod2_word(k) : mod_word(k)) & mask);
    return from_words(T);
  }

  // ---- lazy reduction: wide products, one Montgomery reduction for several of them -------------
  // A wide value is 4N little-endian 32-bit words (an integer below 2^(128·N) = R²). Summing products
  // as integers and reducing once saves the reductions of all but one (a reduction is about half of a
  // product's multiplications). Measured on an H200 (docs/PERFORMANCE.md §18), these lose inside the
  // MSM kernels: a squaring from sqr_wide_words is 18 % faster alone but made the G1 MSM 0.8 % slower,
  // and with a·b − c·d in one reduction 7.5 % slower (registers). So no device path uses them; the
  // arithmetic benchmark (src/cuda/arith.cu) and the emulated tests keep them measured and correct.

  /// 32-bit words of a wide value.
  static constexpr int kWideWords = 4 * N;

  /// T = a·b as an integer (T: kWideWords words), for any a, b below 2^(64·N) (inputs need not be
  /// reduced: a raw sum of two elements works). Schoolbook rows with even/odd accumulators as in
  /// mul_evenodd: row i adds a_j·b_i, j even, to E at word i + j and, j odd, to O at word i + j − 1
  /// (T = E + O·2^32); each row's carry lands on a word no earlier row touched. `Ops` as for mul_evenodd.
  template <class Ops>
  CUZK_HD static void mul_wide_words(const Mont& a, const Mont& b, uint32_t* T, Ops& op) {
    constexpr int n = 2 * N;
    uint32_t A[n], B[n], E[2 * n], O[2 * n];
    CUZK_MONT_UNROLL
    for (int k = 0; k < n; k++) {
      A[k] = word(a, k);
      B[k] = word(b, k);
    }
    CUZK_MONT_UNROLL
    for (int k = 0; k < 2 * n; k++) E[k] = O[k] = 0;
    CUZK_MONT_UNROLL
    for (int i = 0; i < n; i++) {
      const uint32_t bi = B[i];
      E[i] = op.mad_lo_cc(A[0], bi, E[i]);
      E[i + 1] = op.madc_hi_cc(A[0], bi, E[i + 1]);
      CUZK_MONT_UNROLL
      for (int j = 2; j < n; j += 2) {
        E[i + j] = op.madc_lo_cc(A[j], bi, E[i + j]);
        E[i + j + 1] = op.madc_hi_cc(A[j], bi, E[i + j + 1]);
      }
      E[i + n] = op.addc(E[i + n], 0);
      O[i] = op.mad_lo_cc(A[1], bi, O[i]);
      O[i + 1] = op.madc_hi_cc(A[1], bi, O[i + 1]);
      CUZK_MONT_UNROLL
      for (int j = 3; j < n; j += 2) {
        O[i + j - 1] = op.madc_lo_cc(A[j], bi, O[i + j - 1]);
        O[i + j] = op.madc_hi_cc(A[j], bi, O[i + j]);
      }
      O[i + n] = op.addc(O[i + n], 0);
    }
    // T = E + O·2^32 (a·b < 2^(64·n) and O·2^32 ≤ a·b, so O's top word is 0 and nothing carries out)
    T[0] = E[0];
    T[1] = op.add_cc(E[1], O[0]);
    CUZK_MONT_UNROLL
    for (int k = 2; k < 2 * n; k++) T[k] = op.addc_cc(E[k], O[k - 1]);
  }

  /// T = a² as an integer (T: kWideWords words), a below 2^(64·N): the cross products a_i·a_j (i < j)
  /// once, doubled, plus the squares a_i² (n(n+1)/2 word products instead of n², n = 2N). Row i's cross
  /// products go, j − i odd, to E and, j − i even, to O (each an unbroken chain of adjacent (lo, hi)
  /// pairs); a row's carry lands on a word that no earlier row's chain reached and that takes at most
  /// two carries before a later chain adds into it.
  template <class Ops>
  CUZK_HD static void sqr_wide_words(const Mont& a, uint32_t* T, Ops& op) {
    constexpr int n = 2 * N;
    static_assert(n % 2 == 0, "the carry placement below assumes an even word count");
    uint32_t A[n], E[2 * n], O[2 * n];
    CUZK_MONT_UNROLL
    for (int k = 0; k < n; k++) A[k] = word(a, k);
    CUZK_MONT_UNROLL
    for (int k = 0; k < 2 * n; k++) E[k] = O[k] = 0;
    CUZK_MONT_UNROLL
    for (int i = 0; i + 1 < n; i++) {
      const uint32_t ai = A[i];
      // E: j = i + 1, i + 3, … ≤ n − 1, words 2i + 1 … i + j_last + 1
      E[2 * i + 1] = op.mad_lo_cc(A[i + 1], ai, E[2 * i + 1]);
      E[2 * i + 2] = op.madc_hi_cc(A[i + 1], ai, E[2 * i + 2]);
      CUZK_MONT_UNROLL
      for (int j = i + 3; j < n; j += 2) {
        E[i + j] = op.madc_lo_cc(A[j], ai, E[i + j]);
        E[i + j + 1] = op.madc_hi_cc(A[j], ai, E[i + j + 1]);
      }
      {
        const int last = i + 1 + 2 * ((n - 2 - i) / 2);  // the last j of this chain
        if (i + last + 2 < 2 * n) E[i + last + 2] = op.addc(E[i + last + 2], 0);
      }
      // O: j = i + 2, i + 4, … ≤ n − 1, words 2i + 2 … i + j_last + 1
      if (i + 2 < n) {
        O[2 * i + 2] = op.mad_lo_cc(A[i + 2], ai, O[2 * i + 2]);
        O[2 * i + 3] = op.madc_hi_cc(A[i + 2], ai, O[2 * i + 3]);
        CUZK_MONT_UNROLL
        for (int j = i + 4; j < n; j += 2) {
          O[i + j] = op.madc_lo_cc(A[j], ai, O[i + j]);
          O[i + j + 1] = op.madc_hi_cc(A[j], ai, O[i + j + 1]);
        }
        const int last = i + 2 + 2 * ((n - 3 - i) / 2);
        if (i + last + 2 < 2 * n) O[i + last + 2] = op.addc(O[i + last + 2], 0);
      }
    }
    // T = 2·(E + O) + Σ a_i²·2^(64i): the cross sum is below a²/2, so nothing carries out
    T[0] = op.add_cc(E[0], O[0]);
    CUZK_MONT_UNROLL
    for (int k = 1; k < 2 * n; k++) T[k] = op.addc_cc(E[k], O[k]);
    T[0] = op.add_cc(T[0], T[0]);
    CUZK_MONT_UNROLL
    for (int k = 1; k < 2 * n; k++) T[k] = op.addc_cc(T[k], T[k]);
    T[0] = op.mad_lo_cc(A[0], A[0], T[0]);
    T[1] = op.madc_hi_cc(A[0], A[0], T[1]);
    CUZK_MONT_UNROLL
    for (int i = 1; i < n; i++) {
      T[2 * i] = op.madc_lo_cc(A[i], A[i], T[2 * i]);
      T[2 * i + 1] = op.madc_hi_cc(A[i], A[i], T[2 * i + 1]);
    }
  }

  /// T·R⁻¹ mod m (Montgomery reduction, REDC) of a wide value T < m·R; output < m. The low half is
  /// reduced by n rounds V ← (V + q·m)/2^32 with q = V_0·(−m⁻¹) mod 2^32 (V ≤ m at the end), the
  /// high half (< m since T < m·R) added, and m subtracted once if that does not borrow.
  template <class Ops>
  CUZK_HD static Mont redc_words(const uint32_t* T, Ops& op) {
    constexpr int n = 2 * N;
    uint32_t V[n + 1];
    CUZK_MONT_UNROLL
    for (int k = 0; k < n; k++) V[k] = T[k];
    V[n] = 0;
    CUZK_MONT_UNROLL
    for (int i = 0; i < n; i++) {
      const uint32_t q = V[0] * (uint32_t)P::inv;
      // V += q·m: the even words' products (words 0..n−1, carry into word n), then the odd ones'
      // (words 1..n; V + q·m < 2^(32·(n+1)), so nothing carries out of word n)
      V[0] = op.mad_lo_cc(mod_word(0), q, V[0]);
      V[1] = op.madc_hi_cc(mod_word(0), q, V[1]);
      CUZK_MONT_UNROLL
      for (int j = 2; j < n; j += 2) {
        V[j] = op.madc_lo_cc(mod_word(j), q, V[j]);
        V[j + 1] = op.madc_hi_cc(mod_word(j), q, V[j + 1]);
      }
      V[n] = op.addc(V[n], 0);
      V[1] = op.mad_lo_cc(mod_word(1), q, V[1]);
      V[2] = op.madc_hi_cc(mod_word(1), q, V[2]);
      CUZK_MONT_UNROLL
      for (int j = 3; j < n; j += 2) {
        V[j] = op.madc_lo_cc(mod_word(j), q, V[j]);
        V[j + 1] = op.madc_hi_cc(mod_word(j), q, V[j + 1]);
      }
      // V /= 2^32 (V_0 is 0 now)
      CUZK_MONT_UNROLL
      for (int k = 0; k < n; k++) V[k] = V[k + 1];
      V[n] = 0;
    }
    // V ≤ m and T_hi < m: V + T_hi < 2m fits n words (the moduli leave a spare top bit)
    uint32_t S[n];
    S[0] = op.add_cc(V[0], T[n]);
    CUZK_MONT_UNROLL
    for (int k = 1; k < n; k++) S[k] = op.addc_cc(V[k], T[n + k]);
    return reduce_words(S, op);
  }

  /// X ← X − Y, plus m·R when that borrows, for wide X, Y < 2m² (sums of two products of reduced
  /// elements): the result is ≡ X − Y (mod m) as REDC sees it (m·R·R⁻¹ ≡ 0) and below m·R (R > 2m
  /// for both moduli), so redc_words takes it. m·R is m's words shifted up by n.
  template <class Ops>
  CUZK_HD static void sub_wide_mod(uint32_t* X, const uint32_t* Y, Ops& op) {
    constexpr int n = 2 * N;
    X[0] = op.sub_cc(X[0], Y[0]);
    CUZK_MONT_UNROLL
    for (int k = 1; k < 2 * n; k++) X[k] = op.subc_cc(X[k], Y[k]);
    const uint32_t mask = op.subc(0, 0);  // all ones when X < Y
    X[n] = op.add_cc(X[n], mod_word(0) & mask);
    CUZK_MONT_UNROLL
    for (int k = 1; k < n; k++) X[n + k] = op.addc_cc(X[n + k], mod_word(k) & mask);
  }
  /// X ← X − Y for wide values with X ≥ Y.
  template <class Ops>
  CUZK_HD static void sub_wide(uint32_t* X, const uint32_t* Y, Ops& op) {
    X[0] = op.sub_cc(X[0], Y[0]);
    CUZK_MONT_UNROLL
    for (int k = 1; k < kWideWords; k++) X[k] = op.subc_cc(X[k], Y[k]);
  }
  /// a + b as an integer in N limbs, unreduced (below 2m < 2^(64·N)): an operand for mul_wide_words.
  template <class Ops>
  CUZK_HD static Mont add_raw(const Mont& a, const Mont& b, Ops& op) {
    constexpr int n = 2 * N;
    uint32_t S[n];
    S[0] = op.add_cc(word(a, 0), word(b, 0));
    CUZK_MONT_UNROLL
    for (int k = 1; k < n; k++) S[k] = op.addc_cc(word(a, k), word(b, k));
    return from_words(S);
  }

 private:
  /// The element of V (2N 32-bit words, V < 2m): V − m when that does not borrow, else V. One
  /// sub.cc/subc.cc chain and a select on the borrow; the last step of mul_evenodd and add_chain.
  template <class Ops>
  CUZK_HD static Mont reduce_words(const uint32_t* V, Ops& op) {
    constexpr int n = 2 * N;
    uint32_t S[n];
    S[0] = op.sub_cc(V[0], mod_word(0));
    CUZK_MONT_UNROLL
    for (int k = 1; k < n; k++) S[k] = op.subc_cc(V[k], mod_word(k));
    const uint32_t borrow = op.subc(0, 0);  // all ones when V < m
    Mont r;
    CUZK_MONT_UNROLL
    for (int i = 0; i < N; i++) {
      const uint32_t lo = borrow ? V[2 * i] : S[2 * i];
      const uint32_t hi = borrow ? V[2 * i + 1] : S[2 * i + 1];
      r.l[i] = (uint64_t)lo | ((uint64_t)hi << 32);
    }
    return r;
  }
  CUZK_HD static uint32_t word(const Mont& a, int k) { return (uint32_t)(a.l[k / 2] >> (32 * (k & 1))); }
  /// The j-th 32-bit word of 2m (the lazy forms' bound; 2m < 2^(64N) by kLazyRoom).
  CUZK_HD static constexpr uint32_t mod2_word(int j) {
    return (uint32_t)(((uint64_t)mod_word(j) << 1) | (j > 0 ? mod_word(j - 1) >> 31 : 0u));
  }
  /// The element whose limbs are the 2N little-endian words V.
  CUZK_HD static Mont from_words(const uint32_t* V) {
    Mont r;
    CUZK_MONT_UNROLL
    for (int i = 0; i < N; i++) r.l[i] = (uint64_t)V[2 * i] | ((uint64_t)V[2 * i + 1] << 32);
    return r;
  }
};

}  // namespace cuzk
