// Filecoin's proof kinds as the device planner sees them (groth16/device_plan.hpp): per kind, the points
// of its key's vectors and the bytes of its compact rows, known without reading its .params file (47 GB
// for a 32 GiB PoRep), so that `cuzk info gpu` shows how each kind would be laid out on a GPU budget.
// The densities of A and B decide the A/B_G1/B_G2 point counts and only a recording of the circuit gives
// them (seconds to a minute, and 9 to over 22 GB of memory per 2^27 kind), so the kinds come from a table
// measured once by measure_proof_kind (`cuzk info gpu --measure`) and checked against the circuits' cheap
// counts by the tests.
#pragma once

#include <string>
#include <vector>

#include "groth16/compact_cs.hpp"
#include "groth16/device_plan.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::engine {

/// One partition of a Filecoin proof kind: its key's shape and its rows.
struct ProofKindShape {
  std::string name;        ///< "PoRep C2 32 GiB", "WindowPoSt 32 GiB", …
  std::string circuit_id;  ///< the daemon's circuit id: "porep-32g", "wpost-32g", "winning-32g", "snap-32g"
  DeviceShape shape;       ///< points per vector, rows_bytes and rows_table_bytes (ntt_table_bytes left 0)

  /// Host bytes of the key's points (ProvingKey::point_bytes: ic, a, b_g1, l, h at 96 bytes, b_g2 at
  /// 192): the whole key stays in host memory, its streamed vectors are read from there.
  size_t key_host_bytes() const;
};

/// The DeviceShape of the key made for `rows` (bellperson's setup: a = the inputs and the aux set in
/// a_aux; b_g1 = b_g2 = the inputs set in b_inp and the aux set in b_aux; l = n_aux; h = n − 1 or n by
/// the convention), with rows_bytes = rows.bytes() and rows_table_bytes its coefficient table's bytes.
DeviceShape device_shape(const CompactCs& rows);

/// The kinds `cuzk info gpu` describes, one partition each: PoRep C2 32 GiB and 64 GiB, WindowPoSt
/// 32 GiB, WinningPoSt 32 GiB and SnapDeals 32 GiB (a table measured by measure_proof_kind).
const std::vector<ProofKindShape>& filecoin_proof_kinds();

/// The kind of `circuit_id` (one of filecoin_proof_kinds' ids) measured now: its circuit recorded in
/// compact form (engine::porep_circuit, post_circuit, update_compact_cs) on `pool` and device_shape of
/// it. Up to a minute and 9 GB (PoRep) to over 22 GB (SnapDeals: update_compact_cs) of memory. Throws
/// Error(kInvalidArgument) for another id.
ProofKindShape measure_proof_kind(const std::string& circuit_id, ThreadPool& pool);

}  // namespace cuzk::engine
