#include "info.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "backend_select.hpp"
#include "formats/params.hpp"
#include "formats/proof_zcash.hpp"
#include "formats/r1cs.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/wtns.hpp"
#include "formats/zkey.hpp"
#include "util/error.hpp"
#include "util/plural.hpp"

namespace cuzk::cli {
namespace {

std::string human(uint64_t bytes) {
  char buf[32];
  if (bytes >= (1ULL << 30))
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / double(1ULL << 30));
  else if (bytes >= (1ULL << 20))
    std::snprintf(buf, sizeof buf, "%.2f MiB", bytes / double(1ULL << 20));
  else
    std::snprintf(buf, sizeof buf, "%llu B", (unsigned long long)bytes);
  return buf;
}

size_t count_inf(const auto& v) {
  size_t k = 0;
  for (const auto& p : v) k += p.is_inf();
  return k;
}

}  // namespace

int run_info(const std::string& path) {
  // The description is printed only once the whole file has been read and checked, so a bad file
  // produces the error and nothing on stdout.
  std::string out;
  auto add = [&out](const char* fmt, auto... args) {
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, args...);
    out += buf;
  };
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (std::filesystem::exists(st) && !std::filesystem::is_regular_file(st))
    throw Error(ErrorCode::kIo, path + ": not a regular file");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error(ErrorCode::kIo, path + ": cannot open");
  char magic[4] = {};
  f.read(magic, 4);
  const std::string m(magic, (size_t)f.gcount());
  const uint64_t size = std::filesystem::file_size(path);
  add("%s: %s\n", path.c_str(), human(size).c_str());
  if (m == "zkey") {
    Zkey zk = read_zkey(path);
    add("  Groth16 proving key (snarkjs .zkey v1), BLS12-381\n");
    add("  variables %u, public %u, domain 2^%u = %u\n", zk.n_vars, zk.n_public, zk.power(), zk.domain_size);
    add("  coefficients %zu; points: A %zu (%zu at infinity), B1 %zu (%zu), B2 %zu (%zu), C %zu, H %zu\n",
        zk.coefs.size(), zk.a.size(), count_inf(zk.a), zk.b1.size(), count_inf(zk.b1), zk.b2.size(),
        count_inf(zk.b2), zk.c.size(), zk.h.size());
    add("  contributions %u\n", zk.n_contributions());
  } else if (m == "r1cs") {
    R1cs cs = read_r1cs(path);
    add("  circom constraint system (.r1cs v1), BLS12-381\n");
    add("  constraints %u, wires %u (public outputs %u, public inputs %u, private inputs %u), labels %llu\n",
        cs.n_constraints, cs.n_wires, cs.n_pub_out, cs.n_pub_in, cs.n_prv_in,
        (unsigned long long)cs.n_labels);
    add("  non-zeros A %zu, B %zu, C %zu\n", cs.a.nnz(), cs.b.nnz(), cs.c.nnz());
  } else if (m == "wtns") {
    std::vector<Fr> w = read_wtns(path);
    size_t zeros = 0, ones = 0;
    for (const Fr& x : w) zeros += x.is_zero(), ones += x.is_one();
    add("  witness (.wtns v2), BLS12-381: %s (%zu zero, %zu one)\n", counted(w.size(), "value").c_str(),
        zeros, ones);
  } else if (m.size() && (m[0] == '{' || m[0] == '[')) {
    std::ifstream t(path);
    std::string text((std::istreambuf_iterator<char>(t)), std::istreambuf_iterator<char>());
    if (text.find("\"pi_a\"") != std::string::npos) {
      read_proof_json(path);
      add("  snarkjs Groth16 proof (bls12381)\n");
    } else if (text.find("\"vk_alpha_1\"") != std::string::npos) {
      auto vk = read_vk_json(path);
      add("  snarkjs Groth16 verification key (bls12381), %s\n",
          counted(vk.vk.n_public(), "public signal").c_str());
    } else if (m[0] == '[') {
      auto pub = read_public_json(path);
      add("  snarkjs public signals: %s\n", counted(pub.size(), "value").c_str());
    } else {
      throw Error(ErrorCode::kInvalidFile,
                  path +
                      ": a JSON object that info does not describe: it describes snarkjs proofs (pi_a), "
                      "verification keys (vk_alpha_1) and public signals (an array)");
    }
  } else if (std::filesystem::path(path).extension() == ".params") {
    const ProvingKey k = read_params_on(path, DeviceChoice{});  // on the GPU when there is one
    add("  Groth16 parameters (bellperson .params), BLS12-381, points checked on the curve and in the "
        "subgroup\n");
    add("  domain 2^%d; %s (ONE included), %u aux; points: ic %zu, h %zu, l %zu, a %zu, b_g1 %zu, b_g2 %zu\n",
        k.log_n, counted(k.n_inputs, "input").c_str(), k.n_aux, k.ic.size(), k.h.size(), k.l.size(),
        k.a.size(), k.b_g1.size(), k.b_g2.size());
  } else if (std::filesystem::path(path).extension() == ".vk") {
    const VerifyingKey vk = read_vk(path);
    add("  Groth16 verifying key (bellperson .vk), BLS12-381: %s\n",
        counted(vk.n_public(), "public input").c_str());
  } else if (std::filesystem::path(path).extension() == ".bin" && size % kProofZcashBytes == 0 && size > 0) {
    const auto proofs = read_proofs_file(path);
    add("  Groth16 proofs (zcash/bellperson encoding, 192 bytes each): %s\n",
        counted(proofs.size(), "partition").c_str());
  } else {
    throw Error(ErrorCode::kInvalidFile,
                path + ": not a .zkey, .r1cs, .wtns, .params, .vk, proof .bin or snarkjs JSON file");
  }
  std::fputs(out.c_str(), stdout);
  return 0;
}

}  // namespace cuzk::cli
