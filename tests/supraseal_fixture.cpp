// Test support for libcuzk_supraseal.so (tests/supraseal_abi.sh):
//
//   supraseal_fixture --log2 K --seed S --out DIR
//     makes the synthetic PoRep-shaped circuit of 2^K (groth16/synthetic.hpp) and its bellperson key
//     (setup with ToxicWaste::from_seed(S)), writes DIR/circuit.params and DIR/circuit.vk, and dumps one
//     partition's assignment as SupraSeal's Assignment fields in raw little-endian binary files (every
//     partition of the test shares this witness): a.bin, b.bin, c.bin (abc_size fr_t each: the rows of
//     the constraint system, the prover pads them to the domain), inputs.bin, aux.bin (fr_t),
//     a_aux.bin, b_inp.bin, b_aux.bin (u64 bitmap words), and meta.txt:
//     "log_n abc_size n_inputs n_aux a_aux_popcount b_inp_popcount b_aux_popcount".
//
//   supraseal_fixture --log2 K --seed S --out DIR --no-setup
//     the same without the setup: DIR/circuit.params and circuit.vk come from elsewhere (for large K,
//     `cuzk setup --synthetic porep --log2 K --seed S --device gpu DIR/circuit.params`, which makes the
//     same circuit for the same seed).
//
//   supraseal_fixture --log2 K --seed S --out DIR --check NAME...
//     for each NAME, reads DIR/NAME.proofs (k groth16_proof structs of 384 bytes) and DIR/NAME.blind
//     (k r values then k s values, fr_t), verifies every proof with DIR/circuit.vk (read_vk + verify)
//     and checks that it equals, byte for byte, the C++ prover's proof (CPU backend, the key read back
//     from DIR/circuit.params) with the same r and s. Exit 0 when all hold, 1 when one does not, 2 on
//     bad usage or files.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "formats/params.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/key.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/synthetic.hpp"
#include "groth16/verifier.hpp"
#include "util/error.hpp"

namespace fs = std::filesystem;
using namespace cuzk;

namespace {

void write_raw(const fs::path& p, const void* data, size_t bytes) {
  std::ofstream f(p, std::ios::binary);
  f.write(static_cast<const char*>(data), (std::streamsize)bytes);
  if (!f) throw Error(ErrorCode::kIo, p.string() + ": cannot write");
}

std::vector<uint8_t> read_raw(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw Error(ErrorCode::kIo, p.string() + ": cannot open");
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

/// The fixture's circuit, its witness synthesized.
struct Fixture {
  SyntheticCircuit circuit;
  Assignment asg;
  Fixture(int log2, uint64_t seed, ThreadPool& pool)
      : circuit(synthetic_porep(log2, seed, pool)), asg(synthesize(circuit.cs, circuit.witness, pool)) {}
};

void make(int log2, uint64_t seed, const fs::path& dir, bool with_setup, ThreadPool& pool) {
  Fixture fx(log2, seed, pool);
  const ConstraintSystem& cs = fx.circuit.cs;
  if (with_setup) {
    const ProvingKey key = setup(cs, ToxicWaste::from_seed(seed), pool);
    write_params(dir / "circuit.params", key, &pool);
    write_vk(dir / "circuit.vk", key);
  }
  const Assignment& a = fx.asg;
  const size_t abc = std::max({cs.a.rows(), cs.b.rows(), cs.c.rows()});
  write_raw(dir / "a.bin", a.a.data(), abc * sizeof(Fr));
  write_raw(dir / "b.bin", a.b.data(), abc * sizeof(Fr));
  write_raw(dir / "c.bin", a.c.data(), abc * sizeof(Fr));
  write_raw(dir / "inputs.bin", a.inputs.data(), a.inputs.size() * sizeof(Fr));
  write_raw(dir / "aux.bin", a.aux.data(), a.aux.size() * sizeof(Fr));
  write_raw(dir / "a_aux.bin", a.a_aux.words().data(), a.a_aux.words().size_bytes());
  write_raw(dir / "b_inp.bin", a.b_inp.words().data(), a.b_inp.words().size_bytes());
  write_raw(dir / "b_aux.bin", a.b_aux.words().data(), a.b_aux.words().size_bytes());
  std::ofstream meta(dir / "meta.txt");
  meta << a.log_n << ' ' << abc << ' ' << a.inputs.size() << ' ' << a.aux.size() << ' ' << a.a_aux.popcount()
       << ' ' << a.b_inp.popcount() << ' ' << a.b_aux.popcount() << '\n';
  if (!meta) throw Error(ErrorCode::kIo, (dir / "meta.txt").string() + ": cannot write");
}

/// Checks DIR/NAME.proofs against DIR/NAME.blind; prints what it finds. True when every proof holds.
bool check(const std::string& name, const fs::path& dir, const Fixture& fx,
           const std::shared_ptr<const ProvingKey>& key, const VerifyingKey& vk, CpuBackend& cpu) {
  const std::vector<uint8_t> proofs = read_raw(dir / (name + ".proofs"));
  const std::vector<uint8_t> blind = read_raw(dir / (name + ".blind"));
  const size_t k = proofs.size() / sizeof(Groth16Proof);
  if (k == 0 || proofs.size() % sizeof(Groth16Proof) || blind.size() != 2 * k * sizeof(Fr))
    throw Error(ErrorCode::kInvalidFile, name + ": " + std::to_string(proofs.size()) + " proof bytes and " +
                                             std::to_string(blind.size()) + " blinding bytes do not match");
  ProveOptions opt;
  opt.r_each.resize(k);
  opt.s_each.resize(k);
  std::memcpy(static_cast<void*>(opt.r_each.data()), blind.data(), k * sizeof(Fr));
  std::memcpy(static_cast<void*>(opt.s_each.data()), blind.data() + k * sizeof(Fr), k * sizeof(Fr));
  std::vector<Assignment> parts(k, fx.asg);
  std::vector<ProveResult> want = prove_finalize(prove_start(key, std::move(parts), cpu, opt));
  bool ok = true;
  for (size_t i = 0; i < k; i++) {
    Groth16Proof got;
    std::memcpy(static_cast<void*>(&got), proofs.data() + i * sizeof got, sizeof got);
    const bool valid = verify(vk, fx.asg.public_inputs(), got);
    const bool same = std::memcmp(&got, &want[i].proof, sizeof got) == 0;
    if (!valid || !same) {
      std::cerr << name << " proof " << i << ": " << (valid ? "verifies" : "does NOT verify") << ", "
                << (same ? "equals" : "DIFFERS from") << " the C++ prover's\n";
      ok = false;
    }
  }
  if (ok) std::cout << name << ": " << k << " proofs verify and equal the C++ prover's byte for byte\n";
  return ok;
}

int run(int argc, char** argv) {
  int log2 = 0;
  uint64_t seed = 0;
  fs::path dir;
  std::vector<std::string> names;
  bool checking = false, with_setup = true;
  const char* usage = "usage: supraseal_fixture --log2 K --seed S --out DIR [--no-setup | --check NAME...]\n";
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (a == "--no-setup" && !checking) {
      with_setup = false;
    } else if (a == "--check") {
      checking = true;
    } else if (checking) {
      names.push_back(a);
    } else if (i + 1 < argc && a == "--log2") {
      log2 = std::stoi(argv[++i]);
    } else if (i + 1 < argc && a == "--seed") {
      seed = std::stoull(argv[++i]);
    } else if (i + 1 < argc && a == "--out") {
      dir = argv[++i];
    } else {
      std::cerr << usage;
      return 2;
    }
  }
  if (dir.empty() || log2 == 0 || (checking && (names.empty() || !with_setup))) {
    std::cerr << usage;
    return 2;
  }
  ThreadPool pool;
  if (!checking) {
    fs::create_directories(dir);
    make(log2, seed, dir, with_setup, pool);
    return 0;
  }
  const Fixture fx(log2, seed, pool);
  auto key = std::make_shared<const ProvingKey>(read_params(dir / "circuit.params"));
  const VerifyingKey vk = read_vk(dir / "circuit.vk");
  if (!(vk == key->verifying_key())) {
    std::cerr << "circuit.vk does not match circuit.params\n";
    return 1;
  }
  CpuBackend cpu;
  bool ok = true;
  for (const std::string& n : names) ok = check(n, dir, fx, key, vk, cpu) && ok;
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "supraseal_fixture: " << e.what() << "\n";
    return 2;
  }
}
