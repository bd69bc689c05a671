// libFuzzer target: the SupraSeal drop-in's checks of its Assignment (src/capi/supraseal.cpp, CPU
// backend) against a tiny bellperson key (tests/capi/mul_bellperson.params: 2 inputs, 2 aux, domain 4).
// The input is 7 signed deltas applied to the key's true sizes (the three bit lengths, the three
// popcounts' offsets from the bitmaps' real counts, abc_size) and 2 selector bits, then the bytes of the
// bitmaps and scalars (repeated to fill the buffers, which always have the claimed sizes, as a caller's
// must). Properties: every call returns; a failure has a message; a success made a proof that verifies
// with the key's .vk (checked again here, independently of the library's own check).
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuzk/supraseal_c2.h"
#include "formats/params.hpp"
#include "fuzz.hpp"
#include "groth16/verifier.hpp"

namespace {

const std::string kParams = std::string(CUZK_SOURCE_DIR) + "/tests/capi/mul_bellperson.params";

struct Fixture {
  SRS srs{nullptr};
  cuzk::VerifyingKey vk;
  uint32_t n_inputs = 0, n_aux = 0;
  size_t domain = 0;
  Fixture() {
    if (create_SRS(&srs, kParams.c_str(), true).code != 0) std::abort();
    const cuzk::ProvingKey key = cuzk::read_params(kParams);
    vk = key.verifying_key();
    n_inputs = key.n_inputs;
    n_aux = key.n_aux;
    domain = key.domain_size();
  }
};

/// Bytes of the fuzz input, repeated (zeros when there are none).
struct Bytes {
  const uint8_t* p;
  size_t n, at = 0;
  uint8_t next() { return n ? p[at++ % n] : 0; }
  void fill(void* out, size_t bytes) {
    auto* o = static_cast<uint8_t*>(out);
    for (size_t i = 0; i < bytes; i++) o[i] = next();
  }
};

size_t popcount(const std::vector<uint64_t>& w, size_t bits) {
  size_t c = 0;
  for (size_t i = 0; i < w.size(); i++) {
    uint64_t x = w[i];
    if (i == w.size() - 1 && bits % 64) x &= (uint64_t{1} << (bits % 64)) - 1;
    c += (size_t)std::popcount(x);
  }
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Fixture fx;
  if (size < 8) return 0;
  auto delta = [&](int i) { return (long)(int8_t)data[i] % 4; };  // small: off-by-a-few shapes
  auto sized = [](long v) { return (size_t)(v < 0 ? 0 : v); };
  const size_t a_bits = sized((long)fx.n_aux + delta(0)), bi_bits = sized((long)fx.n_inputs + delta(1)),
               ba_bits = sized((long)fx.n_aux + delta(2));
  const size_t abc = sized((long)fx.domain - 1 + delta(6)) % (fx.domain + 2);
  const uint8_t sel = data[7];
  Bytes src{data + 8, size - 8};
  std::vector<uint64_t> a_aux((a_bits + 63) / 64 + 1), b_inp((bi_bits + 63) / 64 + 1),
      b_aux((ba_bits + 63) / 64 + 1);
  src.fill(a_aux.data(), a_aux.size() * 8);
  src.fill(b_inp.data(), b_inp.size() * 8);
  src.fill(b_aux.data(), b_aux.size() * 8);
  std::vector<fr_t> a(abc + 1), b(abc + 1), c(abc + 1), inp(fx.n_inputs), aux(fx.n_aux);
  for (std::vector<fr_t>* v : {&a, &b, &c, &inp, &aux}) src.fill(v->data(), v->size() * sizeof(fr_t));
  if (sel & 1) {  // input 0 = ONE, as it must be
    const cuzk::Fr one = cuzk::Fr::one();
    std::memcpy(static_cast<void*>(inp.data()), &one, sizeof one);
  }
  Assignment in{};
  in.a_aux_density = a_aux.data();
  in.a_aux_bit_len = a_bits;
  in.a_aux_popcount = sized((long)popcount(a_aux, a_bits) + delta(3));
  in.b_inp_density = b_inp.data();
  in.b_inp_bit_len = bi_bits;
  in.b_inp_popcount = sized((long)popcount(b_inp, bi_bits) + delta(4));
  in.b_aux_density = b_aux.data();
  in.b_aux_bit_len = ba_bits;
  in.b_aux_popcount = sized((long)popcount(b_aux, ba_bits) + delta(5));
  in.a = a.data();
  in.b = b.data();
  in.c = (sel & 2) ? nullptr : c.data();
  in.abc_size = abc;
  in.inp_assignment_data = inp.data();
  in.inp_assignment_size = fx.n_inputs;
  in.aux_assignment_data = aux.data();
  in.aux_assignment_size = fx.n_aux;
  const fr_t r{{1, 0, 0, 0}}, s{{2, 0, 0, 0}};
  groth16_proof proof{};
  const RustError e = generate_groth16_proofs_c(&in, 1, &r, &s, &proof, &fx.srs, nullptr, 0);
  if (e.code != 0) {
    if (!e.message) cuzk::fuzz::finding("a failed call has no message");
    std::free(e.message);
    return 0;
  }
  cuzk::Groth16Proof p;
  std::memcpy(static_cast<void*>(&p), &proof, sizeof p);
  std::vector<cuzk::Fr> pub(fx.n_inputs - 1);
  std::memcpy(static_cast<void*>(pub.data()), inp.data() + 1, pub.size() * sizeof(fr_t));
  if (!cuzk::verify(fx.vk, pub, p)) cuzk::fuzz::finding("the drop-in returned a proof that does not verify");
  return 0;
}
