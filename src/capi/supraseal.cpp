// SupraSeal C2's C ABI (include/cuzk/supraseal_c2.h, docs/SUPRASEAL_ABI.md) on cuzk's split prover
// (groth16/prover.hpp): start = a cuzk::Assignment per ABI Assignment that borrows the caller's a, b, c and
// aux (no copies: the backend stages them to the GPU itself, overlapped with its kernels; the rows past
// abc_size are zeroed on the device) and copies the small density bitmaps and inputs, then prove_start
// under the GPU mutex; finalize = prove_finalize. With the environment variable CUZK_TIMING set (and not
// "0"), every call prints "CUZK_TIMING: …" lines with its stage times to stderr, as SupraSeal's do.
// Built into libcuzk_supraseal.so only (CMakeLists.txt), which exports the ten functions of the header and
// nothing else (supraseal.map). Every exception is caught and returned as a RustError.
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "cuzk/supraseal_c2.h"
#include "formats/params.hpp"
#include "groth16/cpu_backend.hpp"
#include "groth16/prover.hpp"
#include "util/error.hpp"
#ifdef CUZK_WITH_CUDA
#include "cuda/gpu_backend.hpp"
#include "cuda/point_decode.hpp"
#endif

// The ABI's types are cuzk's in memory: proofs and scalars are copied as bytes.
static_assert(sizeof(fr_t) == 32 && sizeof(cuzk::Fr) == 32 && std::is_trivially_copyable_v<cuzk::Fr>);
static_assert(sizeof(supraseal_g1_affine_t) == 96 && sizeof(cuzk::G1Affine) == 96);
static_assert(sizeof(supraseal_g2_affine_t) == 192 && sizeof(cuzk::G2Affine) == 192);
static_assert(offsetof(cuzk::G1Affine, y) == offsetof(supraseal_g1_affine_t, y));
static_assert(offsetof(cuzk::Fp2, c1) == offsetof(supraseal_fp2_t, c1));
static_assert(offsetof(cuzk::G2Affine, y) == offsetof(supraseal_g2_affine_t, y));
static_assert(sizeof(groth16_proof) == 384 && sizeof(cuzk::Groth16Proof) == 384 &&
              std::is_trivially_copyable_v<cuzk::Groth16Proof>);
static_assert(offsetof(cuzk::Groth16Proof, b) == offsetof(groth16_proof, b) &&
              offsetof(cuzk::Groth16Proof, c) == offsetof(groth16_proof, c));

namespace {

using cuzk::Error;
using cuzk::ErrorCode;

[[noreturn]] void invalid(const std::string& msg) { throw Error(ErrorCode::kInvalidArgument, msg); }

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// Whether CUZK_TIMING asks for the per-call stage lines (read once).
bool timing() {
  static const bool on = [] {
    const char* v = std::getenv("CUZK_TIMING");
    return v && *v && std::string(v) != "0";
  }();
  return on;
}

/// One "CUZK_TIMING: <fn> key=value …" line on stderr.
void timing_line(const char* fn, const std::string& fields) {
  std::fprintf(stderr, "CUZK_TIMING: %s %s\n", fn, fields.c_str());
}

std::string ms_field(const std::string& name, double ms) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", ms);
  return " " + name + "_ms=" + buf;
}

/// Runs f; turns every exception into a RustError whose message starts with the function's name.
template <class F>
RustError guard(const char* fn, F&& f) noexcept {
  auto fail = [fn](int code, const char* what) noexcept {
    try {
      return RustError{code, strdup((std::string(fn) + ": " + what).c_str())};
    } catch (...) {  // no memory left for the message: the code alone
      return RustError{code, nullptr};
    }
  };
  try {
    f();
    return RustError{0, nullptr};
  } catch (const Error& e) {
    return fail(static_cast<int>(e.code()), e.what());
  } catch (const std::bad_alloc&) {
    return fail(static_cast<int>(ErrorCode::kInternal), "out of memory");
  } catch (const std::exception& e) {
    return fail(static_cast<int>(ErrorCode::kInternal), e.what());
  } catch (...) {
    return fail(static_cast<int>(ErrorCode::kInternal), "unknown error");
  }
}

/// The compute backend behind one gpu_index, and the mutex used when the caller passes none.
struct Device {
  std::unique_ptr<cuzk::ProverBackend> backend;
#ifdef CUZK_WITH_CUDA
  cuzk::GpuBackend* gpu = nullptr;  ///< backend, when it is a GPU's
#endif
  std::mutex lock;
};

/// The process-wide backends, made on first use: one GpuBackend per GPU index on a CUDA build with a GPU,
/// else one CPU backend for every index. Never destroyed, so SRS handles and pending proofs that outlive
/// static destruction stay safe to release.
class Devices {
 public:
  static Devices& get() {
    static Devices* d = new Devices;
    return *d;
  }

  /// The device of gpu_index. Throws Error(kInvalidArgument) for an index the machine does not have,
  /// Error(kCuda) when the GPU cannot be opened.
  Device& at(int gpu_index) {
    if (gpu_index < 0) invalid("gpu_index " + std::to_string(gpu_index) + " is negative");
    std::lock_guard<std::mutex> g(m_);
    int slot = -1;  // the CPU backend
#ifdef CUZK_WITH_CUDA
    if (const int count = gpu_count(); count > 0) {
      if (gpu_index >= count)
        invalid("gpu_index " + std::to_string(gpu_index) + ": this machine has " + std::to_string(count) +
                " GPUs");
      slot = gpu_index;
    }
#endif
    std::unique_ptr<Device>& d = by_slot_[slot];
    if (!d) {
      auto fresh = std::make_unique<Device>();
#ifdef CUZK_WITH_CUDA
      if (slot >= 0) {
        auto gpu = std::make_unique<cuzk::GpuBackend>(cuzk::GpuBackendOptions{.device = slot});
        fresh->gpu = gpu.get();
        fresh->backend = std::move(gpu);
      }
#endif
      if (!fresh->backend) fresh->backend = std::make_unique<cuzk::CpuBackend>();
      d = std::move(fresh);
    }
    return *d;
  }

#ifdef CUZK_WITH_CUDA
  /// Uploads key to every GPU (create_SRS with cache). Throws Error(kCuda) on a device failure.
  void preload_everywhere(const std::shared_ptr<const cuzk::ProvingKey>& key) {
    int count;
    {
      std::lock_guard<std::mutex> g(m_);
      count = gpu_count();
    }
    for (int i = 0; i < count; i++) at(i).gpu->preload(key);
  }

  /// Drops key's resident copy on every GPU backend made so far (each waits for its GPU's current work).
  void evict_everywhere(const cuzk::ProvingKey* key) {
    std::vector<cuzk::GpuBackend*> gpus;
    {
      std::lock_guard<std::mutex> g(m_);
      for (auto& [slot, d] : by_slot_)
        if (d->gpu) gpus.push_back(d->gpu);
    }
    for (cuzk::GpuBackend* gpu : gpus) gpu->evict(key);
  }
#endif

 private:
#ifdef CUZK_WITH_CUDA
  int gpu_count() {  // under m_
    if (gpus_ < 0) gpus_ = cuzk::gpu_device_count();
    return gpus_;
  }
  int gpus_ = -1;
#endif
  std::mutex m_;
  std::map<int, std::unique_ptr<Device>> by_slot_;
};

/// One loaded parameter file, shared by its SRS handles (and the path cache when it is cached). Its
/// device copies go with it.
struct LoadedSrs {
  std::string path;
  std::shared_ptr<const cuzk::ProvingKey> key;
  ~LoadedSrs() { evict_devices(); }
  void evict_devices() const noexcept {
#ifdef CUZK_WITH_CUDA
    try {
      Devices::get().evict_everywhere(key.get());
    } catch (...) {  // eviction only frees memory; nothing to report from a destructor
    }
#endif
  }
};

/// What SRS::ptr points to: one reference.
struct SrsRef {
  std::shared_ptr<LoadedSrs> srs;
};

/// Parameter sets loaded with cache = true, by normalized absolute path.
class SrsCache {
 public:
  static SrsCache& get() {
    static SrsCache* c = new SrsCache;
    return *c;
  }
  /// The parameters of path: the cached ones, or read now (and cached when `cache`).
  std::shared_ptr<LoadedSrs> open(const std::string& path, bool cache) {
    const std::string id = std::filesystem::absolute(path).lexically_normal().string();
    std::lock_guard<std::mutex> load(load_);  // one file read at a time: no two copies of one file
    if (auto hit = find(id)) return hit;
    auto srs = std::make_shared<LoadedSrs>();
    srs->path = id;
    cuzk::ParamsReadOptions opt;
#ifdef CUZK_WITH_CUDA
    std::unique_ptr<cuzk::cuda::GpuPointDecoder> decoder;  // the points decoded and checked on GPU 0
    if (cuzk::gpu_device_count() > 0) decoder = std::make_unique<cuzk::cuda::GpuPointDecoder>(0);
    opt.decoder = decoder.get();
#endif
    srs->key = std::make_shared<const cuzk::ProvingKey>(cuzk::read_params(path, opt));
    if (cache) {
#ifdef CUZK_WITH_CUDA
      Devices::get().preload_everywhere(srs->key);
#endif
      std::lock_guard<std::mutex> g(m_);
      by_path_[id] = srs;
    }
    return srs;
  }
  /// Forgets srs if it is the cached set of its path.
  void forget(const LoadedSrs& srs) {
    std::lock_guard<std::mutex> g(m_);
    auto it = by_path_.find(srs.path);
    if (it != by_path_.end() && it->second.get() == &srs) by_path_.erase(it);
  }

 private:
  std::shared_ptr<LoadedSrs> find(const std::string& id) {
    std::lock_guard<std::mutex> g(m_);
    auto it = by_path_.find(id);
    return it == by_path_.end() ? nullptr : it->second;
  }
  std::mutex load_, m_;
  std::map<std::string, std::shared_ptr<LoadedSrs>> by_path_;
};

const LoadedSrs& loaded(const SRS* srs) {
  if (!srs || !srs->ptr) invalid("no SRS (NULL or dropped)");
  return *static_cast<const SrsRef*>(srs->ptr)->srs;
}

/// A density bitmap of the ABI as a cuzk::Density: `bits` must be `want` (the parameters' count), the
/// bits past it in the last word are ignored and `popcount` must match the set bits.
cuzk::Density density(const char* name, const uint64_t* words, size_t bits, size_t popcount, size_t want,
                      const char* what) {
  const std::string n(name);
  if (bits != want)
    invalid(n + "_bit_len is " + std::to_string(bits) + " but the parameters have " + std::to_string(want) +
            " " + what);
  cuzk::Density d(bits);
  if (bits == 0) return d;
  if (!words) invalid(n + "_density is NULL");
  std::span<uint64_t> out = d.words();
  std::memcpy(out.data(), words, out.size() * sizeof(uint64_t));
  if (bits % 64) out.back() &= (uint64_t{1} << (bits % 64)) - 1;
  if (d.popcount() != popcount)
    invalid(n + "_popcount is " + std::to_string(popcount) + " but " + n + "_density has " +
            std::to_string(d.popcount()) + " set bits");
  return d;
}

/// The caller's `count` scalars at p, borrowed (NULL allowed only when count is 0).
cuzk::Scalars borrowed(const char* name, const fr_t* p, size_t count) {
  if (count && !p) invalid(std::string(name) + " is NULL");
  return cuzk::Scalars::borrow(reinterpret_cast<const cuzk::Fr*>(p), count);
}

/// The cuzk::Assignment of one ABI Assignment for `key`: a, b, c and aux borrow the caller's buffers (read
/// until prove_start returns), the density bitmaps and inputs are copied (small). Throws
/// Error(kInvalidArgument) naming the field.
cuzk::Assignment convert(const Assignment& in, const cuzk::ProvingKey& key) {
  const size_t n = key.domain_size();
  if (in.abc_size > n)
    invalid("abc_size is " + std::to_string(in.abc_size) + " but the parameters' domain has " +
            std::to_string(n) + " points");
  if (in.inp_assignment_size != key.n_inputs)
    invalid("inp_assignment_size is " + std::to_string(in.inp_assignment_size) + " but the parameters have " +
            std::to_string(key.n_inputs) + " inputs (ONE included)");
  if (in.aux_assignment_size != key.n_aux)
    invalid("aux_assignment_size is " + std::to_string(in.aux_assignment_size) + " but the parameters have " +
            std::to_string(key.n_aux) + " aux variables");
  cuzk::Assignment out;
  out.log_n = key.log_n;
  out.a_aux =
      density("a_aux", in.a_aux_density, in.a_aux_bit_len, in.a_aux_popcount, key.n_aux, "aux variables");
  out.b_inp = density("b_inp", in.b_inp_density, in.b_inp_bit_len, in.b_inp_popcount, key.n_inputs, "inputs");
  out.b_aux =
      density("b_aux", in.b_aux_density, in.b_aux_bit_len, in.b_aux_popcount, key.n_aux, "aux variables");
  out.a = borrowed("a", in.a, in.abc_size);
  out.b = borrowed("b", in.b, in.abc_size);
  out.c = borrowed("c", in.c, in.abc_size);
  if (!in.inp_assignment_data) invalid("inp_assignment_data is NULL");
  out.inputs.resize(key.n_inputs);
  std::memcpy(static_cast<void*>(out.inputs.data()), in.inp_assignment_data, key.n_inputs * sizeof(fr_t));
  out.aux = borrowed("aux_assignment_data", in.aux_assignment_data, key.n_aux);
  return out;
}

/// generate_groth16_proofs_start_c's work: the pending proof of the call (`fn` names the call in the
/// CUZK_TIMING line).
std::unique_ptr<cuzk::PendingProof> start(const char* fn, const Assignment provers[], size_t num_circuits,
                                          const fr_t r_s[], const fr_t s_s[], SRS* srs, void* gpu_mtx,
                                          int gpu_index) {
  const auto t0 = Clock::now();
  const LoadedSrs& params = loaded(srs);
  if (num_circuits == 0) invalid("num_circuits is 0");
  if (!provers || !r_s || !s_s)
    invalid(std::string(!provers ? "provers" : !r_s ? "r_s" : "s_s") + " is NULL");
  Device& dev = Devices::get().at(gpu_index);
  cuzk::ProveOptions opt;
  opt.r_each.resize(num_circuits);
  opt.s_each.resize(num_circuits);
  std::memcpy(static_cast<void*>(opt.r_each.data()), r_s, num_circuits * sizeof(fr_t));
  std::memcpy(static_cast<void*>(opt.s_each.data()), s_s, num_circuits * sizeof(fr_t));
  std::vector<cuzk::Assignment> parts;
  parts.reserve(num_circuits);
  for (size_t i = 0; i < num_circuits; i++) {
    try {
      parts.push_back(convert(provers[i], *params.key));
    } catch (const Error& e) {
      throw Error(e.code(), "circuit " + std::to_string(i) + ": " + e.what());
    }
  }
  const double prepare_ms = ms_since(t0);
  std::mutex& m = gpu_mtx ? *static_cast<std::mutex*>(gpu_mtx) : dev.lock;
  auto t = Clock::now();
  std::unique_lock<std::mutex> held(m);
  const double wait_ms = ms_since(t);
  t = Clock::now();
  auto pending = std::make_unique<cuzk::PendingProof>(
      cuzk::prove_start(params.key, std::move(parts), *dev.backend, opt));
  held.unlock();
  if (timing())
    timing_line(fn, "num_circuits=" + std::to_string(num_circuits) + " gpu=" + std::to_string(gpu_index) +
                        ms_field("prepare", prepare_ms) + ms_field("mutex_wait", wait_ms) +
                        ms_field("mutex_held", ms_since(t)) + ms_field("total", ms_since(t0)));
  return pending;
}

/// finalize_groth16_proof_c's work; `pending` is consumed.
void finalize(const char* fn, std::unique_ptr<cuzk::PendingProof> pending, groth16_proof proofs[]) {
  if (!proofs) invalid("proofs is NULL");
  const auto t0 = Clock::now();
  std::vector<cuzk::ProveResult> res = cuzk::prove_finalize(std::move(*pending));
  for (size_t i = 0; i < res.size(); i++)
    std::memcpy(static_cast<void*>(&proofs[i]), &res[i].proof, sizeof(groth16_proof));
  if (!timing()) return;
  for (size_t i = 0; i < res.size(); i++) {  // the backend's stages of each circuit, then its epilogue
    std::string fields = "circuit=" + std::to_string(i);
    for (const auto& [name, ms] : res[i].stages) fields += ms_field(name, ms);
    timing_line(fn, fields);
  }
  timing_line(fn, "num_circuits=" + std::to_string(res.size()) + ms_field("finalize", ms_since(t0)));
}

}  // namespace

extern "C" {

RustError create_SRS(SRS* ret, const char* srs_path, bool cache) {
  return guard("create_SRS", [&] {
    if (!ret || !srs_path) invalid(std::string(!ret ? "ret" : "srs_path") + " is NULL");
    ret->ptr = nullptr;
    ret->ptr = new SrsRef{SrsCache::get().open(srs_path, cache)};
  });
}

void evict_SRS(const SRS* ref) {
  if (!ref || !ref->ptr) return;
  const LoadedSrs& srs = *static_cast<const SrsRef*>(ref->ptr)->srs;
  try {
    SrsCache::get().forget(srs);
  } catch (...) {  // a failed lock leaves the cache as it was; evict_SRS has no error channel
  }
  srs.evict_devices();
}

void drop_SRS(SRS* ref) {
  if (!ref || !ref->ptr) return;
  delete static_cast<const SrsRef*>(ref->ptr);
  ref->ptr = nullptr;
}

SRS clone_SRS(const SRS* rhs) {
  if (!rhs || !rhs->ptr) return SRS{nullptr};
  try {
    return SRS{new SrsRef{*static_cast<const SrsRef*>(rhs->ptr)}};
  } catch (...) {  // out of memory: the ABI has no error channel here, an empty handle says it
    return SRS{nullptr};
  }
}

void* create_gpu_mutex(void) { return new (std::nothrow) std::mutex; }

void destroy_gpu_mutex(void* mtx) { delete static_cast<std::mutex*>(mtx); }

RustError generate_groth16_proofs_c(const Assignment provers[], size_t num_circuits, const fr_t r_s[],
                                    const fr_t s_s[], groth16_proof proofs[], SRS* srs, void* gpu_mtx,
                                    int gpu_index) {
  return guard("generate_groth16_proofs_c", [&] {
    if (!proofs) invalid("proofs is NULL");
    const char* fn = "generate_groth16_proofs_c";
    finalize(fn, start(fn, provers, num_circuits, r_s, s_s, srs, gpu_mtx, gpu_index), proofs);
  });
}

RustError generate_groth16_proofs_start_c(const Assignment provers[], size_t num_circuits, const fr_t r_s[],
                                          const fr_t s_s[], SRS* srs, void* gpu_mtx, int gpu_index,
                                          void** pending_out) {
  return guard("generate_groth16_proofs_start_c", [&] {
    if (!pending_out) invalid("pending_out is NULL");
    *pending_out = nullptr;
    *pending_out =
        start("generate_groth16_proofs_start_c", provers, num_circuits, r_s, s_s, srs, gpu_mtx, gpu_index)
            .release();
  });
}

RustError finalize_groth16_proof_c(void* handle, groth16_proof proofs[]) {
  return guard("finalize_groth16_proof_c", [&] {
    if (!handle) invalid("handle is NULL");
    finalize("finalize_groth16_proof_c",
             std::unique_ptr<cuzk::PendingProof>(static_cast<cuzk::PendingProof*>(handle)), proofs);
  });
}

void destroy_pending_proof(void* handle) { delete static_cast<cuzk::PendingProof*>(handle); }

}  // extern "C"
