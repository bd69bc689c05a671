// The registered seal proof table (formats/c1.hpp RegisteredSealProof) and MerkleProof path indices.
#include <string>

#include "circuits/sdr/porep.hpp"
#include "formats/c1.hpp"
#include "util/error.hpp"

namespace cuzk {

namespace {

// The table is sdr's (src/circuits/sdr/porep.hpp: ids, names, partitions, challenges, versions),
// with the sector size's name added.
struct Registry {
  std::array<RegisteredSealProof, 20> rows;
  Registry() {
    for (uint32_t id = 0; id < 20; id++) {
      const auto p = static_cast<sdr::RegisteredSealProof>(id);
      const sdr::PoRepConfig cfg = sdr::porep_config(p);
      RegisteredSealProof& r = rows[id];
      r.id = id;
      r.name = sdr::registered_seal_proof_name(p);
      r.sector_size = cfg.sector_size;
      r.size = cfg.sector_size == 2048                  ? "2KiB"
               : cfg.sector_size == uint64_t{8} << 20   ? "8MiB"
               : cfg.sector_size == uint64_t{512} << 20 ? "512MiB"
               : cfg.sector_size == uint64_t{32} << 30  ? "32GiB"
                                                        : "64GiB";
      r.api_version[0] = 1;
      r.api_version[1] = cfg.api_version == sdr::ApiVersion::kV1_0_0   ? 0
                         : cfg.api_version == sdr::ApiVersion::kV1_1_0 ? 1
                                                                       : 2;
      r.feature = cfg.challenges == sdr::ChallengeKind::kSynthetic        ? PoRepFeature::kSyntheticPoRep
                  : cfg.challenges == sdr::ChallengeKind::kNonInteractive ? PoRepFeature::kNonInteractivePoRep
                                                                          : PoRepFeature::kInteractive;
      r.partitions = cfg.partitions;
      r.challenges_per_partition = cfg.challenges_per_partition();
    }
  }
};

const Registry& registry() {
  static const Registry r;
  return r;
}

}  // namespace

std::string RegisteredSealProof::shape_key() const { return "StackedDrg" + std::string(size) + "V1"; }

Bytes32 RegisteredSealProof::porep_id() const {
  return sdr::porep_id(static_cast<sdr::RegisteredSealProof>(id));
}

std::span<const RegisteredSealProof> registered_seal_proofs() { return registry().rows; }

const RegisteredSealProof& registered_seal_proof(std::string_view name) {
  for (const RegisteredSealProof& r : registry().rows)
    if (r.name == name) return r;
  throw Error(ErrorCode::kInvalidArgument,
              "unknown registered seal proof '" + std::string(name) +
                  "' (StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}{V1,V1_1,V1_1_Feat_SyntheticPoRep,"
                  "V1_2_Feat_NonInteractivePoRep})");
}

const RegisteredSealProof& registered_seal_proof_by_id(uint64_t id) {
  if (id >= 20)
    throw Error(ErrorCode::kInvalidArgument,
                "unknown registered seal proof id " + std::to_string(id) + " (0..19)");
  return registry().rows[id];
}

uint64_t C1MerkleProof::path_index() const {
  uint64_t index = 0, scale = 1;
  for (const circuits::PathLevel& l : path) {
    index += l.index * scale;
    scale *= l.siblings.size() + 1;
  }
  return index;
}

}  // namespace cuzk
