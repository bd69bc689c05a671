// CPU emulation of the GPU NTT passes (src/cuda/ntt_pass.cuh): the same per-unit phase code, with the
// block's units run one after another between the points where the kernel synchronizes. Plus two
// host references: the O(n²) DFT definition and an iterative radix-2 NTT.
#pragma once

#include <deque>
#include <stdexcept>
#include <vector>

#include "cuda/ntt_pass.cuh"

namespace cuzk::test {

namespace nd = cuzk::cuda::ntt_detail;

/// factor·base^i for i < count.
inline std::vector<Fr> host_powers(const nd::PowSpec& s) {
  std::vector<Fr> v(s.count);
  Fr x = s.factor;
  for (size_t i = 0; i < s.count; i++) {
    v[i] = x;
    x = x * s.base;
  }
  return v;
}

/// A positional grid on the host (the device's positional_kernel): entry l + f·2^log_l = W^(l·f)·A^l·B^f,
/// computed row by row as B^f·(W^f·A)^l.
inline std::vector<Fr> host_grid(const nd::PosGrid& g) {
  std::vector<Fr> v(g.count());
  const size_t L = size_t{1} << g.log_l;
  Fr wf = Fr::one(), bf = Fr::one();
  for (size_t f = 0; f < (size_t{1} << g.log_r); f++, wf = wf * g.w, bf = bf * g.b) {
    const Fr ratio = wf * g.a;
    Fr x = bf;
    for (size_t l = 0; l < L; l++, x = x * ratio) v[l + f * L] = x;
  }
  return v;
}

/// Host copies of the tables of a TransformSpec.
struct HostTables {
  std::deque<std::vector<Fr>> store;
  nd::Table make(const nd::TableSpec& t) {
    nd::Table r;
    r.kind = t.kind;
    r.log_lo = t.log_lo;
    r.by_position = t.by_position;
    if (t.kind == nd::kTabNone) return r;
    store.push_back(t.by_position ? host_grid(nd::pos_grid(t, 0)) : host_powers(t.lo));
    r.lo = store.back().data();
    if (t.kind == nd::kTabTwoLevel) {
      store.push_back(t.by_position ? host_grid(nd::pos_grid(t, 1)) : host_powers(t.hi));
      r.hi = store.back().data();
    }
    return r;
  }
};

/// One pass (r4_first, the middle rounds, r4_last) block after block, each phase over all units of the
/// block before the next, as the kernel's barriers order them.
inline void emulate_pass(const nd::PassParams& p) {
  const uint32_t units = 1u << (p.log_r + p.log_c - 2);
  const size_t blocks = nd::pass_blocks(p.log_n, p.log_r, p.log_c);
  std::vector<uint64_t> sm(nd::r4_smem_bytes(p.log_r, p.log_c) / sizeof(uint64_t));
  const nd::R4Rounds rounds = nd::r4_rounds(p.log_r);
  for (size_t b = 0; b < blocks; b++) {
    for (uint32_t u = 0; u < units; u++) nd::r4_first(p, (uint32_t)b, u, sm.data());
    for (int r = 0; r < rounds.n; r++) {
      const int lh = rounds.log_h[r];
      if (lh > 0)
        for (uint32_t u = 0; u < units; u++) nd::r4_middle(p, lh, u, sm.data());
      else
        for (uint32_t v = 0; v < 2 * units; v++) nd::r2_middle(p, -lh, v, sm.data());
    }
    for (uint32_t u = 0; u < units; u++)
      if (p.post.by_position)
        nd::r4_last<true>(p, (uint32_t)b, u, sm.data());
      else
        nd::r4_last<false>(p, (uint32_t)b, u, sm.data());
  }
}

/// The GPU algorithm run on the CPU (kMinLogRadix ≤ L).
inline void emulate_ntt(std::vector<Fr>& data, int L, RootConvention conv, bool inverse, bool coset,
                        const Fr& shift = Fr::one(), int log_block = nd::kLogBlockElems,
                        int max_exact_log = nd::kMaxExactLog) {
  nd::TransformSpec ts = nd::make_transform(L, conv, inverse, coset, shift, log_block, max_exact_log);
  HostTables tabs;
  std::vector<Fr> scratch(data.size());
  const int P = ts.plan.num_passes;
  for (int q = 0; q < P; q++) {
    const nd::PassGeom& g = ts.plan.pass[q];
    nd::PassParams p;
    p.log_n = L;
    p.log_stride = g.log_stride;
    p.log_c = g.log_c;
    p.last = q == P - 1;
    p.num_passes = P;
    p.log_r = g.k;
    p.log_r1 = ts.plan.pass[0].k;
    p.log_r2 = P > 1 ? ts.plan.pass[1].k : 0;
    p.in = P == 1 ? data.data() : (q == 0 ? data.data() : scratch.data());
    p.out = P == 1 ? data.data() : (q == P - 1 ? data.data() : scratch.data());
    p.tw_inner = tabs.make(ts.inner[q]).lo;
    if (q < P - 1) p.post = tabs.make(ts.post[q]);
    if (q == 0) p.in_factor = tabs.make(ts.in_factor);
    if (q == P - 1) {
      p.out_factor = tabs.make(ts.out_factor);
      p.scale_out = ts.scale_out;
      p.scale = ts.scale;
    }
    emulate_pass(p);
  }
}

/// Definition: out_i = Σ_k in_k·w^(ik) (O(n²)).
inline std::vector<Fr> naive_dft(const std::vector<Fr>& in, const Fr& w) {
  const size_t n = in.size();
  std::vector<Fr> out(n, Fr::zero());
  Fr wi = Fr::one();
  for (size_t i = 0; i < n; i++) {
    Fr x = Fr::one();
    for (size_t k = 0; k < n; k++) {
      out[i] += in[k] * x;
      x = x * wi;
    }
    wi = wi * w;
  }
  return out;
}

/// Iterative radix-2 NTT (bit reversal + decimation in time), out_i = Σ_k in_k·w^(ik), n = 2^L.
inline void ref_ntt(std::vector<Fr>& a, const Fr& w) {
  const size_t n = a.size();
  int L = 0;
  while ((size_t{1} << L) < n) L++;
  for (size_t i = 0; i < n; i++) {
    size_t j = nd::bitrev((uint32_t)i, L);
    if (i < j) std::swap(a[i], a[j]);
  }
  std::vector<Fr> tw(n / 2 > 0 ? n / 2 : 1);
  for (size_t len = 2; len <= n; len <<= 1) {
    Fr wl = w;
    for (size_t t = len; t < n; t <<= 1) wl = wl.sqr();  // primitive len-th root
    const size_t h = len / 2;
    tw[0] = Fr::one();
    for (size_t j = 1; j < h; j++) tw[j] = tw[j - 1] * wl;
    for (size_t i = 0; i < n; i += len)
      for (size_t j = 0; j < h; j++) {
        Fr u = a[i + j], v = a[i + j + h] * tw[j];
        a[i + j] = u + v;
        a[i + j + h] = u - v;
      }
  }
}

/// Reference transforms with the GPU API's semantics.
inline void ref_transform(std::vector<Fr>& a, int L, RootConvention conv, bool inverse, bool coset,
                          const Fr& shift = Fr::one()) {
  Fr w = root_of_unity(L, conv);
  if (!inverse) {
    if (coset) {
      Fr s = Fr::one();
      for (auto& x : a) {
        x = x * s;
        s = s * shift;
      }
    }
    ref_ntt(a, w);
  } else {
    ref_ntt(a, w.inverse());
    Fr f = Fr::from_u64(a.size()).inverse();
    Fr si = coset ? shift.inverse() : Fr::one();
    for (auto& x : a) {
      x = x * f;
      f = f * si;
    }
  }
}

}  // namespace cuzk::test
