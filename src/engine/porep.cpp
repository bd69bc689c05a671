#include "engine/porep.hpp"

#include <map>
#include <mutex>

#include "circuits/sdr/porep.hpp"
#include "ff/bytes.hpp"
#include "groth16/prover.hpp"
#include "hash/poseidon.hpp"
#include "util/error.hpp"

namespace cuzk::engine {

std::shared_ptr<const PorepCircuit> porep_circuit(const std::string& sector_size, ThreadPool& pool) {
  static std::mutex mu;
  static std::map<std::string, std::weak_ptr<const PorepCircuit>> cache;
  const circuits::StackedShape shape = circuits::stacked_shape(sector_size);  // throws for unknown sizes
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = cache[sector_size];
  if (auto held = slot.lock()) return held;
  auto c = std::make_shared<PorepCircuit>();
  c->shape = shape;
  c->layout = circuits::stacked_layout(shape);
  c->rows = std::make_shared<const CompactCs>(circuits::stacked_compact_cs(shape, pool));
  std::shared_ptr<const PorepCircuit> out = std::move(c);
  slot = out;
  return out;
}

const std::vector<std::string>& porep_sector_sizes() {
  static const std::vector<std::string> sizes = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};
  return sizes;
}

std::string porep_circuit_id(const std::string& s) {
  static const std::map<std::string, std::string> ids = {{"2KiB", "porep-2k"},
                                                         {"8MiB", "porep-8m"},
                                                         {"512MiB", "porep-512m"},
                                                         {"32GiB", "porep-32g"},
                                                         {"64GiB", "porep-64g"}};
  auto it = ids.find(s);
  if (it == ids.end())
    throw Error(ErrorCode::kInvalidArgument, "no Filecoin PoRep circuit for sector size '" + s + "'");
  return it->second;
}

std::string porep_param_stem(const std::string& s) {
  static const std::map<std::string, std::string> names = {
      {"2KiB", "8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f"},
      {"8MiB", "8-0-0-sha256_hasher-ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb"},
      {"512MiB", "8-0-0-sha256_hasher-6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472"},
      {"32GiB", "8-8-0-sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820"},
      {"64GiB", "8-8-2-sha256_hasher-96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2"}};
  auto it = names.find(s);
  if (it == names.end())
    throw Error(ErrorCode::kInvalidArgument, "no Filecoin PoRep parameters for sector size '" + s + "'");
  return "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-" + it->second;
}

void check_c1_challenges(const C1Output& c1, const std::string& source) {
  const auto proof = sdr::registered_seal_proof_from_name(c1.registered_proof.name);
  if (!proof) throw Error(ErrorCode::kInvalidFile, source + ": unknown registered proof");
  const sdr::PoRepConfig cfg = sdr::porep_config(*proof);
  const sdr::SdrGraph graph(cfg.nodes(), cfg.porep_id, cfg.api_version);
  for (uint32_t k = 0; k < c1.vanilla_proofs.size(); k++) {
    const auto want = sdr::partition_challenge_parents(cfg, graph, c1.replica_id, c1.comm_r, c1.seed, k);
    const auto challenges = partition_challenges(c1, k);
    const auto parents = partition_parents(c1, k);
    for (size_t i = 0; i < want.size() && i < challenges.size(); i++) {
      const std::string at =
          source + ": partition " + std::to_string(k) + ", challenge " + std::to_string(i) + ": ";
      if (challenges[i] != want[i].challenge)
        throw Error(ErrorCode::kInvalidFile, at + "node " + std::to_string(challenges[i]) +
                                                 ", but the seed and replica_id give node " +
                                                 std::to_string(want[i].challenge));
      for (size_t p = 0; p < 14; p++) {
        const uint64_t w = p < 6 ? want[i].drg[p] : want[i].exp[p - 6];
        if (parents[i][p] != w)
          throw Error(ErrorCode::kInvalidFile, at + (p < 6 ? "DRG parent " : "expander parent ") +
                                                   std::to_string(p < 6 ? p : p - 6) + " is node " +
                                                   std::to_string(parents[i][p]) +
                                                   ", but the SDR graph gives " + std::to_string(w));
      }
    }
  }
}

namespace {

/// The 32 bytes as 64 hex digits, in their order (the C1's little-endian field representation).
std::string hex_of(const Bytes32& b) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (uint8_t c : b) out += {kHex[c >> 4], kHex[c & 15]};
  return out;
}

}  // namespace

void check_c1_comm_r(const C1Output& c1, const std::string& source) {
  if (c1.vanilla_proofs.empty() || c1.vanilla_proofs[0].empty())
    throw Error(ErrorCode::kInvalidFile, source + ": no vanilla proofs, so no comm_c and comm_r_last");
  const C1VanillaProof& v = c1.vanilla_proofs[0][0];
  const Fr pre[2] = {v.replica_column_proofs.c_x.inclusion_proof.root, v.comm_r_last_proof.root};
  const Fr want = poseidon_hash(pre, poseidon_constants(2));
  Bytes32 want_bytes;
  to_bytes_le(want, want_bytes.data());
  if (want_bytes != c1.comm_r)
    throw Error(ErrorCode::kInvalidFile, source + ": comm_r " + hex_of(c1.comm_r) +
                                             " is not Poseidon(comm_c, comm_r_last) = " + hex_of(want_bytes) +
                                             " of its vanilla proofs (the circuit would not be satisfied)");
}

namespace {

/// The circuit's inputs (ONE first) of partition k must equal those computed from the C1 alone.
void check_public_inputs(const C1Output& c1, size_t k, std::span<const Fr> inputs) {
  const std::vector<Fr> want = partition_public_inputs(c1, k);
  if (want.size() + 1 != inputs.size() || !std::equal(want.begin(), want.end(), inputs.begin() + 1))
    throw Error(ErrorCode::kInternal,
                "partition " + std::to_string(k) +
                    ": the circuit's public inputs differ from those computed from the C1");
}

/// A C1 whose vanilla proof of partition k has an opening that does not lead to its root (stacked_witness's
/// `bad_opening`) is refused before any proving: its witness satisfies no proof.
void check_openings(size_t k, const std::string& bad) {
  if (!bad.empty())
    throw Error(ErrorCode::kInvalidArgument, "vanilla_proof: partition " + std::to_string(k) + ": " + bad +
                                                 ": the C1 is corrupt or belongs to another sector");
}

}  // namespace

std::vector<Fr> porep_partition_witness(const C1Output& c1, size_t k, const PorepCircuit& circuit,
                                        ThreadPool& pool) {
  const circuits::StackedWitness w = partition_witness(c1, k, circuit.shape);
  std::string bad;
  std::vector<Fr> full = circuits::stacked_witness(circuit.shape, w, circuit.layout, pool, nullptr, &bad);
  check_openings(k, bad);
  check_public_inputs(c1, k, std::span<const Fr>(full).first(circuit.layout.n_inputs));
  return full;
}

Assignment porep_partition_assignment(const C1Output& c1, size_t k,
                                      const std::shared_ptr<const PorepCircuit>& circuit, ThreadPool& pool) {
  const circuits::StackedWitness w = partition_witness(c1, k, circuit->shape);
  const CompactCs& rows = *circuit->rows;
  Assignment asg;
  asg.log_n = rows.log_n;
  asg.inputs.resize(rows.n_inputs);
  asg.aux.vec().resize(rows.n_aux);  // BigVector: default-initialized, every value written below
  std::string bad;
  circuits::stacked_witness_into(circuit->shape, w, circuit->layout, pool, asg.inputs, asg.aux.vec(), nullptr,
                                 &bad);
  check_openings(k, bad);
  check_public_inputs(c1, k, asg.inputs);
  asg.a_aux = rows.a_aux;
  asg.b_inp = rows.b_inp;
  asg.b_aux = rows.b_aux;
  asg.rows = std::shared_ptr<const CompactCs>(circuit, circuit->rows.get());
  return asg;
}

LoadedCircuit load_porep(const std::filesystem::path& params,
                         const std::shared_ptr<const PorepCircuit>& circuit,
                         const ParamsReadOptions& options) {
  ParamsReadOptions o = options;
  o.rows = circuit->rows.get();  // what the vectors to release are planned with
  auto key = std::make_shared<const ProvingKey>(read_params(params, o));
  check_key_fits(*key, *circuit->rows,
                 params.string() + " and the " + circuit->shape.name + " PoRep circuit");
  // The rows alias the PorepCircuit: while the registry holds them, porep_circuit returns this circuit.
  LoadedCircuit out;
  out.key = key;
  out.rows = std::shared_ptr<const CompactCs>(circuit, circuit->rows.get());
  return out;
}

std::vector<WitnessInput> porep_job_partitions(std::shared_ptr<const C1Output> c1) {
  std::vector<WitnessInput> out(c1->vanilla_proofs.size());
  const std::string size(c1->registered_proof.size);
  for (size_t k = 0; k < out.size(); k++)
    out[k].assign = [c1, k, size](const LoadedCircuit& leased, ThreadPool& pool) {
      // The leased circuit holds its PorepCircuit (load_porep), so this finds it rather than building one.
      const std::shared_ptr<const PorepCircuit> circuit = porep_circuit(size, pool);
      if (circuit->rows != leased.rows)
        throw Error(ErrorCode::kInternal, "partition " + std::to_string(k) + ": the circuit is not the " +
                                              size + " PoRep circuit (register it with load_porep)");
      return porep_partition_assignment(*c1, k, circuit, pool);
    };
  return out;
}

}  // namespace cuzk::engine
