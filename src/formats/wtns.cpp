#include "formats/wtns.hpp"

#include <algorithm>
#include <string>

#include "ff/bytes.hpp"
#include "formats/binfile.hpp"
#include "formats/primes.hpp"
#include "util/error.hpp"
#include "util/plural.hpp"

namespace cuzk {
namespace {

/// Section 1 of a BLS12-381 witness: n8 = 32, prime r, nWitness.
std::vector<uint8_t> header_payload(uint32_t n) {
  std::vector<uint8_t> h(4 + 32 + 4, 0);
  h[0] = 32;
  for (int i = 0; i < 32; i++) h[4 + i] = (uint8_t)(FrParams::mod(i / 8) >> (8 * (i % 8)));
  for (int i = 0; i < 4; i++) h[36 + i] = (uint8_t)(n >> (8 * i));
  return h;
}

void write_wtns_to(BinFileWriter& w, std::span<const Fr> witness) {
  w.add_section(1, header_payload((uint32_t)witness.size()));
  w.begin_section(2);
  std::vector<uint8_t> buf;
  constexpr size_t kBatch = 1 << 14;
  buf.resize(kBatch * 32);
  for (size_t i = 0; i < witness.size(); i += kBatch) {
    size_t n = std::min(kBatch, witness.size() - i);
    for (size_t k = 0; k < n; k++) to_bytes_le(witness[i + k], buf.data() + 32 * k);
    w.write({buf.data(), 32 * n});
  }
  w.end_section();
}

void check_count(std::span<const Fr> witness) {
  if (witness.size() > UINT32_MAX)
    throw Error(ErrorCode::kInvalidArgument,
                "a .wtns file holds at most 2^32 - 1 values, got " + std::to_string(witness.size()));
}

}  // namespace

std::vector<Fr> read_wtns(const std::filesystem::path& path) { return read_wtns(BinFile::open(path, "wtns", 2)); }

std::vector<Fr> read_wtns(const BinFile& file) {
  uint32_t n;
  {
    ByteReader rd(file.section(1, "header"), file.name() + ": section 1 (header)");
    expect_scalar_field_header(rd);
    n = rd.u32();
    rd.expect_end();
  }
  auto values = file.section(2, "witness values");
  if (values.size() != (uint64_t)n * 32)
    file.fail("section 2 (witness values) has " + counted(values.size(), "byte") +
              ", expected nWitness·32 = " + std::to_string((uint64_t)n * 32) +
              " (nWitness = " + std::to_string(n) + ")");
  std::vector<Fr> w(n);
  for (uint32_t i = 0; i < n; i++)
    if (!from_bytes_le(values.data() + 32 * (size_t)i, w[i]))
      file.fail("witness value " + std::to_string(i) + " is not below the Fr modulus r (non-canonical)");
  return w;
}

void write_wtns(const std::filesystem::path& path, std::span<const Fr> witness) {
  check_count(witness);
  BinFileWriter w(path, "wtns", 2);
  write_wtns_to(w, witness);
  w.commit();
}

std::vector<uint8_t> wtns_bytes(std::span<const Fr> witness) {
  check_count(witness);
  BinFileWriter w("wtns", 2);
  write_wtns_to(w, witness);
  return w.take_bytes();
}

}  // namespace cuzk
