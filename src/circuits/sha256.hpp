// The SHA-256 gadget (bellpepper crates/bellpepper/src/gadgets/sha256.rs): padding with constant bits, the
// compression function over UInt32 words with deferred additions packed through MultiEq, and the
// constant IV. POREP_CIRCUIT.md §3 "SHA-256" gives the emission order and the constraint counts.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "circuits/boolean.hpp"
#include "circuits/cs.hpp"
#include "circuits/multieq.hpp"
#include "circuits/uint32.hpp"
#include "hash/sha256.hpp"
#include "util/error.hpp"

namespace cuzk::circuits {

/// SHA-256's initial hash value as eight constant words (sha256.rs `get_sha256_iv`).
inline std::array<UInt32, 8> sha256_iv() {
  std::array<UInt32, 8> iv;
  for (int i = 0; i < 8; i++) iv[i] = UInt32::constant(Sha256::kIv[i]);
  return iv;
}

namespace detail {

// A word whose final addition is deferred so that later operands join the same addmany (sha256.rs
// `Maybe`): either concrete, or the list of operands still to be summed.
struct MaybeWord {
  bool deferred = false;
  UInt32 concrete;
  std::vector<UInt32> ops;

  template <class CS>
  UInt32 compute(MultiEq<CS>& m, std::span<const UInt32> others) {
    if (!deferred) return concrete;
    ops.insert(ops.end(), others.begin(), others.end());
    return UInt32::addmany(m, std::span<const UInt32>(ops));
  }
};

}  // namespace detail

/// The SHA-256 compression function (sha256.rs `sha256_compression_function`): 512 message bits
/// (each 32-bit word MSB first, as FIPS 180-4 reads the block) and the 8-word state in, the 8-word new
/// state out. Emission order: the message schedule w[16..64]; 64 rounds (deferred e addmany, S1, ch,
/// deferred a addmany, S0, maj); the final additions h0 (a deferred + H0), h1..h3, h4 (e deferred + H4),
/// h5..h7; the MultiEq flush. All-constant inputs fold to constants with no constraint; 25,840
/// constraints for allocated message bits from the IV, 26,192 for an allocated state as well.
/// Throws Error(kInvalidArgument) unless 512 bits and 8 words.
template <class CS>
std::array<UInt32, 8> sha256_compression_function(CS& cs, std::span<const Boolean> input,
                                                  std::span<const UInt32> current_hash_value) {
  if (input.size() != 512 || current_hash_value.size() != 8)
    throw Error(ErrorCode::kInvalidArgument, "sha256_compression_function takes 512 bits and 8 words, not " +
                                                 std::to_string(input.size()) + " and " +
                                                 std::to_string(current_hash_value.size()));
  std::array<UInt32, 64> w;
  for (int i = 0; i < 16; i++) w[i] = UInt32::from_bits_be(cs, input.subspan(32 * i, 32));

  MultiEq<CS> m(cs);
  for (int i = 16; i < 64; i++) {
    UInt32 s0 = w[i - 15].rotr(7);
    s0 = s0.xor_(cs, w[i - 15].rotr(18));
    s0 = s0.xor_(cs, w[i - 15].shr(3));
    UInt32 s1 = w[i - 2].rotr(17);
    s1 = s1.xor_(cs, w[i - 2].rotr(19));
    s1 = s1.xor_(cs, w[i - 2].shr(10));
    w[i] = UInt32::addmany(m, {w[i - 16], s0, w[i - 7], s1});
  }

  detail::MaybeWord a{false, current_hash_value[0], {}};
  UInt32 b = current_hash_value[1];
  UInt32 c = current_hash_value[2];
  UInt32 d = current_hash_value[3];
  detail::MaybeWord e{false, current_hash_value[4], {}};
  UInt32 f = current_hash_value[5];
  UInt32 g = current_hash_value[6];
  UInt32 h = current_hash_value[7];

  for (int i = 0; i < 64; i++) {
    // S1 := (e rotr 6) ⊕ (e rotr 11) ⊕ (e rotr 25)
    UInt32 new_e = e.compute(m, {});
    UInt32 s1 = new_e.rotr(6);
    s1 = s1.xor_(cs, new_e.rotr(11));
    s1 = s1.xor_(cs, new_e.rotr(25));
    UInt32 ch = UInt32::sha256_ch(cs, new_e, f, g);
    // temp1 := h + S1 + ch + K[i] + w[i]
    std::vector<UInt32> temp1{h, s1, ch, UInt32::constant(Sha256::kK[i]), w[i]};
    // S0 := (a rotr 2) ⊕ (a rotr 13) ⊕ (a rotr 22)
    UInt32 new_a = a.compute(m, {});
    UInt32 s0 = new_a.rotr(2);
    s0 = s0.xor_(cs, new_a.rotr(13));
    s0 = s0.xor_(cs, new_a.rotr(22));
    UInt32 maj = UInt32::sha256_maj(cs, new_a, b, c);

    h = g;
    g = f;
    f = new_e;
    e.deferred = true;
    e.ops = temp1;
    e.ops.push_back(d);
    d = c;
    c = b;
    b = new_a;
    a.deferred = true;
    a.ops = std::move(temp1);
    a.ops.push_back(s0);
    a.ops.push_back(maj);
  }

  std::array<UInt32, 8> out;
  out[0] = a.compute(m, current_hash_value.subspan(0, 1));
  out[1] = UInt32::addmany(m, {current_hash_value[1], b});
  out[2] = UInt32::addmany(m, {current_hash_value[2], c});
  out[3] = UInt32::addmany(m, {current_hash_value[3], d});
  out[4] = e.compute(m, current_hash_value.subspan(4, 1));
  out[5] = UInt32::addmany(m, {current_hash_value[5], f});
  out[6] = UInt32::addmany(m, {current_hash_value[6], g});
  out[7] = UInt32::addmany(m, {current_hash_value[7], h});
  m.finish();  // upstream: the MultiEq is dropped when the function returns
  return out;
}

/// The 256 output bits of eight words: each word MSB first, word 0 first (the digest's bit order).
inline std::vector<Boolean> sha256_words_to_bits_be(std::span<const UInt32> words) {
  std::vector<Boolean> out;
  out.reserve(32 * words.size());
  for (const UInt32& word : words)
    for (const Boolean& bit : word.into_bits_be()) out.push_back(bit);
  return out;
}

/// One compression of exactly 512 bits from the IV, without padding (sha256.rs
/// `sha256_block_no_padding`); 256 output bits, digest bit order. Throws Error(kInvalidArgument) unless
/// 512 bits.
template <class CS>
std::vector<Boolean> sha256_block_no_padding(CS& cs, std::span<const Boolean> input) {
  if (input.size() != 512)
    throw Error(ErrorCode::kInvalidArgument,
                "sha256_block_no_padding takes 512 bits, not " + std::to_string(input.size()));
  const std::array<UInt32, 8> iv = sha256_iv();
  return sha256_words_to_bits_be(sha256_compression_function(cs, input, iv));
}

/// SHA-256 of a message of whole bytes given as bits, each byte MSB first (sha256.rs `sha256`): pads
/// with constants (a 1 bit, zeros, the 64-bit big-endian bit length), chains the compressions from the
/// constant IV and returns the 256 digest bits, each byte MSB first. 44,874 constraints for 512
/// allocated bits. Throws Error(kInvalidArgument) when the length is not a multiple of 8.
template <class CS>
std::vector<Boolean> sha256(CS& cs, std::span<const Boolean> input) {
  if (input.size() % 8 != 0)
    throw Error(ErrorCode::kInvalidArgument,
                "sha256 takes whole bytes; " + std::to_string(input.size()) + " bits is not a multiple of 8");
  std::vector<Boolean> padded(input.begin(), input.end());
  const uint64_t plen = padded.size();
  padded.push_back(Boolean::constant(true));
  while ((padded.size() + 64) % 512 != 0) padded.push_back(Boolean::constant(false));
  for (int i = 63; i >= 0; i--) padded.push_back(Boolean::constant((plen >> i) & 1));

  std::array<UInt32, 8> cur = sha256_iv();
  for (size_t off = 0; off < padded.size(); off += 512)
    cur = sha256_compression_function(cs, std::span<const Boolean>(padded).subspan(off, 512), cur);
  return sha256_words_to_bits_be(cur);
}

}  // namespace cuzk::circuits
