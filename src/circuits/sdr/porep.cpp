#include "circuits/sdr/porep.hpp"

#include <algorithm>
#include <string>

#include "circuits/sdr/blake2b.hpp"
#include "circuits/sdr/chacha.hpp"
#include "ff/bytes.hpp"
#include "hash/sha256.hpp"
#include "util/error.hpp"

namespace cuzk::sdr {

namespace {

constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;

constexpr std::string_view kProofNames[20] = {
    "StackedDrg2KiBV1",
    "StackedDrg8MiBV1",
    "StackedDrg512MiBV1",
    "StackedDrg32GiBV1",
    "StackedDrg64GiBV1",
    "StackedDrg2KiBV1_1",
    "StackedDrg8MiBV1_1",
    "StackedDrg512MiBV1_1",
    "StackedDrg32GiBV1_1",
    "StackedDrg64GiBV1_1",
    "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg8MiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg512MiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg32GiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg64GiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep",
};

constexpr uint64_t kProofSizes[5] = {2 * kKiB, 8 * kMiB, 512 * kMiB, 32 * kGiB, 64 * kGiB};

[[noreturn]] void invalid(const std::string& msg) {
  throw Error(ErrorCode::kInvalidArgument, "porep: " + msg);
}

bool is_test_size(uint64_t s) {
  return s == 2 * kKiB || s == 4 * kKiB || s == 16 * kKiB || s == 32 * kKiB || s == 8 * kMiB ||
         s == 16 * kMiB || s == 512 * kMiB || s == 1 * kGiB;
}
bool is_production_size(uint64_t s) { return s == 32 * kGiB || s == 64 * kGiB; }

void check_size(uint64_t s) {
  if (!is_test_size(s) && !is_production_size(s)) invalid("unknown sector size " + std::to_string(s));
}

}  // namespace

std::string_view registered_seal_proof_name(RegisteredSealProof p) {
  auto i = size_t(p);
  if (i >= 20) invalid("unknown registered seal proof " + std::to_string(i));
  return kProofNames[i];
}

std::optional<RegisteredSealProof> registered_seal_proof_from_name(std::string_view name) {
  for (size_t i = 0; i < 20; i++)
    if (kProofNames[i] == name) return RegisteredSealProof(i);
  return std::nullopt;
}

PoRepId porep_id(RegisteredSealProof p) {
  auto id = uint64_t(p);
  if (id >= 20) invalid("unknown registered seal proof " + std::to_string(id));
  PoRepId out{};
  for (int i = 0; i < 8; i++) out[i] = uint8_t(id >> (8 * i));  // bytes 8..16: nonce 0
  return out;
}

unsigned sdr_layers(uint64_t sector_size) {
  check_size(sector_size);
  return is_production_size(sector_size) ? 11 : 2;
}

unsigned PoRepConfig::layers() const { return sdr_layers(sector_size); }

uint32_t PoRepConfig::minimum_challenges() const {
  check_size(sector_size);
  bool prod = is_production_size(sector_size);
  if (challenges == ChallengeKind::kNonInteractive) return prod ? 2253 : 26;
  return prod ? 176 : 2;
}

uint32_t PoRepConfig::challenges_per_partition() const {
  if (partitions == 0) invalid("partitions must be > 0");
  uint32_t m = minimum_challenges();
  return 1 + (m - 1) / partitions;
}

void PoRepConfig::validate() const {
  check_size(sector_size);
  uint32_t c = challenges_per_partition();
  if (c > 18) invalid(std::to_string(c) + " challenges per partition exceed the circuits' 18");
  if (partitions > 255) invalid("partitions must fit a u8");
  if (challenges != ChallengeKind::kInteractive && api_version != ApiVersion::kV1_2_0)
    invalid("synthetic and non-interactive PoRep need API version 1.2");
}

PoRepConfig porep_config(RegisteredSealProof p) {
  auto i = unsigned(p);
  if (i >= 20) invalid("unknown registered seal proof " + std::to_string(i));
  PoRepConfig c;
  c.sector_size = kProofSizes[i % 5];
  c.porep_id = porep_id(p);
  bool prod = is_production_size(c.sector_size);
  switch (i / 5) {
    case 0:
      c.api_version = ApiVersion::kV1_0_0;
      c.challenges = ChallengeKind::kInteractive;
      c.partitions = prod ? 10 : 1;
      break;
    case 1:
      c.api_version = ApiVersion::kV1_1_0;
      c.challenges = ChallengeKind::kInteractive;
      c.partitions = prod ? 10 : 1;
      break;
    case 2:
      c.api_version = ApiVersion::kV1_2_0;
      c.challenges = ChallengeKind::kSynthetic;
      c.partitions = prod ? 10 : 1;
      break;
    default:
      c.api_version = ApiVersion::kV1_2_0;
      c.challenges = ChallengeKind::kNonInteractive;
      c.partitions = prod ? 126 : 13;
      break;
  }
  return c;
}

Domain replica_id(const Domain& prover_id, uint64_t sector_id, const Domain& ticket, const Domain& comm_d,
                  const PoRepId& porep_id) {
  Sha256 h;
  h.update(prover_id.data(), 32);
  uint8_t be[8];
  for (int i = 0; i < 8; i++) be[i] = uint8_t(sector_id >> (56 - 8 * i));
  h.update(be, 8);
  h.update(ticket.data(), 32);
  h.update(comm_d.data(), 32);
  h.update(porep_id.data(), 32);
  Domain r = h.finish();
  r[31] &= 0x3f;
  return r;
}

uint64_t bytes_to_challenge(const uint8_t le_bytes[32], uint64_t nodes) {
  if (nodes < 2 || nodes > (uint64_t(1) << 32)) invalid("challenge: nodes must be in [2, 2^32]");
  const uint64_t m = nodes - 1;
  uint64_t r = 0;
  for (int i = 31; i >= 0; i--) r = ((r << 8) | le_bytes[i]) % m;  // r < 2^32, so r·256 + b fits
  return r + 1;
}

std::vector<uint64_t> interactive_challenges(uint64_t nodes, const Domain& replica_id, const Domain& seed,
                                             uint32_t k, uint32_t count) {
  std::vector<uint64_t> out(count);
  for (uint32_t i = 0; i < count; i++) {
    Sha256 h;
    h.update(replica_id.data(), 32);
    h.update(seed.data(), 32);
    h.update_u32_le(count * k + i);
    auto d = h.finish();
    out[i] = bytes_to_challenge(d.data(), nodes);
  }
  return out;
}

std::vector<uint64_t> ni_challenges(uint64_t nodes, const Domain& replica_id, const Domain& comm_r,
                                    uint32_t k, uint32_t count) {
  static constexpr std::string_view kTag = "filecoin.io|PoRep|1|NonInteractive|1";
  std::vector<uint64_t> out(count);
  for (uint32_t i = 0; i < count; i++) {
    Sha256 h;
    h.update(kTag.data(), kTag.size());
    h.update(replica_id.data(), 32);
    h.update(comm_r.data(), 32);
    h.update_u32_le(count * k + i);
    auto d = h.finish();
    out[i] = bytes_to_challenge(d.data(), nodes);
  }
  return out;
}

namespace {

constexpr std::array<uint8_t, 12> kSynthNonce = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};

std::array<uint8_t, 32> synth_key(std::string_view tag, const Domain& a, const Domain& b) {
  Blake2b h(32, {reinterpret_cast<const uint8_t*>(tag.data()), tag.size()});
  h.update(a);
  h.update(b);
  std::array<uint8_t, 32> k;
  h.finish(k.data());
  return k;
}

}  // namespace

SynthChallenges::SynthChallenges(uint64_t nodes, const Domain& replica_id, const Domain& comm_r,
                                 std::optional<uint64_t> num_synth)
    : nodes_(nodes),
      num_synth_(num_synth.value_or(std::min<uint64_t>(nodes, uint64_t(1) << 18))),
      replica_id_(replica_id) {
  if (nodes < 2) invalid("synthetic challenges: nodes must be ≥ 2");
  if (num_synth_ == 0 || num_synth_ >= (uint64_t(1) << 32))
    invalid("synthetic challenges: the count must be in [1, 2^32)");
  gen_key_ = synth_key("filecoin.io|PoRep|1|Synthetic|1|Generation", replica_id, comm_r);
}

uint64_t SynthChallenges::synth_challenge(uint64_t i) const {
  if (i >= num_synth_) invalid("synthetic challenge index out of range");
  ChaCha20 c(gen_key_, kSynthNonce);
  c.seek(i * 32);
  uint8_t b[32] = {};
  c.apply_keystream(b);
  return bytes_to_challenge(b, nodes_);
}

std::vector<uint64_t> SynthChallenges::all() const {
  ChaCha20 c(gen_key_, kSynthNonce);
  std::vector<uint64_t> out(num_synth_);
  for (auto& x : out) {
    uint8_t b[32] = {};
    c.apply_keystream(b);
    x = bytes_to_challenge(b, nodes_);
  }
  return out;
}

std::vector<uint64_t> SynthChallenges::partition_indexes(const Domain& seed, uint32_t k,
                                                         uint32_t count) const {
  ChaCha20 c(synth_key("filecoin.io|PoRep|1|Synthetic|1|Selection", replica_id_, seed), kSynthNonce);
  // Upstream seeks with a u32 byte position.
  uint64_t first = uint64_t(k) * count * 4;
  if (first > 0xffffffffULL) invalid("synthetic challenges: partition seek past u32");
  c.seek(first);
  std::vector<uint8_t> bytes(size_t(count) * 4, 0);
  c.apply_keystream(bytes);
  std::vector<uint64_t> out(count);
  for (uint32_t i = 0; i < count; i++) {
    uint32_t v = uint32_t(bytes[4 * i]) | (uint32_t(bytes[4 * i + 1]) << 8) |
                 (uint32_t(bytes[4 * i + 2]) << 16) | (uint32_t(bytes[4 * i + 3]) << 24);
    out[i] = v % num_synth_;
  }
  return out;
}

std::vector<uint64_t> SynthChallenges::partition_challenges(const Domain& seed, uint32_t k,
                                                            uint32_t count) const {
  auto idx = partition_indexes(seed, k, count);
  for (auto& i : idx) i = synth_challenge(i);
  return idx;
}

std::vector<uint64_t> partition_challenges(const PoRepConfig& cfg, const Domain& replica_id,
                                           const Domain& comm_r, const Domain& seed, uint32_t k) {
  cfg.validate();
  if (k >= cfg.partitions) invalid("partition " + std::to_string(k) + " out of range");
  const uint32_t count = cfg.challenges_per_partition();
  switch (cfg.challenges) {
    case ChallengeKind::kInteractive:
      return interactive_challenges(cfg.nodes(), replica_id, seed, k, count);
    case ChallengeKind::kSynthetic:
      return SynthChallenges(cfg.nodes(), replica_id, comm_r).partition_challenges(seed, k, count);
    case ChallengeKind::kNonInteractive:
      return ni_challenges(cfg.nodes(), replica_id, comm_r, k, count);
  }
  invalid("unknown challenge kind");
}

std::vector<ChallengeParents> partition_challenge_parents(const PoRepConfig& cfg, const SdrGraph& graph,
                                                          const Domain& replica_id, const Domain& comm_r,
                                                          const Domain& seed, uint32_t k) {
  if (graph.nodes() != cfg.nodes() || graph.porep_id() != cfg.porep_id ||
      (graph.api_version() == ApiVersion::kV1_0_0) != (cfg.api_version == ApiVersion::kV1_0_0))
    invalid("the graph does not belong to the config (nodes, porep_id or API version)");
  auto cs = partition_challenges(cfg, replica_id, comm_r, seed, k);
  std::vector<ChallengeParents> out(cs.size());
  for (size_t i = 0; i < cs.size(); i++) {
    out[i].challenge = cs[i];
    graph.drg_parents(cs[i], out[i].drg.data());
    graph.exp_parents(cs[i], out[i].exp.data());
  }
  return out;
}

std::vector<Fr> partition_public_inputs(const PoRepConfig& cfg, const SdrGraph& graph,
                                        const SealPublicData& seal, uint32_t k) {
  const Domain zero{};
  if (seal.comm_d == zero) invalid("invalid all zero commitment (comm_d)");
  if (seal.comm_r == zero) invalid("invalid all zero commitment (comm_r)");
  Fr comm_r, comm_d, rid;
  if (!from_bytes_le(seal.comm_r.data(), comm_r)) invalid("invalid commitment (comm_r): not a field element");
  if (!from_bytes_le(seal.comm_d.data(), comm_d)) invalid("invalid commitment (comm_d): not a field element");
  const Domain r = replica_id(seal.prover_id, seal.sector_id, seal.ticket, seal.comm_d, cfg.porep_id);
  if (!from_bytes_le(r.data(), rid)) invalid("internal: replica_id not a field element");
  auto chals = partition_challenge_parents(cfg, graph, r, seal.comm_r, seal.seed, k);
  std::vector<Fr> in;
  in.reserve(3 + 18 * chals.size());
  in.push_back(rid);
  in.push_back(comm_d);
  in.push_back(comm_r);
  for (const auto& c : chals) {
    Fr ch = Fr::from_u64(c.challenge);
    in.push_back(ch);
    for (uint32_t p : c.drg) in.push_back(Fr::from_u64(p));
    for (uint32_t p : c.exp) in.push_back(Fr::from_u64(p));
    in.push_back(ch);
    in.push_back(ch);
    in.push_back(ch);
  }
  return in;
}

}  // namespace cuzk::sdr
