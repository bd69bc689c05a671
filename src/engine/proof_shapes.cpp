#include "engine/proof_shapes.hpp"

#include "circuits/fallback_post.hpp"
#include "engine/porep.hpp"
#include "engine/post.hpp"
#include "engine/update.hpp"
#include "util/error.hpp"

namespace cuzk::engine {
namespace {

/// One row of the table: what measure_proof_kind gives, in DeviceShape's terms.
struct Row {
  const char* name;
  const char* circuit_id;
  int log_n;
  size_t n_inputs, n_aux, a, b;  // b: b_g1 = b_g2 points
  size_t rows_bytes, rows_table_bytes;
};

// Measured by `cuzk info gpu --measure` (measure_proof_kind; 2 cores, 23 GB) on commit c38f597, except
// SnapDeals: update_compact_cs("32GiB") records the circuit, expands it and compacts it, more than 22 GB at
// once, so its row came from the same counts taken on the recording alone (densities from the A and B
// terms, compact()'s matrices and per-block coefficient table), a computation that gave update_compact_cs's
// exact numbers for 2 KiB, 8 MiB and 512 MiB. n_inputs, n_aux and log_n are those of `cuzk porep r1cs
// --sector-size 32GiB|64GiB` (POREP_CIRCUIT.md §1), `cuzk post r1cs --registered-proof 8|3` and `cuzk snap
// r1cs --sector-size 32GiB`; ProofShapes.TableAgreesWithTheCircuitCounts checks them against the circuits.
constexpr Row kRows[] = {
    // name, circuit id, log_n, inputs (ONE included), aux, a points, b_g1 = b_g2 points, rows bytes,
    // of which the coefficient table
    {"PoRep C2 32 GiB", "porep-32g", 27, 328, 130169893, 129753620, 33112282, 8905882920, 78912},
    {"PoRep C2 64 GiB", "porep-64g", 27, 328, 131076643, 130637870, 33386944, 8969673768, 78912},
    {"WindowPoSt 32 GiB", "wpost-32g", 27, 25840, 126902376, 96205645, 91925767, 12185083840, 31520},
    {"WinningPoSt 32 GiB", "winning-32g", 19, 133, 375210, 284329, 272185, 36058072, 31520},
    {"SnapDeals 32 GiB", "snap-32g", 27, 5, 80978488, 80743586, 20983608, 5501984560, 7352192},
};

}  // namespace

size_t ProofKindShape::key_host_bytes() const {
  const DeviceShape& s = shape;
  return (s.n_inputs + s.a + s.b_g1 + s.l + s.h) * 96 + s.b_g2 * 192;
}

DeviceShape device_shape(const CompactCs& rows) {
  DeviceShape s;
  s.log_n = rows.log_n;
  s.n_inputs = rows.n_inputs;
  s.n_aux = rows.n_aux;
  s.a = rows.n_inputs + rows.a_aux.popcount();
  s.b_g1 = s.b_g2 = rows.b_inp.popcount() + rows.b_aux.popcount();
  s.l = rows.n_aux;
  s.h = rows.convention == HConvention::kBellperson ? rows.domain_size() - 1 : rows.domain_size();
  s.rows_bytes = rows.bytes();
  s.rows_table_bytes = rows.table.size() * sizeof(Fr);
  return s;
}

const std::vector<ProofKindShape>& filecoin_proof_kinds() {
  static const std::vector<ProofKindShape> kinds = [] {
    std::vector<ProofKindShape> out;
    for (const Row& r : kRows) {
      ProofKindShape k;
      k.name = r.name;
      k.circuit_id = r.circuit_id;
      DeviceShape& s = k.shape;
      s.log_n = r.log_n;
      s.n_inputs = r.n_inputs;
      s.n_aux = r.n_aux;
      s.a = r.a;
      s.b_g1 = s.b_g2 = r.b;
      s.l = r.n_aux;
      s.h = (size_t{1} << r.log_n) - 1;  // bellperson's convention
      s.rows_bytes = r.rows_bytes;
      s.rows_table_bytes = r.rows_table_bytes;
      out.push_back(std::move(k));
    }
    return out;
  }();
  return kinds;
}

ProofKindShape measure_proof_kind(const std::string& circuit_id, ThreadPool& pool) {
  ProofKindShape k;
  for (const Row& r : kRows)
    if (circuit_id == r.circuit_id) k.name = r.name;
  if (k.name.empty())
    throw Error(ErrorCode::kInvalidArgument, "measure_proof_kind: unknown proof kind \"" + circuit_id + "\"");
  k.circuit_id = circuit_id;
  if (circuit_id == "porep-32g" || circuit_id == "porep-64g") {
    k.shape = device_shape(*porep_circuit(circuit_id == "porep-32g" ? "32GiB" : "64GiB", pool)->rows);
  } else if (circuit_id == "wpost-32g" || circuit_id == "winning-32g") {
    const auto type = circuit_id == "wpost-32g" ? circuits::PostType::kWindow : circuits::PostType::kWinning;
    k.shape = device_shape(*post_circuit(circuits::post_shape(type, "32GiB"), pool)->rows);
  } else {
    k.shape = device_shape(update_compact_cs("32GiB", pool));
  }
  return k;
}

}  // namespace cuzk::engine
