// The host side of the packed witness (witness_pack.hpp): packing on a thread pool, and the reference
// unpacking the tests compare the device's against.
#include "cuda/witness_pack.hpp"

#include <string>
#include <vector>

#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::cuda {
namespace {

constexpr size_t kWordsPerTask = 2048;  // 32768 values (1 MiB of source) a task

/// The 2-bit tag of v: its bytes against Fr::zero()'s and Fr::one()'s (branch-free: a witness mixes the
/// three at random).
inline uint32_t tag_of(const Fr& v) {
  constexpr Fr one = Fr::one();
  uint64_t z = 0, o = 0;
  for (int i = 0; i < Fr::N; i++) z |= v.l[i], o |= v.l[i] ^ one.l[i];
  static_assert(kPackZero == 0 && kPackOne == 1 && kPackValue == 2);
  return (uint32_t)(z != 0) << (o != 0);
}

}  // namespace

size_t pack_witness(const Fr* src, size_t n, void* out, size_t cap, ThreadPool& pool) {
  const size_t m = packed_words(n), at = packed_values_at(n);
  if (at > cap) return 0;
  auto* tags = static_cast<uint32_t*>(out);
  uint32_t* offs = tags + m;
  Fr* values = reinterpret_cast<Fr*>(static_cast<char*>(out) + at);
  const size_t tasks = (m + kWordsPerTask - 1) / kWordsPerTask;
  std::vector<size_t> count(tasks + 1, 0);
  pool.parallel_for(
      tasks,
      [&](size_t lo, size_t hi) {
        for (size_t t = lo; t < hi; t++) {
          size_t c = 0;
          for (size_t w = t * kWordsPerTask; w < std::min(m, (t + 1) * kWordsPerTask); w++) {
            uint32_t word = 0;
            const size_t end = std::min(n, w * 16 + 16);
            for (size_t i = w * 16; i < end; i++) {
              const uint32_t tag = tag_of(src[i]);
              word |= tag << (2 * (i - w * 16));
              c += tag == kPackValue;
            }
            tags[w] = word;
          }
          count[t + 1] = c;
        }
      },
      1);
  for (size_t t = 0; t < tasks; t++) count[t + 1] += count[t];
  const size_t total = count[tasks];
  if (total > (cap - at) / sizeof(Fr) || total > UINT32_MAX) return 0;
  pool.parallel_for(
      tasks,
      [&](size_t lo, size_t hi) {
        for (size_t t = lo; t < hi; t++) {
          size_t k = count[t];
          for (size_t w = t * kWordsPerTask; w < std::min(m, (t + 1) * kWordsPerTask); w++) {
            offs[w] = static_cast<uint32_t>(k);
            // the word's kPackValue entries: high bit of the tag set, low bit clear
            for (uint32_t v = (tags[w] >> 1) & ~tags[w] & 0x55555555u; v; v &= v - 1)
              values[k++] = src[w * 16 + __builtin_ctz(v) / 2];
          }
        }
      },
      1);
  return at + total * sizeof(Fr);
}

std::optional<PackedWitness> pack_witness_ahead(const Fr* src, size_t n, size_t piece, ThreadPool& pool) {
  if (piece == 0 || piece % 16 != 0)
    throw Error(ErrorCode::kInvalidArgument, "pack_witness_ahead: a piece of " + std::to_string(piece) +
                                                 " values is not a multiple of 16");
  PackedWitness pw;
  pw.n = n;
  pw.piece = piece;
  const size_t pieces = (n + piece - 1) / piece, cap = piece * sizeof(Fr) / 4;
  pw.bytes.reset(new uint64_t[pieces * cap / sizeof(uint64_t)]);  // not value-initialised: untouched pages
  pw.at.assign(1, 0);
  for (size_t off = 0; off < n; off += piece) {
    const size_t used = pw.at.back();
    const size_t bytes = pack_witness(src + off, std::min(piece, n - off),
                                      reinterpret_cast<char*>(pw.bytes.get()) + used, cap, pool);
    if (bytes == 0) return std::nullopt;
    pw.at.push_back(used + bytes);
  }
  return pw;
}

void unpack_witness(const void* packed, size_t n, Fr* out) {
  const auto* tags = static_cast<const uint32_t*>(packed);
  const uint32_t* offs = tags + packed_words(n);
  const Fr* values = reinterpret_cast<const Fr*>(static_cast<const char*>(packed) + packed_values_at(n));
  for (size_t i = 0; i < n; i++) out[i] = unpack_value(tags[i / 16], offs[i / 16], values, i % 16);
}

}  // namespace cuzk::cuda
