#include "cuda/gpu_backend.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "cuda/chunk_pipe.hpp"
#include "cuda/gpu.hpp"
#include "cuda/msm.hpp"
#include "cuda/rows_stream.hpp"
#include "cuda/witness_pack.hpp"
#include "ff/roots.hpp"
#include "groth16/compact_cs.hpp"
#include "groth16/device_plan.hpp"
#include "msm/pippenger.hpp"
#include "util/error.hpp"
#include "util/fault.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// The device plan's view of `key` with these rows (deferred assignments) on this device.
DeviceShape shape_on_device(const ProvingKey& key, const CompactCs* rows) {
  DeviceShape sh = device_shape(key);
  sh.rows_bytes = rows ? rows->bytes() : 0;
  sh.rows_table_bytes = rows ? rows->table.size() * sizeof(Fr) : 0;
  sh.ntt_table_bytes = cuda::GpuNtt::max_table_bytes(key.log_n);
  return sh;
}

/// What the side stream may carry: L and A, or with CUZK_SIDE_STREAM=l (measurements) L only, or with
/// CUZK_SIDE_STREAM=0 (measurements and tests) nothing (DevicePlan::side_chunk_bytes). Read at each
/// planning, as CUZK_H_LEAN is at each proof.
SideStream side_stream_allowed() {
  const char* e = std::getenv("CUZK_SIDE_STREAM");
  if (e && std::string(e) == "0") return SideStream::kNone;
  if (e && std::string(e) == "l") return SideStream::kL;
  return SideStream::kLAndA;
}
/// The side stream's engine and gathers run on a stream of the device's greatest priority, so that their
/// blocks are scheduled before the H MSM's as those retire; CUZK_SIDE_PRIORITY=0 (measurements): the
/// default priority. Read once.
bool side_priority() {
  static const bool on = [] {
    const char* e = std::getenv("CUZK_SIDE_PRIORITY");
    return !(e && std::string(e) == "0");
  }();
  return on;
}

/// CUZK_H_PROFILE=1 (measurements): H from streamed rows synchronizes the device after each of its steps
/// and adds each step's time to the stage times ("h_" steps, beside abc_streamed_h, which then includes
/// the waits). Read at each proof.
bool h_profile() {
  const char* e = std::getenv("CUZK_H_PROFILE");
  return e && std::string(e) == "1";
}

/// How host data is staged for its uploads (witnesses, host rows, a, b, c): the page-locked chunk size,
/// the number of chunk buffers and the threads that copy into them. 64 MiB, 2, 8 unless
/// CUZK_UPLOAD="MiB,buffers,threads" (measurements: `cuzk bench gpu-upload` compares them). Read once.
struct UploadTuning {
  size_t chunk_bytes = size_t{64} << 20;
  int buffers = 2;
  unsigned threads = 8;
};
const UploadTuning& upload_tuning() {
  static const UploadTuning t = [] {
    UploadTuning u;
    if (const char* e = std::getenv("CUZK_UPLOAD"); e && *e) {
      unsigned mib = 0, buffers = 0, threads = 0;
      if (std::sscanf(e, "%u,%u,%u", &mib, &buffers, &threads) == 3 && mib >= 1 && mib <= 1024 &&
          buffers >= 2 && buffers <= 16 && threads >= 1 && threads <= 64)
        u = {size_t{mib} << 20, int(buffers), threads};
    }
    return u;
  }();
  return t;
}
/// How the witness crosses to the device (CUZK_UPLOAD_PACK, read once): 0, as it is; 1, packed
/// (cuda::UploadStaging::upload_packed_at: its 0 and 1 values as 2-bit tags) while it crosses; 2, the same,
/// and the uploads made under the GPU mutex take it packed ahead, before any lock (start_releasing).
/// Unset: packed ahead when another partition holds the GPU, so that the packing hides under its kernels
/// (a daemon with two GPU workers: a partition every 2.62 s instead of 2.75 s at a 16 GiB budget on an
/// H100, docs/PERFORMANCE.md §31), else as it is (the CLI, whose next partition starts when the GPU is
/// idle: packing there would be in line).
enum class WitnessUpload { kPlain, kPacked, kPackedAhead, kAuto };
WitnessUpload witness_upload() {
  static const WitnessUpload m = [] {
    const char* e = std::getenv("CUZK_UPLOAD_PACK");
    if (!e || !*e) return WitnessUpload::kAuto;
    if (std::strcmp(e, "0") == 0) return WitnessUpload::kPlain;
    return std::strcmp(e, "2") == 0 ? WitnessUpload::kPackedAhead : WitnessUpload::kPacked;
  }();
  return m;
}
/// dst[at..at + n) ← witness values host[0..n) through `staging`, with `pool` copying (or packing, with
/// CUZK_UPLOAD_PACK=1) on the host; `host_wait` as UploadStaging::upload_at's.
void upload_witness(cuda::UploadStaging& staging, ThreadPool& pool, cuda::DeviceFrVec& dst, size_t at,
                    const Fr* host, size_t n, bool host_wait) {
  if (witness_upload() == WitnessUpload::kPacked || witness_upload() == WitnessUpload::kPackedAhead)
    return staging.upload_packed_at(dst, at, host, n, pool, host_wait);
  staging.upload_at(
      dst, at, host, n,
      [&pool](void* d, const void* src, size_t bytes) { parallel_memcpy(pool, d, src, bytes); }, host_wait);
}
std::unique_ptr<cuda::UploadStaging> make_staging(int device) {
  return std::make_unique<cuda::UploadStaging>(upload_tuning().chunk_bytes, device, upload_tuning().buffers);
}

/// The plan of `key` (with these rows) on `budget` bytes of this device.
DevicePlan plan_on_device(const ProvingKey& key, const CompactCs* rows, size_t budget) {
  return plan_device(shape_on_device(key, rows), budget, side_stream_allowed());
}

/// A planned chunk size, or CUZK_STREAM_CHUNK_BYTES from the environment when smaller (tests: many
/// chunks on small keys and rows), rounded down to whole G2 points (192 bytes; also whole G1 points and
/// 64-byte multiples).
size_t chunk_bytes(size_t planned) {
  size_t b = planned;
  if (const char* e = std::getenv("CUZK_STREAM_CHUNK_BYTES"); e && *e) {
    const unsigned long long v = std::strtoull(e, nullptr, 10);
    if (v >= 192 && v < b) b = v;
  }
  return b / 192 * 192;
}

/// The chunks of a partition's streamed point vectors, in the order its MSMs read them, as one sequence
/// through a ChunkPipe: chunk k lands in buffer k mod 2, and at most two are in flight or in use. Where a
/// vector ends, the next vector's first chunk crosses while the last one is summed, so the link does not
/// idle between MSMs. Host-synchronous: next() waits for a chunk, done() frees its buffer for the chunk
/// two places later.
class ChunkSequence {
 public:
  explicit ChunkSequence(cuda::ChunkPipe& pipe) : pipe_(pipe) {}
  /// Appends host[0..n) of `elem`-byte points, cut into whole points of at most the pipe's chunk size.
  void add(const void* host, size_t n, size_t elem) {
    const size_t per = pipe_.chunk_bytes() / elem;
    for (size_t off = 0; off < n; off += per)
      chunks_.push_back({static_cast<const char*>(host) + off * elem, std::min(per, n - off) * elem});
  }
  /// Waits for the next chunk, which must start at `host` (the caller's vector and offset: the MSMs run in
  /// the order the vectors were added); returns its device address and bytes. Throws kInternal otherwise.
  std::pair<const void*, size_t> next(const void* host) {
    while (fetched_ < chunks_.size() && fetched_ < used_ + 2) fetch();
    if (used_ >= chunks_.size() || chunks_[used_].host != host)
      throw Error(ErrorCode::kInternal, "GPU backend: a streamed MSM out of its planned order");
    return {pipe_.wait((int)(used_ & 1)), chunks_[used_].bytes};
  }
  /// The chunk next() returned is no longer read: its buffer takes the chunk two places later.
  void done() {
    used_++;
    if (fetched_ < chunks_.size() && fetched_ < used_ + 2) fetch();
  }

 private:
  void fetch() {
    pipe_.fetch((int)(fetched_ & 1), chunks_[fetched_].host, chunks_[fetched_].bytes);
    fetched_++;
  }
  struct Chunk {
    const char* host;
    size_t bytes;
  };
  cuda::ChunkPipe& pipe_;
  std::vector<Chunk> chunks_;
  size_t fetched_ = 0, used_ = 0;
};

/// The source of `key`'s released vectors; throws Error(kInternal) when it has none.
const KeyVectorSource& source_of(const ProvingKey& key) {
  if (!key.source)
    throw Error(ErrorCode::kInternal, "GPU backend: the key has released point vectors and no source");
  return *key.source;
}

/// One key on the device, laid out by its DevicePlan: the resident point vectors with an MSM engine
/// each, and the streamed vectors' host ranges page-locked so that their chunks cross at the link's DMA
/// rate (HostRegistration; no second host copy). Vectors the key released (ProvingKey::released) are
/// read from its source: a resident one only while it is uploaded, a streamed one (the plan changed since
/// it was released) kept here.
struct Resident {
  std::shared_ptr<const ProvingKey> key;
  DevicePlan plan;
  std::unique_ptr<cuda::MsmG1> a, b_g1, l, h;
  std::unique_ptr<cuda::MsmG2> b_g2;
  ProvingKey fetched;  // streamed vectors that the key released, read again
  std::vector<cuda::HostRegistration> pins;
  size_t bytes = 0;  // device bytes of the resident vectors
  uint64_t last_use = 0;
  bool planned_with_rows = false;  // the plan counted the rows of deferred assignments

  Resident(std::shared_ptr<const ProvingKey> k, const DevicePlan& p, int device)
      : key(std::move(k)), plan(p) {
    const cuda::MsmConfig cfg{device, 0, size_t{1} << 28, plan.msm_scratch_bytes};
    const bool owned = key.use_count() > 0;
    auto keep_g1 = [&](KeyVector v, std::unique_ptr<cuda::MsmG1>& e) {
      const bool released = key->is_released(v);
      if (plan.resident[(int)v]) {
        e = std::make_unique<cuda::MsmG1>(cfg);
        if (released)
          e->set_bases(source_of(*key).read_g1(v));  // the host copy goes once it is up
        else
          e->set_bases(key->g1(v));
        return;
      }
      if (released) fetched.g1(v) = source_of(*key).read_g1(v);
      const BigVector<G1Affine>& pts = host_g1(v);
      if (owned && !pts.empty()) pins.emplace_back(pts.data(), pts.size() * sizeof(G1Affine), device);
    };
    keep_g1(KeyVector::kH, h);
    keep_g1(KeyVector::kA, a);
    keep_g1(KeyVector::kBG1, b_g1);
    keep_g1(KeyVector::kL, l);
    const bool g2_released = key->is_released(KeyVector::kBG2);
    if (plan.resident[(int)KeyVector::kBG2]) {
      b_g2 = std::make_unique<cuda::MsmG2>(cfg);
      if (g2_released)
        b_g2->set_bases(source_of(*key).read_g2());
      else
        b_g2->set_bases(key->b_g2);
    } else {
      if (g2_released) fetched.b_g2 = source_of(*key).read_g2();
      const BigVector<G2Affine>& pts = host_g2();
      if (owned && !pts.empty()) pins.emplace_back(pts.data(), pts.size() * sizeof(G2Affine), device);
    }
    bytes = plan.resident_bytes;
  }
  /// The host points of streamed G1 vector v (the key's, or read again here when it released them).
  const BigVector<G1Affine>& host_g1(KeyVector v) const {
    return key->is_released(v) ? fetched.g1(v) : key->g1(v);
  }
  /// The host points of b_g2 when it streams.
  const BigVector<G2Affine>& host_g2() const {
    return key->is_released(KeyVector::kBG2) ? fetched.b_g2 : key->b_g2;
  }
  /// Whether every streamed vector's host range is page-locked.
  bool pinned() const {
    for (const auto& p : pins)
      if (!p.ok()) return false;
    return true;
  }
};

/// The rows of one circuit on the device (deferred assignments: a, b, c evaluated there).
struct ResidentRows {
  std::shared_ptr<const CompactCs> cs;
  cuda::DeviceRows dev;
  uint64_t last_use = 0;

  ResidentRows(std::shared_ptr<const CompactCs> c, int device) : cs(std::move(c)), dev(upload(*cs, device)) {}
  static cuda::DeviceRows upload(const CompactCs& cs, int device) {
    std::vector<cuda::HostCsr> mats;
    for (const CompactMatrix* m : {&cs.a, &cs.b, &cs.c})
      mats.push_back({m->row_offsets.data(), m->cols.data(), m->coeffs.data(), m->rows()});
    return cuda::DeviceRows(cs.table.data(), cs.table.size(), mats, device);
  }
};

/// A device buffer for one partition's witness (deferred assignments), filled on the copy stream outside
/// the GPU mutex while another partition's kernels run. Its memory is taken from the pool once, after a
/// device synchronization, and kept while the backend lives, so no queued kernel can still be reading a
/// block the copy stream writes.
struct WitnessSlot {
  cuda::DeviceFrVec w;
  std::unique_ptr<cuda::UploadStaging> staging;
};

class GpuPending final : public BackendPending {
 public:
  GpuPending(PartitionSums s, std::future<G2> g2) : sums_(std::move(s)), g2_(std::move(g2)) {}
  PartitionSums wait() override {
    if (g2_.valid()) {
      const auto t0 = Clock::now();
      sums_.b_g2 = g2_.get();
      sums_.stages.emplace_back("b_g2_wait", ms_since(t0));
    }
    return std::move(sums_);
  }

 private:
  PartitionSums sums_;
  std::future<G2> g2_;
};

}  // namespace

struct GpuBackend::Impl {
  GpuBackendOptions opt;
  std::string name;
  size_t total_mem = 0;
  mutable std::mutex gpu_mu;  // the per-GPU mutex: covers the CUDA work of start(), preload, evict
  std::map<const ProvingKey*, std::shared_ptr<Resident>> residents;
  std::map<const CompactCs*, std::shared_ptr<ResidentRows>> rows;  // resident circuits' rows
  uint64_t clock = 0;
  size_t budget = 0;
  std::map<std::pair<int, int>, std::unique_ptr<cuda::GpuNtt>> ntts;
  std::unique_ptr<cuda::MsmG1> stream_g1;  // the engines of streamed vectors (their scratch only)
  std::unique_ptr<cuda::MsmG1> side_g1;    // the side stream's engine (beside the H MSM)
  std::unique_ptr<cuda::MsmG2> stream_g2;
  std::unique_ptr<ThreadPool> g2_pool;
  std::unique_ptr<cuda::UploadStaging> staging;  // pinned chunks for the uploads (used under gpu_mu)
  std::unique_ptr<ThreadPool> copy_pool;         // the memcpy into them, split over threads
  std::shared_ptr<const CompactCs> pinned_rows;  // the rows whose host arrays rows_pins locks
  std::vector<cuda::HostRegistration> rows_pins;
  std::unique_ptr<cuda::PinnedBuffer> parks[3];  // vectors of H parked in host memory (streamed rows)
  /// Page-locked room for n scalars (park i, kept for later partitions).
  Fr* parked(int i, size_t n) {
    if (!parks[i] || parks[i]->size() < n * sizeof(Fr)) {
      parks[i].reset();
      parks[i] = std::make_unique<cuda::PinnedBuffer>(n * sizeof(Fr));
    }
    return static_cast<Fr*>(parks[i]->data());
  }
  std::mutex abc_mu;  // one host a, b, c evaluation at a time, on abc_pool
  std::unique_ptr<ThreadPool> abc_pool;
  std::mutex pack_mu;  // one witness packed ahead of the GPU mutex at a time, on pack_pool
  std::unique_ptr<ThreadPool> pack_pool;
  // Witness slots (deferred assignments): at most the plan's witness_slots (≤ 2), each in use by one
  // start() call.
  std::mutex slot_mu;
  std::condition_variable slot_cv;
  std::vector<std::unique_ptr<WitnessSlot>> free_slots;
  size_t slots = 0;                            // made and not destroyed
  std::unique_ptr<ThreadPool> slot_copy_pool;  // the memcpy of slot uploads (outside gpu_mu)

  /// A free slot of at least n values, waiting while all `cap` are in use (free slots beyond the cap are
  /// dropped: a plan with fewer slots came after one with more).
  std::unique_ptr<WitnessSlot> take_slot(size_t n, size_t cap) {
    std::unique_lock lk(slot_mu);
    while (!free_slots.empty() && slots > cap) {
      free_slots.pop_back();
      slots--;
    }
    slot_cv.wait(lk, [&] { return !free_slots.empty() || slots < cap; });
    if (!free_slots.empty()) {
      std::unique_ptr<WitnessSlot> s = std::move(free_slots.back());
      free_slots.pop_back();
      if (s->w.size() >= n) return s;
      slots--;  // too small for this circuit: replaced below
    }
    slots++;
    if (!slot_copy_pool) slot_copy_pool = std::make_unique<ThreadPool>(upload_tuning().threads);
    lk.unlock();
    try {
      auto s = std::make_unique<WitnessSlot>();
      {
        std::lock_guard<std::mutex> g(gpu_mu);
        s->w = cuda::DeviceFrVec(n, opt.device);
        cuda::synchronize(opt.device);  // everything queued before has finished: the block is ours alone
      }
      s->staging = make_staging(opt.device);
      return s;
    } catch (...) {
      std::lock_guard g(slot_mu);
      slots--;
      slot_cv.notify_one();
      throw;
    }
  }
  void give_slot(std::unique_ptr<WitnessSlot> s) {
    std::lock_guard g(slot_mu);
    free_slots.push_back(std::move(s));
    slot_cv.notify_one();
  }
  /// inputs ‖ aux of `asg` into slot s (outside gpu_mu): returns once the data is on the device.
  void fill_slot(WitnessSlot& s, const Assignment& asg) {
    auto copy = [this](void* d, const void* src, size_t bytes) {
      parallel_memcpy(*slot_copy_pool, d, src, bytes);
    };
    s.staging->upload_at(s.w, 0, asg.inputs.data(), asg.inputs.size(), copy, true);
    upload_witness(*s.staging, *slot_copy_pool, s.w, asg.inputs.size(), asg.aux.data(), asg.aux.size(), true);
  }

  /// dst ← host, then zeros to dst's end (a, b, c may stop short of the domain), through the staging.
  void upload_padded(cuda::DeviceFrVec& dst, const Scalars& host) {
    upload_at(dst, 0, host.data(), host.size());
    if (host.size() < dst.size()) dst.zero_from(host.size());
  }
  /// dst[at..at + n) ← host[0..n) through the pinned staging buffers.
  /// With `host_wait` the call returns once the data is on the device and the context stream is not
  /// ordered after the copy (for an upload beside kernels queued by another thread).
  void upload_at(cuda::DeviceFrVec& dst, size_t at, const Fr* host, size_t n, bool host_wait = false) {
    make_upload_staging();
    staging->upload_at(
        dst, at, host, n,
        [this](void* d, const void* src, size_t bytes) { parallel_memcpy(*copy_pool, d, src, bytes); },
        host_wait);
  }
  /// upload_at for witness values (mostly 0 and 1): packed with CUZK_UPLOAD_PACK=1 or 2; from `ahead`,
  /// the same n values packed before the GPU mutex, when given.
  void upload_witness_at(cuda::DeviceFrVec& dst, size_t at, const Fr* host, size_t n,
                         const cuda::PackedWitness* ahead, bool host_wait = false) {
    make_upload_staging();
    if (ahead) return staging->upload_packed_at(dst, at, *ahead, *copy_pool, host_wait);
    upload_witness(*staging, *copy_pool, dst, at, host, n, host_wait);
  }
  /// The staging buffers and copy threads of the uploads under gpu_mu, made at the first upload.
  void make_upload_staging() {
    if (staging) return;
    staging = make_staging(opt.device);
    copy_pool = std::make_unique<ThreadPool>(upload_tuning().threads);
  }

  size_t resident_bytes() const {
    size_t b = 0;
    for (auto& [k, r] : residents) b += r->bytes;
    for (auto& [k, r] : rows) b += r->dev.bytes();
    return b;
  }

  /// Bytes the resident keys and rows may hold beside one partition of a key planned as `p`.
  size_t key_budget(const DevicePlan& p) const {
    const size_t part = std::max(p.ntt_phase_bytes, p.msm_phase_bytes) + kDeviceReserve;
    return budget > part ? budget - part : 0;
  }
  /// Evicts least recently used keys and rows (not `keep`) until `need` more bytes fit in `limit`.
  void make_room(size_t need, size_t limit, const void* keep) {
    while (resident_bytes() + need > limit) {
      uint64_t oldest = UINT64_MAX;
      const void* victim = nullptr;
      for (auto& [k, r] : residents)
        if (k != keep && r->last_use < oldest) oldest = r->last_use, victim = k;
      for (auto& [k, r] : rows)
        if (k != keep && r->last_use < oldest) oldest = r->last_use, victim = k;
      if (!victim) return;
      residents.erase(static_cast<const ProvingKey*>(victim));
      rows.erase(static_cast<const CompactCs*>(victim));
    }
  }

  /// The resident rows of cs, uploaded (after making room) on first use; nullptr when they do not fit
  /// the budget (then a, b, c are evaluated on the host for this call).
  std::shared_ptr<ResidentRows> rows_for(const std::shared_ptr<const CompactCs>& cs, const Resident& key) {
    auto it = rows.find(cs.get());
    if (it != rows.end() && it->second->cs == cs) {
      it->second->last_use = ++clock;
      return it->second;
    }
    if (!key.plan.rows_resident) return nullptr;
    make_room(cs->bytes(), key_budget(key.plan), key.key.get());
    auto r = std::make_shared<ResidentRows>(cs, opt.device);
    r->last_use = ++clock;
    rows[cs.get()] = r;
    return r;
  }

  /// The device bytes this backend may use: the configured budget, else the device's memory less 1 GiB
  /// (other processes' contexts, a display, the allocator's fragmentation).
  size_t device_budget() const {
    if (opt.mem_budget) return opt.mem_budget;
    return total_mem > (size_t{2} << 30) ? total_mem - (size_t{1} << 30) : total_mem / 2;
  }

  cuda::GpuNtt& ntt(int log_n, RootConvention conv) {
    auto& p = ntts[{log_n, (int)conv}];
    if (!p) p = std::make_unique<cuda::GpuNtt>(log_n, conv, opt.device);
    return *p;
  }

  /// The device layout of key (planned on first use, with `rows` when its assignments are deferred):
  /// its resident vectors uploaded after evicting least recently used keys and rows, its streamed ones
  /// page-locked. Borrowed keys (no owner) are laid out for this call only. Throws kInvalidArgument
  /// when the budget is below what one partition of this key needs.
  std::shared_ptr<Resident> resident_for(const std::shared_ptr<const ProvingKey>& key,
                                         const CompactCs* rows_cs = nullptr) {
    budget = device_budget();
    const DevicePlan plan = plan_on_device(*key, rows_cs, budget);
    auto it = residents.find(key.get());
    if (it != residents.end() && it->second->key == key) {
      Resident& r = *it->second;
      r.last_use = ++clock;
      // A key preloaded before its rows were known keeps its uploads when the plan with the rows keeps
      // the same vectors resident; otherwise it is laid out again.
      if (!rows_cs || r.planned_with_rows) return it->second;
      if (plan.resident == r.plan.resident) {
        r.plan = plan;
        r.planned_with_rows = true;
        return it->second;
      }
      residents.erase(it);
    }
    if (!plan.fits)
      throw Error(ErrorCode::kInvalidArgument, "GPU memory budget: a partition of this 2^" +
                                                   std::to_string(key->log_n) + " key " + plan.describe());
    make_room(plan.resident_bytes, key_budget(plan), rows_cs);
    auto r = std::make_shared<Resident>(key, plan, opt.device);
    r->planned_with_rows = rows_cs != nullptr;
    r->last_use = ++clock;
    if (key.use_count() > 0) residents[key.get()] = r;  // owned keys stay; borrowed ones go after the call
    return r;
  }

  /// Page-locks the host arrays of `cs`'s rows (once; the last circuit's stay locked until another's
  /// are), so that their slices cross at the link's DMA rate.
  void pin_rows(const std::shared_ptr<const CompactCs>& cs) {
    if (pinned_rows == cs) return;
    rows_pins.clear();
    for (const CompactMatrix* m : {&cs->a, &cs->b, &cs->c}) {
      rows_pins.emplace_back(m->row_offsets.data(), m->row_offsets.size() * 8, opt.device);
      rows_pins.emplace_back(m->cols.data(), m->cols.size() * 4, opt.device);
      rows_pins.emplace_back(m->coeffs.data(), m->coeffs.size() * 4, opt.device);
    }
    pinned_rows = cs;
  }

  /// What streamed rows are evaluated against: the circuit's coefficient table and the witness
  /// (inputs ‖ aux; aux from `ahead` when packed before the GPU mutex) on the device; the rows' slices
  /// cross through `pipe`.
  struct RowsInputs {
    cuda::ChunkPipe& pipe;
    cuda::DeviceFrVec table, w;
    RowsInputs(Impl& im, const Assignment& asg, const cuda::PackedWitness* ahead, cuda::ChunkPipe& p)
        : pipe(p),
          table(asg.rows->table.size(), im.opt.device),
          w(asg.inputs.size() + (ahead ? ahead->n : asg.aux.size()), im.opt.device) {
      table.upload(asg.rows->table);
      im.upload_at(w, 0, asg.inputs.data(), asg.inputs.size());
      // packed ahead, the host aux may be gone already (aux_read)
      im.upload_witness_at(w, asg.inputs.size(), asg.aux.data(), ahead ? ahead->n : asg.aux.size(), ahead);
    }
    /// out ← the rows of m applied to the witness.
    void evaluate(const CompactMatrix& m, cuda::DeviceFrVec& out) const {
      cuda::evaluate_rows_streamed({m.row_offsets.data(), m.cols.data(), m.coeffs.data(), m.rows()},
                                   table.data(), w.data(), out, pipe);
    }
  };

  /// H of a deferred bellperson assignment whose rows stream from host memory (DevicePlan::rows_streamed),
  /// into `h` (n values, then coset_inverse'd like the other paths): the witness goes up, a is evaluated
  /// and transformed, then parked in pinned host memory while b's rows are evaluated; b is transformed,
  /// c evaluated, the witness dropped, c transformed, and a comes back for (a∘b − c)/Z. At most three
  /// vectors are live at once (the witness and the transforms' scratch counting as one each).
  void h_from_streamed_rows(const Assignment& asg, const cuda::PackedWitness* ahead, size_t rows_chunk,
                            cuda::GpuNtt& ntt, const Fr& g, const Fr& z_inv, bool frugal,
                            cuda::DeviceFrVec& h, StageTimes& st) {
    const CompactCs& cs = *asg.rows;
    const int dev = opt.device;
    const size_t n = cs.domain_size();
    auto t = Clock::now();
    pin_rows(asg.rows);
    if (ms_since(t) > 1) st.emplace_back("rows_pin", ms_since(t));
    t = Clock::now();
    auto t_step = t;
    const bool prof = h_profile();
    auto step = [&](const char* name) {  // CUZK_H_PROFILE=1: the step's time, synchronized
      if (!prof) return;
      cuda::synchronize(dev);
      st.emplace_back(name, ms_since(t_step));
      t_step = Clock::now();
    };
    cuda::ChunkPipe pipe(rows_chunk, dev);
    auto in = std::make_unique<RowsInputs>(*this, asg, ahead, pipe);
    step("h_witness_up");
    auto rows = [&](const CompactMatrix& m, cuda::DeviceFrVec& out) { in->evaluate(m, out); };
    auto to_coset = [&](cuda::DeviceFrVec& v) {
      ntt.inverse(v);
      ntt.coset_forward(v, g);
    };
    Fr* const park = parked(0, n);
    cuda::DeviceFrVec a(n, dev);
    rows(cs.a, a);
    step("h_rows_a");
    to_coset(a);
    step("h_ntt_a");
    auto park_a = cuda::AsyncCopy::to_host(park, a);  // crosses while b's rows do the other way
    cuda::DeviceFrVec b(n, dev);
    rows(cs.b, b);
    step("h_rows_b");
    park_a.wait();
    step("h_park_a");
    a = {};  // before b's transforms take their scratch: three vectors at most
    to_coset(b);
    step("h_ntt_b");
    cuda::DeviceFrVec c(n, dev);
    rows(cs.c, c);
    step("h_rows_c");
    in.reset();  // the witness and the table go (the MSMs' aux goes up again after H)
    if (frugal) cuda::release_cached_memory(dev);
    to_coset(c);
    step("h_ntt_c");
    h = cuda::DeviceFrVec(n, dev);  // after c's transforms have returned their scratch
    h.upload(park);
    step("h_a_back");
    cuda::fr_mul_sub_scale(h, b, c, z_inv, h);
    step("h_mul_sub");
    st.emplace_back("abc_streamed_h", ms_since(t));
  }

  /// H as h_from_streamed_rows does, in two device vectors at most (DevicePlan::h_lean, the smallest
  /// cards): c and b are evaluated and parked raw in host memory, a is evaluated (the witness dropped),
  /// transformed and parked; b comes back, is transformed and parked again; c comes back and is
  /// transformed in `h`; then a and b cross in slices beside which h ← (a∘b − c)/Z is formed.
  void h_lean_from_streamed_rows(const Assignment& asg, const cuda::PackedWitness* ahead, size_t rows_chunk,
                                 cuda::GpuNtt& ntt, const Fr& g, const Fr& z_inv, bool frugal,
                                 cuda::DeviceFrVec& h, StageTimes& st) {
    const CompactCs& cs = *asg.rows;
    const int dev = opt.device;
    const size_t n = cs.domain_size();
    auto t = Clock::now();
    pin_rows(asg.rows);
    if (ms_since(t) > 1) st.emplace_back("rows_pin", ms_since(t));
    t = Clock::now();
    Fr* const c_raw = parked(0, n);
    Fr* const b_park = parked(1, n);  // raw, then transformed
    Fr* const a_park = parked(2, n);  // transformed
    cuda::ChunkPipe pipe(rows_chunk, dev);
    {
      const RowsInputs in(*this, asg, ahead, pipe);
      h = cuda::DeviceFrVec(n, dev);
      in.evaluate(cs.c, h);
      cuda::AsyncCopy::to_host(c_raw, h).wait();  // then the vector's buffer is written again
      in.evaluate(cs.b, h);
      cuda::AsyncCopy::to_host(b_park, h).wait();
      in.evaluate(cs.a, h);
    }                                              // the witness and the table go
    if (frugal) cuda::release_cached_memory(dev);  // the witness's block is not a vector's size
    auto to_coset = [&](cuda::DeviceFrVec& v) {
      ntt.inverse(v);
      ntt.coset_forward(v, g);
    };
    to_coset(h);
    cuda::AsyncCopy::to_host(a_park, h).wait();
    h.upload(b_park);
    to_coset(h);
    cuda::AsyncCopy::to_host(b_park, h).wait();
    h.upload(c_raw);
    to_coset(h);
    // a and b in slices, half a pipe buffer each
    const size_t per = pipe.chunk_bytes() / 2 / sizeof(Fr), half = per * sizeof(Fr);
    const size_t slices = (n + per - 1) / per;
    auto fetch = [&](size_t i) {
      const size_t off = i * per, len = std::min(per, n - off);
      pipe.copy_to((int)(i & 1), 0, a_park + off, len * sizeof(Fr));
      pipe.copy_to((int)(i & 1), half, b_park + off, len * sizeof(Fr));
      pipe.mark((int)(i & 1));
    };
    for (size_t i = 0; i < std::min<size_t>(2, slices); i++) fetch(i);
    for (size_t i = 0; i < slices; i++) {
      const size_t off = i * per, len = std::min(per, n - off);
      const char* d = static_cast<const char*>(pipe.context_waits((int)(i & 1)));
      cuda::fr_mul_sub_scale_n(reinterpret_cast<const Fr*>(d), reinterpret_cast<const Fr*>(d + half),
                               h.data() + off, z_inv, h.data() + off, len, dev);
      pipe.release_after_context((int)(i & 1));
      if (i + 2 < slices) fetch(i + 2);
    }
    st.emplace_back("abc_lean_h", ms_since(t));
  }

  /// Σ scalars·bases over host `bases` whose chunks come from `seq` (scalars on the device): chunk i + 1
  /// crosses the link while chunk i's MSM runs, and the next vector's first chunk while this one's last.
  template <class F>
  Jacobian<F> streamed(std::unique_ptr<cuda::Msm<F>>& engine, ChunkSequence& seq, const Affine<F>* bases,
                       const Fr* d_scalars, size_t n, size_t scratch) {
    return streamed_with(engine, seq, bases, n, scratch,
                         [d_scalars](size_t off, size_t) { return d_scalars + off; });
  }
  /// The same with the scalars of points [off, off + len) on the device at scalars_at(off, len), which
  /// may compute them (a density gather) before it returns.
  template <class F, class ScalarsAt>
  Jacobian<F> streamed_with(std::unique_ptr<cuda::Msm<F>>& engine, ChunkSequence& seq, const Affine<F>* bases,
                            size_t n, size_t scratch, const ScalarsAt& scalars_at) {
    if (!engine)
      engine = std::make_unique<cuda::Msm<F>>(cuda::MsmConfig{opt.device, 0, size_t{1} << 28, scratch});
    Jacobian<F> acc = Jacobian<F>::infinity();
    for (size_t off = 0; off < n;) {
      const auto [d, bytes] = seq.next(bases + off);
      const size_t len = bytes / sizeof(Affine<F>);
      const Fr* sc = scalars_at(off, len);
      acc = acc + engine->msm_split01_device_bases(static_cast<const Affine<F>*>(d), sc, len);
      seq.done();  // the MSM returned: its buffer takes the chunk after next
      off += len;
    }
    return acc;
  }
};

GpuBackend::GpuBackend(GpuBackendOptions opt) : impl_(std::make_unique<Impl>()) {
  impl_->opt = opt;
  const cuda::DeviceInfo info = cuda::device_info(opt.device);
  impl_->name = "cuda:" + std::to_string(opt.device) + " (" + info.name + ")";
  impl_->total_mem = info.global_mem;
  if (opt.g2_on_cpu) impl_->g2_pool = std::make_unique<ThreadPool>(opt.g2_threads);
}

GpuBackend::~GpuBackend() = default;

std::string GpuBackend::name() const { return impl_->name; }
const GpuBackendOptions& GpuBackend::options() const { return impl_->opt; }

bool GpuBackend::preload(const std::shared_ptr<const ProvingKey>& key, const CompactCs* rows) {
  std::lock_guard<std::mutex> lk(impl_->gpu_mu);
  return key.use_count() > 0 && impl_->resident_for(key, rows)->plan.all_resident();
}

// These two plan without the GPU mutex (held through a partition's kernels): the budget and the device
// are fixed once the backend is made.
KeyVectorSet GpuBackend::device_resident(const ProvingKey& key, const CompactCs* rows) const {
  KeyVectorSet out = plan_on_device(key, rows, impl_->device_budget()).resident;
  if (impl_->g2_pool) out[(int)KeyVector::kBG2] = false;  // the CPU pool reads b_g2's host points
  return out;
}

uint64_t GpuBackend::partition_host_bytes(const ProvingKey& key, const CompactCs* rows) const {
  const DevicePlan p = plan_on_device(key, rows, impl_->device_budget());
  const uint64_t n = key.domain_size(), vars = (uint64_t)key.n_inputs + key.n_aux;
  uint64_t b = 0;
  if (rows && p.rows_streamed)
    b += 32 * n;  // a parked in pinned memory while b and c are transformed
  else if (rows && !p.rows_resident)
    b += 32 * (3 * n + vars);                                          // a, b, c and the witness on the host
  if (impl_->g2_pool) b += 32 * (uint64_t)key.count(KeyVector::kBG2);  // B scalars for the CPU's G2 MSM
  return b;
}

DevicePlan GpuBackend::plan(const ProvingKey& key, const CompactCs* rows) const {
  std::lock_guard<std::mutex> lk(impl_->gpu_mu);
  auto it = impl_->residents.find(&key);
  if (it != impl_->residents.end()) return it->second->plan;
  return plan_on_device(key, rows, impl_->device_budget());
}

size_t GpuBackend::evict(const ProvingKey* key) {
  std::lock_guard<std::mutex> lk(impl_->gpu_mu);
  auto it = impl_->residents.find(key);
  if (it == impl_->residents.end()) return 0;
  const size_t b = it->second->bytes;
  impl_->residents.erase(it);
  return b;
}

bool GpuBackend::resident(const ProvingKey* key) const {
  std::lock_guard<std::mutex> lk(impl_->gpu_mu);
  auto it = impl_->residents.find(key);
  return it != impl_->residents.end() && it->second->plan.all_resident();
}

size_t GpuBackend::resident_bytes() const {
  std::lock_guard<std::mutex> lk(impl_->gpu_mu);
  return impl_->resident_bytes();
}

size_t GpuBackend::mem_budget() const {
  std::lock_guard<std::mutex> lk(impl_->gpu_mu);
  return impl_->budget;
}

/// CUZK_MEM_TRACE=1 (diagnostics): start() adds stages "mem_<point>" whose value is the device memory in
/// use there, MiB (the driver's view), and "pool_<point>", the pool's reserved MiB.
static bool mem_trace() {
  static const bool on = [] {
    const char* e = std::getenv("CUZK_MEM_TRACE");
    return e && e[0] == '1';
  }();
  return on;
}
static void trace_memory(StageTimes& st, const char* point, int dev) {
  if (!mem_trace()) return;
  cuda::synchronize(dev);
  const cuda::MemoryStats m = cuda::memory_stats(dev);
  st.emplace_back(std::string("mem_") + point, (double)(m.device_total - m.device_free) / (1 << 20));
  st.emplace_back(std::string("pool_") + point, (double)m.pool_reserved / (1 << 20));
}

std::unique_ptr<BackendPending> GpuBackend::start(std::shared_ptr<const ProvingKey> key,
                                                  std::shared_ptr<const Assignment> asg) {
  return start_releasing(std::move(key), std::move(asg), {});
}

std::unique_ptr<BackendPending> GpuBackend::start_releasing(std::shared_ptr<const ProvingKey> key,
                                                            std::shared_ptr<const Assignment> asg,
                                                            const std::function<void()>& aux_read) {
  check_fault(FaultPoint::kBackendStart, "cuda start");  // tests: a failed start (util/fault.hpp)
  Impl& im = *impl_;
  const int dev = im.opt.device;
  const size_t n = key->domain_size();
  PartitionSums s;
  StageTimes& st = s.stages;
  std::future<G2> g2;
  // Packed ahead (witness_upload): the aux values that cross under the GPU mutex are packed first, before
  // any lock, beside the other partition's kernels (the mutex below is held for a whole partition), and
  // cross in a few percent of their bytes (nothing when they are too dense). Only plans without witness
  // slots upload under the mutex: the plan of this key's shape on this budget says so in advance; a layout
  // made otherwise (a key re-planned since) discards the packing below.
  std::optional<cuda::PackedWitness> ahead;
  const auto gpu_busy = [&im] {
    if (!im.gpu_mu.try_lock()) return true;
    im.gpu_mu.unlock();
    return false;
  };
  const WitnessUpload mode = witness_upload();
  if (key->n_aux > 0 &&
      (mode == WitnessUpload::kPackedAhead || (mode == WitnessUpload::kAuto && gpu_busy())) &&
      !(asg->rows && plan_on_device(*key, asg->rows.get(), im.device_budget()).witness_slots > 0)) {
    const auto t = Clock::now();
    {
      std::lock_guard g(im.pack_mu);
      if (!im.pack_pool) im.pack_pool = std::make_unique<ThreadPool>(upload_tuning().threads);
      ahead = cuda::pack_witness_ahead(asg->aux.data(), key->n_aux,
                                       cuda::UploadStaging::packed_piece(upload_tuning().chunk_bytes),
                                       *im.pack_pool);
    }
    st.emplace_back("witness_pack", ms_since(t));
  }
  // The key's device layout (uploaded or page-locked on first use): it says how many witness slots there
  // are and whether a, b, c are transformed in sequence.
  std::shared_ptr<Resident> res;
  {
    std::lock_guard<std::mutex> lk(im.gpu_mu);
    const auto t = Clock::now();
    res = im.resident_for(key, asg->rows.get());
    if (ms_since(t) > 1) st.emplace_back("srs_upload", ms_since(t));
  }
  trace_memory(st, "key", dev);
  DevicePlan plan = res->plan;  // a copy: a later call may re-plan the key (its rows became known)
  // CUZK_H_LEAN=1 (tests): the lean H wherever rows stream, as the smallest cards get it; it needs less
  // device memory than the plan's own arrangement, so the plan still holds.
  if (const char* e = std::getenv("CUZK_H_LEAN"); e && std::string(e) == "1" && plan.rows_streamed)
    plan.h_lean = true;
  // Frugal: the budget is the user's, or the plan leaves little room: the pool's cached blocks go back
  // between H and the MSMs and each MSM engine's scratch after its call, so the device peak is the plan's.
  const size_t peak =
      plan.resident_bytes + std::max(plan.ntt_phase_bytes, plan.msm_phase_bytes) + kDeviceReserve;
  const bool frugal = im.opt.mem_budget != 0 || plan.budget < peak + 4 * plan.msm_scratch_bytes;
  // Deferred a, b, c: the witness goes up into a slot before the GPU mutex is taken, overlapping the
  // kernels of the partition that holds it; the slot goes back when this call's kernels are done.
  std::unique_ptr<WitnessSlot> slot;
  struct SlotReturn {
    Impl& im;
    std::unique_ptr<WitnessSlot>& s;
    ~SlotReturn() {
      if (s) im.give_slot(std::move(s));
    }
  } slot_return{im, slot};
  if (asg->rows && plan.witness_slots > 0) {
    auto t = Clock::now();
    slot = im.take_slot(asg->inputs.size() + asg->aux.size(), (size_t)plan.witness_slots);
    st.emplace_back("slot_wait", ms_since(t));
    t = Clock::now();
    im.fill_slot(*slot, *asg);
    st.emplace_back("upload_witness", ms_since(t));
  }
  // Deferred rows that will not be on the device: a, b, c evaluated here, before the GPU mutex, so that
  // this CPU work overlaps another partition's kernels.
  // Rows streamed to the device in slices (plan.rows_streamed): a, b, c evaluated there, H in sequence.
  const bool stream_rows = plan.rows_streamed && asg->rows && key->convention == HConvention::kBellperson;
  std::shared_ptr<const Assignment> host_abc;
  if (asg->rows && !stream_rows && (!slot || !plan.rows_resident)) {
    const auto t = Clock::now();
    auto full = std::make_shared<Assignment>();
    {
      std::lock_guard g(im.abc_mu);
      if (!im.abc_pool)
        im.abc_pool = std::make_unique<ThreadPool>(std::max(1u, std::thread::hardware_concurrency()));
      evaluate_abc(*asg->rows, witness_of(*asg), full->a.vec(), full->b.vec(), full->c.vec(), *im.abc_pool);
    }
    host_abc = full;
    st.emplace_back("abc_host", ms_since(t));
  }
  // The host witness is read for the last time by its upload (beside H, or before it with the rows or a
  // slot), or by its packing ahead of the GPU mutex: from then on its owner may free it. Not with B_G2 on
  // the CPU, whose scalars come from it after this call.
  const bool release = aux_read && !im.g2_pool;
  if (slot) ahead.reset();  // the witness went up into the slot
  if (ahead && release) aux_read();
  const cuda::PackedWitness* const ahead_ptr = ahead ? &*ahead : nullptr;
  {
    std::lock_guard<std::mutex> lk(im.gpu_mu);
    res->last_use = ++im.clock;
    // Frugal: the blocks the last partition's MSMs left cached (A/B scalars, aux: sizes H cannot reuse)
    // go back before H takes its own.
    if (frugal) cuda::release_cached_memory(dev);

    // Deferred a, b, c (asg->rows) whose rows are resident: evaluated on the device from the slot.
    // Otherwise a, b, c are uploaded through pinned staging on the copy stream, each transform queued as
    // soon as its input is staged, so the uploads overlap the NTTs; aux follows while they run.
    // Every buffer the copy stream writes is taken from the pool before any kernel is queued: a block
    // freed by a queued kernel (the NTT's scratch) may only be reused by work on the context stream.
    auto t = Clock::now();
    std::shared_ptr<ResidentRows> rows =
        host_abc || !asg->rows || stream_rows ? nullptr : im.rows_for(asg->rows, *res);
    if (asg->rows && ms_since(t) > 1) st.emplace_back("rows_upload", ms_since(t));
    if (asg->rows && !rows && !host_abc && !stream_rows)
      throw Error(ErrorCode::kInternal,
                  "GPU backend: the plan keeps the rows on the device, but they are not");
    const Assignment& hv = host_abc ? *host_abc : *asg;  // where host a, b, c are (when not on the device)
    const size_t ni = key->n_inputs;
    t = Clock::now();
    // In sequence, two vectors are live: b and c are loaded into the second in turn. With streamed rows
    // the buffers are taken as the sequence goes (h_from_streamed_rows).
    cuda::DeviceFrVec a(stream_rows ? 0 : n, dev), b(stream_rows ? 0 : n, dev),
        c(plan.abc_in_sequence ? 0 : n, dev);
    cuda::DeviceFrVec wv(slot || plan.abc_in_sequence ? 0 : key->n_aux, dev);  // aux, when there is no slot
    std::unique_ptr<cuda::StreamTimer> abc_timer;
    if (rows) {
      abc_timer = std::make_unique<cuda::StreamTimer>(dev);
      abc_timer->start();
      rows->dev.evaluate(0, slot->w.data(), a);
      rows->dev.evaluate(1, slot->w.data(), b);
      if (key->convention == HConvention::kBellperson) rows->dev.evaluate(2, slot->w.data(), c);
      abc_timer->stop();
    }
    size_t h_len = n;
    if (key->convention == HConvention::kSnarkjs) {
      if (plan.abc_in_sequence) c = cuda::DeviceFrVec(n, dev);  // small keys: never in sequence in practice
      cuda::GpuNtt& ntt = im.ntt(key->log_n, RootConvention::kSnarkjs5);
      const Fr shift = root_of_unity(key->log_n + 1, RootConvention::kSnarkjs5);
      if (!rows) {
        im.upload_padded(a, hv.a);
        im.upload_padded(b, hv.b);
      }
      cuda::fr_mul(a, b, c);  // C = A∘B on the domain
      for (cuda::DeviceFrVec* v : {&a, &b, &c}) {
        ntt.inverse(*v);
        ntt.coset_forward(*v, shift);
      }
      cuda::fr_mul_sub(a, b, c, a);  // h on the odd coset, in a
    } else {
      cuda::GpuNtt& ntt = im.ntt(key->log_n, RootConvention::kGenerator7);
      const Fr g = Fr::from_u64(7);
      const Fr z_inv = (g.pow_u64(n) - Fr::one()).inverse();
      auto to_coset = [&](cuda::DeviceFrVec& v, const Scalars& host) {
        if (!rows) im.upload_padded(v, host);
        ntt.inverse(v);
        ntt.coset_forward(v, g);
      };
      if (stream_rows) {
        if (plan.h_lean)
          im.h_lean_from_streamed_rows(*asg, ahead_ptr, chunk_bytes(plan.rows_chunk_bytes), ntt, g, z_inv,
                                       frugal, a, st);
        else
          im.h_from_streamed_rows(*asg, ahead_ptr, chunk_bytes(plan.rows_chunk_bytes), ntt, g, z_inv, frugal,
                                  a, st);
      } else if (plan.abc_in_sequence) {
        to_coset(a, hv.a);
        to_coset(b, hv.b);
        cuda::fr_mul(a, b, a);  // a∘b on the coset; b's buffer takes c
        // c goes up on the copy stream, which is not ordered after the context stream's product that
        // still reads b: wait for it first.
        if (!rows) cuda::synchronize(dev);
        to_coset(b, hv.c);
        cuda::fr_sub_scale(a, b, z_inv, a);
      } else {
        to_coset(a, hv.a);
        to_coset(b, hv.b);
        to_coset(c, hv.c);
        cuda::fr_mul_sub_scale(a, b, c, z_inv, a);
      }
      ntt.coset_inverse(a, g);
      h_len = n - 1;
    }
    st.emplace_back(rows ? "queue_abc_h" : "upload_abc_queue_h", ms_since(t));
    if (!slot && !plan.abc_in_sequence) {
      t = Clock::now();
      im.upload_witness_at(wv, 0, asg->aux.data(), key->n_aux, ahead_ptr);
      st.emplace_back("upload_aux", ms_since(t));
    }
    t = Clock::now();
    cuda::synchronize(dev);
    b = {};
    c = {};
    st.emplace_back("h_ntt_wait", ms_since(t));
    if (abc_timer) st.emplace_back("abc_device", abc_timer->ms());
    host_abc.reset();
    trace_memory(st, "h", dev);
    if (frugal) cuda::release_cached_memory(dev);  // b, c and the NTT scratch go back to the driver
    // Beside the H MSM (compute-bound, the link mostly idle), on a second thread: the witness goes up
    // when H's buffers took its place (on the copy stream), then L and A, when the plan gives them the side
    // stream, are summed by a second engine from its own chunks (A's scalars gathered a chunk at a time).
    // The buffer is taken after the synchronization above, so no queued kernel can reuse its block.
    const bool aux_beside = !slot && plan.abc_in_sequence;
    if (aux_beside) wv = cuda::DeviceFrVec(key->n_aux, dev);
    const Fr* d_aux = slot ? slot->w.data() + ni : wv.data();
    const bool side_l = plan.side_l && !res->l && key->n_aux > 0;
    const bool side_a = plan.side_a && !res->a && key->count(KeyVector::kA) > 0;
    StageTimes side_st;
    G1 side_l_sum = G1::infinity(), side_a_sum = G1::infinity();
    auto beside_h = [&] {
      auto t0 = Clock::now();
      if (aux_beside) {
        im.upload_witness_at(wv, 0, asg->aux.data(), key->n_aux, ahead_ptr, true);
        side_st.emplace_back("upload_aux_beside_h", ms_since(t0));
        if (release && !ahead) aux_read();
      }
      if (!side_l && !side_a) return;
      const size_t side_chunk = chunk_bytes(plan.side_chunk_bytes);
      if (!im.side_g1)
        im.side_g1 = std::make_unique<cuda::MsmG1>(
            cuda::MsmConfig{dev, 0, size_t{1} << 28, side_chunk, side_priority()});
      cuda::ChunkPipe side_pipe(side_chunk, dev);
      ChunkSequence side_seq(side_pipe);
      const G1Affine* l = res->host_g1(KeyVector::kL).data();
      const G1Affine* a_pts = res->host_g1(KeyVector::kA).data();
      const size_t a_len = key->count(KeyVector::kA);
      if (side_l) side_seq.add(l, key->n_aux, sizeof(G1Affine));
      if (side_a) side_seq.add(a_pts, a_len, sizeof(G1Affine));
      if (side_l) {
        t0 = Clock::now();
        side_l_sum = im.streamed(im.side_g1, side_seq, l, d_aux, key->n_aux, side_chunk);
        side_st.emplace_back("msm_l_beside_h", ms_since(t0));
      }
      if (side_a) {
        // A's scalars (the inputs, then the aux by A's density) a chunk at a time: the whole compacted
        // vector is not on the device.
        t0 = Clock::now();
        cuda::DeviceFrVec sc(side_chunk / sizeof(G1Affine), dev);
        cuda::DensityRanks ranks(asg->inputs, asg->a_aux.words().data(), asg->a_aux.size(), dev,
                                 side_priority());
        if (ranks.size() != a_len)
          throw Error(ErrorCode::kInternal, "GPU backend: the witness's A density gives " +
                                                std::to_string(ranks.size()) + " scalars for " +
                                                std::to_string(a_len) + " points of A");
        side_a_sum =
            im.streamed_with(im.side_g1, side_seq, a_pts, a_len, side_chunk, [&](size_t off, size_t len) {
              ranks.gather(d_aux, off, off + len, sc.data());
              return static_cast<const Fr*>(sc.data());
            });
        side_st.emplace_back("msm_a_beside_h", ms_since(t0));
      }
      if (frugal) im.side_g1->release_scratch();
    };
    // Declared after what it reads: on an exception it is waited for before they go.
    std::future<void> side;
    if (aux_beside || side_l || side_a) side = std::async(std::launch::async, beside_h);

    // The streamed vectors' chunk buffers, for this call's MSMs.
    std::unique_ptr<cuda::ChunkPipe> pipe;
    std::unique_ptr<ChunkSequence> seq;
    const bool main_streams =
        !res->h || (!res->a && !side_a) || !res->b_g1 || (!res->l && !side_l) || (!im.g2_pool && !res->b_g2);
    if (main_streams) {
      pipe = std::make_unique<cuda::ChunkPipe>(chunk_bytes(plan.chunk_bytes), dev);
      seq = std::make_unique<ChunkSequence>(*pipe);
      // in the order of the calls below
      if (!res->h) seq->add(res->host_g1(KeyVector::kH).data(), h_len, sizeof(G1Affine));
      if (!res->a && !side_a)
        seq->add(res->host_g1(KeyVector::kA).data(), key->count(KeyVector::kA), sizeof(G1Affine));
      if (!res->b_g1)
        seq->add(res->host_g1(KeyVector::kBG1).data(), key->count(KeyVector::kBG1), sizeof(G1Affine));
      if (!res->l && !side_l) seq->add(res->host_g1(KeyVector::kL).data(), key->n_aux, sizeof(G1Affine));
      if (!im.g2_pool && !res->b_g2)
        seq->add(res->host_g2().data(), key->count(KeyVector::kBG1), sizeof(G2Affine));
    }
    const size_t scratch = plan.msm_scratch_bytes;
    auto run = [&](auto& engine, auto& stream_engine, const auto& bases, const Fr* sc, size_t len) {
      using J = std::decay_t<decltype(engine->msm_split01_device(sc, len))>;
      if (len == 0) return J::infinity();
      J out = engine ? engine->msm_split01_device(sc, len)
                     : im.streamed(stream_engine, *seq, bases.data(), sc, len, scratch);
      if (frugal) (engine ? engine : stream_engine)->release_scratch();
      return out;
    };

    if (release && !aux_beside && !ahead) aux_read();
    t = Clock::now();
    s.h = run(res->h, im.stream_g1, res->host_g1(KeyVector::kH), a.data(), h_len);
    trace_memory(st, "msm_h", dev);
    a = {};
    st.emplace_back("msm_h", ms_since(t));
    if (side.valid()) {
      t = Clock::now();
      side.get();
      st.emplace_back("side_wait", ms_since(t));
      st.insert(st.end(), side_st.begin(), side_st.end());
    }
    if (frugal) cuda::release_cached_memory(dev);

    // scalars of A, B, L on the device, compacted by density
    t = Clock::now();
    cuda::DeviceFrVec as(side_a ? 0 : key->count(KeyVector::kA), dev), bs(key->count(KeyVector::kBG1), dev);
    if (!side_a)
      cuda::gather_by_density(asg->inputs, d_aux, key->n_aux, asg->a_aux.words().data(), asg->a_aux.size(),
                              as);
    std::vector<Fr> b_head;
    for (size_t i = 0; i < asg->inputs.size(); i++)
      if (asg->b_inp.test(i)) b_head.push_back(asg->inputs[i]);
    cuda::gather_by_density(b_head, d_aux, key->n_aux, asg->b_aux.words().data(), asg->b_aux.size(), bs);
    cuda::synchronize(dev);
    st.emplace_back("density_gather", ms_since(t));

    auto run_g1 = [&](const char* name, std::unique_ptr<cuda::MsmG1>& r, const BigVector<G1Affine>& bases,
                      const Fr* sc, size_t len) {
      const auto t0 = Clock::now();
      G1 out = run(r, im.stream_g1, bases, sc, len);
      st.emplace_back(name, ms_since(t0));
      return out;
    };
    s.a = side_a ? side_a_sum : run_g1("msm_a", res->a, res->host_g1(KeyVector::kA), as.data(), as.size());
    s.b_g1 = run_g1("msm_b_g1", res->b_g1, res->host_g1(KeyVector::kBG1), bs.data(), bs.size());
    s.l = side_l ? side_l_sum : run_g1("msm_l", res->l, res->host_g1(KeyVector::kL), d_aux, key->n_aux);
    trace_memory(st, "msm_l", dev);
    if (slot) im.give_slot(std::move(slot));  // the L MSM returned: no kernel reads the witness now
    if (!im.g2_pool) {
      t = Clock::now();
      s.b_g2 = run(res->b_g2, im.stream_g2, res->host_g2(), bs.data(), bs.size());
      st.emplace_back("msm_b_g2", ms_since(t));
    }
  }
  if (im.g2_pool) {
    // B_G2 on the CPU pool, after the GPU mutex is released; the handle owns key and assignment.
    // Borrowed values are not read after start() returns: their B scalars are gathered now. A key that
    // released b_g2 (device_resident leaves it out here; a caller may not) is read again for it.
    ThreadPool* pool = im.g2_pool.get();
    if (key->is_released(KeyVector::kBG2)) key = with_host_vectors(key);
    if (asg->borrows())
      g2 = std::async(std::launch::async,
                      [key, bs = b_scalars(*asg), pool] { return msm<Fp2>(key->b_g2, bs, *pool); });
    else
      g2 = std::async(std::launch::async,
                      [key, asg, pool] { return msm<Fp2>(key->b_g2, b_scalars(*asg), *pool); });
  }
  return std::make_unique<GpuPending>(std::move(s), std::move(g2));
}

int gpu_device_count() { return cuda::device_count(); }

}  // namespace cuzk
