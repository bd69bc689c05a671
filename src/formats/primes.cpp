#include "formats/primes.hpp"

#include <vector>

#include "ff/bls12_381.hpp"
#include "formats/binfile.hpp"
#include "formats/decimal.hpp"

namespace cuzk {

std::string describe_prime(std::span<const uint8_t> le) {
  std::vector<uint8_t> be(le.rbegin(), le.rend());
  std::string d = decimal_from_be_bytes(be);
  struct Known {
    const char* dec;
    const char* name;
  };
  static const Known known[] = {
      {"21888242871839275222246405745257275088548364400416034343698204186575808495617",
       "the bn128 scalar field prime r"},
      {"21888242871839275222246405745257275088696311157297823662689037894645226208583",
       "the bn128 base field prime q"},
      {"52435875175126190479447740508185965837690552500527637822603658699938581184513",
       "the BLS12-381 scalar field prime r"},
      {"4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894"
       "272559787",
       "the BLS12-381 base field prime p"},
  };
  for (const auto& k : known)
    if (d == k.dec) return std::string(k.name) + " = " + d;
  return "the unknown prime " + d;
}

void expect_scalar_field_header(ByteReader& rd) {
  const uint32_t n8 = rd.u32();
  auto prime = rd.take(n8);
  if (!is_modulus_of<Fr>(prime))
    rd.fail("prime is " + describe_prime(prime) + ", expected the BLS12-381 scalar field prime r");
  if (n8 != 32) rd.fail("n8 = " + std::to_string(n8) + ", expected 32 for BLS12-381");
}

}  // namespace cuzk
