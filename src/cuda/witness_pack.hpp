// The witness in packed form for its host→device crossing (cuda::UploadStaging::upload_packed_at): most of
// a Filecoin witness is bits (a 32 GiB PoRep partition: ~97 % of its 130 M aux values are 0 or 1), so a
// piece of it crosses the link, and leaves the host's memory, in a few percent of its 32 bytes a value.
// The format and the unpacking of one value are plain C++ (no CUDA header), compiled for the device by
// nvcc (the unpack kernel, context.cu) and for the host by any compiler (pack_witness and the tests), so
// the two sides agree by construction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "ff/bls12_381.hpp"
#include "ff/platform.hpp"

namespace cuzk {
class ThreadPool;
}

namespace cuzk::cuda {

/// A packed piece of n values (Fr, Montgomery form), at a 32-byte aligned address:
///  - m = packed_words(n) tag words (uint32): value i has the 2-bit tag (word i/16 >> 2·(i mod 16)) & 3,
///    kPackZero (the value is Fr::zero()), kPackOne (Fr::one()) or kPackValue (the next entry of `values`);
///  - m offsets (uint32): the index in `values` of word w's first kPackValue entry;
///  - at packed_values_at(n): the values tagged kPackValue, in order.
/// Values are compared by their bytes, so unpacking gives back exactly the bytes packed.
inline constexpr uint32_t kPackZero = 0, kPackOne = 1, kPackValue = 2;

/// Tag words (and offsets) of a piece of n values.
CUZK_HD size_t packed_words(size_t n) { return (n + 15) / 16; }
/// Byte offset of a piece's values: after its tag words and offsets, 32-byte aligned.
CUZK_HD size_t packed_values_at(size_t n) { return (packed_words(n) * 8 + 31) / 32 * 32; }

/// Value j (< 16) of the word whose tags are `tags` and whose first kPackValue entry is values[off].
CUZK_HD Fr unpack_value(uint32_t tags, uint32_t off, const Fr* values, unsigned j) {
  const uint32_t tag = tags >> (2 * j) & 3;
  if (tag == kPackZero) return Fr::zero();
  if (tag == kPackOne) return Fr::one();
  // j's rank among the word's kPackValue entries: the tags 2 (high bit set, low bit clear) below it
  const uint32_t is_value = (tags >> 1) & ~tags & 0x55555555u & ((1u << (2 * j)) - 1);
#ifdef __CUDA_ARCH__
  return values[off + __popc(is_value)];
#else
  return values[off + __builtin_popcount(is_value)];
#endif
}

/// Packs src[0..n) into out (cap bytes, 32-byte aligned) on `pool`: returns the packed size, or 0 when it
/// would exceed cap (the piece is then sent as it is). Reads src once, and its kPackValue entries twice.
size_t pack_witness(const Fr* src, size_t n, void* out, size_t cap, ThreadPool& pool);

/// A witness packed ahead of its uploads, outside the GPU mutex (pack_witness_ahead): n values in pieces
/// of `piece` values (the last one shorter), piece k packed in bytes[at[k], at[k + 1]).
struct PackedWitness {
  size_t n = 0, piece = 0;
  std::vector<size_t> at;
  std::unique_ptr<uint64_t[]> bytes;  // pieces × piece × 8 bytes reserved; at.back() written
  /// Piece k's packed bytes.
  const void* data(size_t k) const { return reinterpret_cast<const char*>(bytes.get()) + at[k]; }
  size_t pieces() const { return at.size() - 1; }
};

/// Packs src[0..n) in pieces of `piece` values (a positive multiple of 16) on `pool`, each into at most a
/// quarter of its bytes (piece × 8, the cap of UploadStaging::upload_packed_at), one after another. Returns
/// std::nullopt as soon as a piece does not pack that small (a dense witness then crosses as it is). The
/// reservation's pages beyond what the pieces take are never written: a PoRep partition's 4.2 GB of aux
/// values take ~0.2 GB of memory.
std::optional<PackedWitness> pack_witness_ahead(const Fr* src, size_t n, size_t piece, ThreadPool& pool);

/// out[0..n) ← the values of a packed piece (the host's reference of the device's unpack kernel).
void unpack_witness(const void* packed, size_t n, Fr* out);

}  // namespace cuzk::cuda
