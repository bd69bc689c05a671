// libFuzzer target: the .r1cs reader (formats/r1cs.hpp). Property: what it accepts is consistent (every
// matrix has n_constraints rows, every column index names a wire, wire_to_label has n_wires entries or none).
#include <cstdint>
#include <vector>

#include "formats/binfile.hpp"
#include "formats/r1cs.hpp"
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  R1cs r;
  const bool ok = fuzz::accepts([&] {
    r = read_r1cs(BinFile::from_bytes(std::vector<uint8_t>(data, data + size), "fuzz.r1cs", "r1cs", 1));
  });
  if (!ok) return 0;
  for (const SparseMatrix* m : {&r.a, &r.b, &r.c}) {
    if (m->rows() != r.n_constraints) fuzz::finding("a matrix does not have n_constraints rows");
    for (uint32_t col : m->cols)
      if (col >= r.n_wires) fuzz::finding("a column index past n_wires was accepted");
  }
  if (!r.wire_to_label.empty() && r.wire_to_label.size() != r.n_wires)
    fuzz::finding("wire_to_label does not have n_wires entries");
  return 0;
}
