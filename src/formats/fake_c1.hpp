// A fake sealed sector's C1 output (test data and benchmarks): a committed-capacity sector (all-zero
// data, so comm_d is the zero tree's root and replica_id, challenges and parents follow from the chain's
// data exactly as Filecoin derives them), whose challenged columns are labelled natively from their
// parents' columns and whose trees C and R are sparse: every leaf no proof opens is 0, so each level has
// a default hash and all openings share their roots even at 2^31 leaves. The circuit never checks the
// graph's unopened nodes, so the C1 satisfies the StackedCircuit and its public inputs equal
// verify_seal's. Interactive PoRep only (V1, V1_1): synthetic and non-interactive challenges depend on
// comm_r, which a sparse fake sector cannot fix before its trees exist.
#pragma once

#include <cstdint>
#include <string>

#include "circuits/sdr/porep.hpp"
#include "formats/c1.hpp"

namespace cuzk {

class ThreadPool;

/// A fake sector: its C1 and what the chain holds of it (verify_seal's arguments).
struct FakeSector {
  C1Output c1;
  sdr::SealPublicData seal;
};

/// Makes the fake sector of `registered_proof` (a variant name, e.g. "StackedDrg2KiBV1_1") from `seed`:
/// prover_id, sector_id, ticket and the interactive seed are drawn from it, so the result is
/// deterministic. Throws Error(kInvalidArgument) for an unknown or non-interactive registered proof.
FakeSector make_fake_sector(const std::string& registered_proof, uint64_t seed, ThreadPool* pool = nullptr);

}  // namespace cuzk
