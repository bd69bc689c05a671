#include "selfcheck.hpp"

#include <chrono>
#include <cstdio>
#include <string>

#include "ec/encoding.hpp"
#include "ec/pairing.hpp"
#include "ff/roots.hpp"

namespace cuzk::cli {
namespace {

std::string hex(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; i++) s += {d[p[i] >> 4], d[p[i] & 15]};
  return s;
}

bool check(const char* what, bool ok) {
  std::printf("  %-58s %s\n", what, ok ? "ok" : "FAILED");
  return ok;
}

}  // namespace

int run_selfcheck() {
  std::printf("cuzk self-check (BLS12-381 arithmetic core)\n");
  bool ok = true;
  auto t0 = std::chrono::steady_clock::now();
  G1Affine g1 = Curve<Fp>::generator();
  G2Affine g2 = Curve<Fp2>::generator();
  uint8_t b[96];
  g1_to_zcash(g1, true, b);
  ok &= check(
      "G1 generator compressed encoding (zcash)",
      hex(b, 48) ==
          "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb");
  g2_to_zcash(g2, true, b);
  ok &= check(
      "G2 generator compressed encoding (zcash)",
      hex(b, 96) ==
          "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
          "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8");
  ok &= check("generators on curve and in the r-order subgroups",
              is_on_curve(g1) && is_in_subgroup(g1) && is_on_curve(g2) && is_in_subgroup(g2));
  Fr w = root_of_unity(32, RootConvention::kGenerator7);
  uint64_t e = 1ULL << 31;
  ok &= check("2^32-th root of unity (generator 7) has order 2^32",
              w.pow_u64(e * 2).is_one() && !w.pow_u64(e).is_one());
  Fr a = Fr::from_u64(123456789), c = Fr::from_u64(987654321);
  G1Affine pa = scalar_mul(g1, a).to_affine();
  G2Affine qc = scalar_mul(g2, c).to_affine();
  ok &= check("pairing bilinearity e(aG1, cG2) = e(acG1, G2)",
              pairing(pa, qc) == pairing(scalar_mul(g1, a * c).to_affine(), g2));
  ok &= check("pairing product e(aG1, G2)·e(-G1, aG2) = 1",
              pairing_product_is_one({{pa, g2}, {-g1, scalar_mul(g2, a).to_affine()}}));
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s in %.0f ms\n", ok ? "all checks passed" : "SOME CHECKS FAILED", ms);
  return ok ? 0 : 1;
}

}  // namespace cuzk::cli
