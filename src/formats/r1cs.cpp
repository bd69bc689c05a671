#include "formats/r1cs.hpp"

#include <string>

#include "ff/bytes.hpp"
#include "formats/binfile.hpp"
#include "formats/primes.hpp"
#include "util/error.hpp"
#include "util/plural.hpp"

namespace cuzk {
namespace {

/// Reads one linear combination of constraint `j` into `m` (appending a row).
void read_lc(ByteReader& rd, SparseMatrix& m, uint32_t j, char which, uint32_t n_wires) {
  const uint32_t n = rd.u32();
  // Each term is 36 bytes: reject absurd counts before reserving anything.
  if ((uint64_t)n * 36 > rd.remaining())
    rd.fail("truncated: constraint " + std::to_string(j) + " " + which + " claims " + counted(n, "term") +
            " (" + counted((uint64_t)n * 36, "byte") + "), " + std::to_string(rd.remaining()) + " left");
  for (uint32_t t = 0; t < n; t++) {
    uint32_t wire = rd.u32();
    auto coeff = rd.take(32);
    if (wire >= n_wires)
      rd.fail("constraint " + std::to_string(j) + " " + which + " term " + std::to_string(t) + ": wire " +
              std::to_string(wire) + " is not below nWires = " + std::to_string(n_wires));
    Fr v;
    if (!from_bytes_le(coeff.data(), v))
      rd.fail("constraint " + std::to_string(j) + " " + which + " term " + std::to_string(t) +
              ": coefficient is not below the Fr modulus r");
    m.cols.push_back(wire);
    m.vals.push_back(v);
  }
  m.row_offsets.push_back(m.cols.size());
}

}  // namespace

R1cs read_r1cs(const std::filesystem::path& path) { return read_r1cs(BinFile::open(path, "r1cs", 1)); }

R1cs read_r1cs(const BinFile& file) {
  R1cs r;
  {
    ByteReader rd(file.section(1, "header"), file.name() + ": section 1 (header)");
    expect_scalar_field_header(rd);
    r.n_wires = rd.u32();
    r.n_pub_out = rd.u32();
    r.n_pub_in = rd.u32();
    r.n_prv_in = rd.u32();
    r.n_labels = rd.u64();
    r.n_constraints = rd.u32();
    rd.expect_end();
    // Wire 0 and the public signals always have wires. Private inputs need not: circom drops unused
    // ones from the witness but still counts them in nPrvIn (`signal input x;` alone: nWires = 1,
    // nPrvIn = 1), and snarkjs accepts that, so nPrvIn is not checked against nWires. nConstraints = 0
    // is a valid circuit too.
    if (1ull + r.n_pub_out + r.n_pub_in > r.n_wires)
      rd.fail("1 + nPubOut + nPubIn = " + std::to_string(1ull + r.n_pub_out + r.n_pub_in) +
              " exceeds nWires = " + std::to_string(r.n_wires));
  }
  {
    ByteReader rd(file.section(2, "constraints"), file.name() + ": section 2 (constraints)");
    // Every constraint takes at least 12 bytes (three term counts).
    if ((uint64_t)r.n_constraints * 12 > rd.remaining())
      rd.fail("truncated: nConstraints = " + std::to_string(r.n_constraints) + " needs at least " +
              counted((uint64_t)r.n_constraints * 12, "byte") + ", the section has " +
              std::to_string(rd.remaining()));
    for (SparseMatrix* m : {&r.a, &r.b, &r.c}) m->row_offsets.reserve((size_t)r.n_constraints + 1);
    for (uint32_t j = 0; j < r.n_constraints; j++) {
      read_lc(rd, r.a, j, 'A', r.n_wires);
      read_lc(rd, r.b, j, 'B', r.n_wires);
      read_lc(rd, r.c, j, 'C', r.n_wires);
    }
    rd.expect_end();
  }
  if (auto s3 = file.optional_section(3, "wire to label map")) {
    ByteReader rd(*s3, file.name() + ": section 3 (wire to label map)");
    if (s3->size() != (uint64_t)r.n_wires * 8)
      rd.fail("has " + counted(s3->size(), "byte") +
              ", expected nWires·8 = " + std::to_string((uint64_t)r.n_wires * 8));
    r.wire_to_label.resize(r.n_wires);
    for (auto& l : r.wire_to_label) l = rd.u64();
  }
  return r;
}

}  // namespace cuzk
