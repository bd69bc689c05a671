#include "cuda/gpu_backend.hpp"

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <future>
#include <map>
#include <mutex>

#include "cuda/gpu.hpp"
#include "cuda/msm.hpp"
#include "ff/roots.hpp"
#include "groth16/compact_cs.hpp"
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

/// Device bytes one partition of a 2^log_n key needs besides the key: a, b, c, aux, the gathered A and
/// B scalars, the NTT scratch and tables, and the MSM engines' digit/sort scratch (about 10 words per H
/// scalar).
size_t working_set(int log_n) {
  return (size_t{1} << log_n) * 32 * 16 + cuda::GpuNtt::max_table_bytes(log_n);
}

/// The point vectors of one key on the device, one MSM engine each.
struct Resident {
  std::shared_ptr<const ProvingKey> key;
  cuda::MsmG1 a, b_g1, l, h;
  cuda::MsmG2 b_g2;
  size_t bytes = 0;
  uint64_t last_use = 0;

  Resident(std::shared_ptr<const ProvingKey> k, int device)
      : key(std::move(k)), a({device}), b_g1({device}), l({device}), h({device}), b_g2({device}) {
    a.set_bases(key->a);
    b_g1.set_bases(key->b_g1);
    l.set_bases(key->l);
    h.set_bases(key->h);
    b_g2.set_bases(key->b_g2);
    bytes = key->point_bytes() - key->ic.size() * sizeof(G1Affine);
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
  std::unique_ptr<cuda::MsmG1> stream_g1;
  std::unique_ptr<cuda::MsmG2> stream_g2;
  std::unique_ptr<ThreadPool> g2_pool;
  std::unique_ptr<cuda::UploadStaging> staging;  // pinned chunks for the uploads (used under gpu_mu)
  std::unique_ptr<ThreadPool> copy_pool;         // the memcpy into them, split over threads
  // Witness slots (deferred assignments): at most kSlots, each in use by one start() call.
  static constexpr size_t kSlots = 2;
  std::mutex slot_mu;
  std::condition_variable slot_cv;
  std::vector<std::unique_ptr<WitnessSlot>> free_slots;
  size_t slots = 0;                            // made and not destroyed
  std::unique_ptr<ThreadPool> slot_copy_pool;  // the memcpy of slot uploads (outside gpu_mu)

  /// A free slot of at least n values, waiting while all are in use.
  std::unique_ptr<WitnessSlot> take_slot(size_t n) {
    std::unique_lock lk(slot_mu);
    slot_cv.wait(lk, [&] { return !free_slots.empty() || slots < kSlots; });
    if (!free_slots.empty()) {
      std::unique_ptr<WitnessSlot> s = std::move(free_slots.back());
      free_slots.pop_back();
      if (s->w.size() >= n) return s;
      slots--;  // too small for this circuit: replaced below
    }
    slots++;
    if (!slot_copy_pool) slot_copy_pool = std::make_unique<ThreadPool>(8);
    lk.unlock();
    try {
      auto s = std::make_unique<WitnessSlot>();
      {
        std::lock_guard<std::mutex> g(gpu_mu);
        s->w = cuda::DeviceFrVec(n, opt.device);
        cuda::synchronize(opt.device);  // everything queued before has finished: the block is ours alone
      }
      s->staging = std::make_unique<cuda::UploadStaging>(size_t{64} << 20, opt.device);
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
      const size_t parts = 8, step = (bytes / parts + 63) / 64 * 64;
      slot_copy_pool->parallel_for(
          parts,
          [&](size_t lo, size_t hi) {
            for (size_t p = lo; p < hi; p++) {
              const size_t b = p * step;
              if (b < bytes) std::memcpy((char*)d + b, (const char*)src + b, std::min(step, bytes - b));
            }
          },
          1);
    };
    s.staging->upload_at(s.w, 0, asg.inputs.data(), asg.inputs.size(), copy, true);
    s.staging->upload_at(s.w, asg.inputs.size(), asg.aux.data(), asg.aux.size(), copy, true);
  }

  /// dst ← host[0..n) through the pinned staging buffers.
  void upload(cuda::DeviceFrVec& dst, const Fr* host, size_t n) { upload_at(dst, 0, host, n); }
  /// dst ← host, then zeros to dst's end (a, b, c may stop short of the domain), through the staging.
  void upload_padded(cuda::DeviceFrVec& dst, const Scalars& host) {
    upload_at(dst, 0, host.data(), host.size());
    if (host.size() < dst.size()) dst.zero_from(host.size());
  }
  /// dst[at..at + n) ← host[0..n) through the pinned staging buffers.
  void upload_at(cuda::DeviceFrVec& dst, size_t at, const Fr* host, size_t n) {
    if (!staging) {
      staging = std::make_unique<cuda::UploadStaging>(size_t{64} << 20, opt.device);
      copy_pool = std::make_unique<ThreadPool>(8);
    }
    staging->upload_at(dst, at, host, n, [this](void* d, const void* src, size_t bytes) {
      const size_t parts = 8, step = (bytes / parts + 63) / 64 * 64;
      copy_pool->parallel_for(
          parts,
          [&](size_t lo, size_t hi) {
            for (size_t p = lo; p < hi; p++) {
              const size_t b = p * step;
              if (b < bytes) std::memcpy((char*)d + b, (const char*)src + b, std::min(step, bytes - b));
            }
          },
          1);
    });
  }

  size_t resident_bytes() const {
    size_t b = 0;
    for (auto& [k, r] : residents) b += r->bytes;
    for (auto& [k, r] : rows) b += r->dev.bytes();
    return b;
  }

  /// Evicts least recently used keys and rows (not `keep`) until `need` more bytes fit the budget.
  void make_room(size_t need, const void* keep) {
    while (resident_bytes() + need > budget) {
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
  std::shared_ptr<ResidentRows> rows_for(const std::shared_ptr<const CompactCs>& cs, const void* key) {
    auto it = rows.find(cs.get());
    if (it != rows.end() && it->second->cs == cs) {
      it->second->last_use = ++clock;
      return it->second;
    }
    const size_t need = cs->bytes();
    if (need > budget) return nullptr;
    make_room(need, key);
    auto r = std::make_shared<ResidentRows>(cs, opt.device);
    r->last_use = ++clock;
    rows[cs.get()] = r;
    return r;
  }

  size_t budget_for(int log_n) const {
    if (opt.mem_budget) return opt.mem_budget;
    const size_t ws = working_set(log_n);
    return total_mem > ws ? total_mem - ws : 0;
  }

  cuda::GpuNtt& ntt(int log_n, RootConvention conv) {
    auto& p = ntts[{log_n, (int)conv}];
    if (!p) p = std::make_unique<cuda::GpuNtt>(log_n, conv, opt.device);
    return *p;
  }

  /// The resident copy of key, uploading it (after evicting least recently used keys) when it fits;
  /// nullptr when it does not (stream it). Borrowed keys (no owner) are uploaded for this call only.
  std::shared_ptr<Resident> resident_for(const std::shared_ptr<const ProvingKey>& key,
                                         const void* keep = nullptr) {
    budget = budget_for(key->log_n);
    auto it = residents.find(key.get());
    if (it != residents.end() && it->second->key == key) {
      it->second->last_use = ++clock;
      return it->second;
    }
    const size_t need = key->point_bytes();
    if (need > budget) return nullptr;
    make_room(need, keep);
    auto r = std::make_shared<Resident>(key, opt.device);
    r->last_use = ++clock;
    if (key.use_count() > 0) residents[key.get()] = r;  // owned keys stay; borrowed ones go after the call
    return r;
  }

  /// Σ scalars·bases over host `bases` streamed in chunks through `engine` (scalars on the device).
  template <class F>
  Jacobian<F> streamed(std::unique_ptr<cuda::Msm<F>>& engine, const BigVector<Affine<F>>& bases,
                       const Fr* d_scalars, size_t n) {
    if (!engine) engine = std::make_unique<cuda::Msm<F>>(cuda::MsmConfig{opt.device});
    const size_t chunk = std::max<size_t>(size_t{1} << 20, budget / 2 / sizeof(Affine<F>));
    Jacobian<F> acc = Jacobian<F>::infinity();
    for (size_t off = 0; off < n; off += chunk) {
      const size_t len = std::min(chunk, n - off);
      engine->set_bases(std::span<const Affine<F>>(bases.data() + off, len));
      acc = acc + engine->msm_split01_device(d_scalars + off, len);
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

bool GpuBackend::preload(const std::shared_ptr<const ProvingKey>& key) {
  std::lock_guard<std::mutex> lk(impl_->gpu_mu);
  return key.use_count() > 0 && impl_->resident_for(key) != nullptr;
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
  return impl_->residents.count(key) > 0;
}

size_t GpuBackend::resident_bytes() const {
  std::lock_guard<std::mutex> lk(impl_->gpu_mu);
  return impl_->resident_bytes();
}

size_t GpuBackend::mem_budget() const {
  std::lock_guard<std::mutex> lk(impl_->gpu_mu);
  return impl_->budget;
}

std::unique_ptr<BackendPending> GpuBackend::start(std::shared_ptr<const ProvingKey> key,
                                                  std::shared_ptr<const Assignment> asg) {
  check_fault(FaultPoint::kBackendStart, "cuda start");  // tests: a failed start (util/fault.hpp)
  Impl& im = *impl_;
  const int dev = im.opt.device;
  const size_t n = key->domain_size();
  PartitionSums s;
  StageTimes& st = s.stages;
  std::future<G2> g2;
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
  if (asg->rows) {
    auto t = Clock::now();
    slot = im.take_slot(asg->inputs.size() + asg->aux.size());
    st.emplace_back("slot_wait", ms_since(t));
    t = Clock::now();
    im.fill_slot(*slot, *asg);
    st.emplace_back("upload_witness", ms_since(t));
  }
  {
    std::lock_guard<std::mutex> lk(im.gpu_mu);
    auto t = Clock::now();
    std::shared_ptr<Resident> res = im.resident_for(key, asg->rows.get());
    if (ms_since(t) > 1) st.emplace_back("srs_upload", ms_since(t));

    // Deferred a, b, c (asg->rows): the witness goes up and the resident rows are evaluated on the device.
    // Otherwise a, b, c are uploaded through pinned staging on the copy stream, each transform queued as
    // soon as its input is staged, so the uploads overlap the NTTs; aux follows while they run.
    // Every buffer the copy stream writes is taken from the pool before any kernel is queued: a block
    // freed by a queued kernel (the NTT's scratch) may only be reused by work on the context stream.
    t = Clock::now();
    std::shared_ptr<ResidentRows> rows = asg->rows ? im.rows_for(asg->rows, key.get()) : nullptr;
    if (asg->rows && ms_since(t) > 1) st.emplace_back("rows_upload", ms_since(t));
    std::shared_ptr<const Assignment> host_abc;  // deferred rows that do not fit: evaluated here
    if (asg->rows && !rows) {
      t = Clock::now();
      auto full = std::make_shared<Assignment>();
      if (!im.copy_pool) im.copy_pool = std::make_unique<ThreadPool>(8);
      evaluate_abc(*asg->rows, witness_of(*asg), full->a.vec(), full->b.vec(), full->c.vec(), *im.copy_pool);
      host_abc = full;
      st.emplace_back("abc_host", ms_since(t));
    }
    const Assignment& hv = host_abc ? *host_abc : *asg;  // where host a, b, c are (when not on the device)
    const size_t ni = key->n_inputs;
    t = Clock::now();
    cuda::DeviceFrVec a(n, dev), b(n, dev), c(n, dev);
    cuda::DeviceFrVec wv(slot ? 0 : key->n_aux, dev);  // aux, when there is no slot
    const Fr* d_w = slot ? slot->w.data() : nullptr;   // inputs ‖ aux, on the device already
    const Fr* d_aux = slot ? d_w + ni : wv.data();
    std::unique_ptr<cuda::StreamTimer> abc_timer;
    if (rows) {
      abc_timer = std::make_unique<cuda::StreamTimer>(dev);
      abc_timer->start();
      rows->dev.evaluate(0, d_w, a);
      rows->dev.evaluate(1, d_w, b);
      if (key->convention == HConvention::kBellperson) rows->dev.evaluate(2, d_w, c);
      abc_timer->stop();
    }
    size_t h_len = n;
    if (key->convention == HConvention::kSnarkjs) {
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
      for (auto [v, host] : {std::pair{&a, &hv.a}, {&b, &hv.b}, {&c, &hv.c}}) {
        if (!rows) im.upload_padded(*v, *host);
        ntt.inverse(*v);
        ntt.coset_forward(*v, g);
      }
      const Fr z_inv = (g.pow_u64(n) - Fr::one()).inverse();
      cuda::fr_mul_sub_scale(a, b, c, z_inv, a);
      ntt.coset_inverse(a, g);
      h_len = n - 1;
    }
    st.emplace_back(rows ? "queue_abc_h" : "upload_abc_queue_h", ms_since(t));
    if (!slot) {
      t = Clock::now();
      im.upload(wv, asg->aux.data(), key->n_aux);
      st.emplace_back("upload_aux", ms_since(t));
    }
    t = Clock::now();
    cuda::synchronize(dev);
    b = {};
    c = {};
    st.emplace_back("h_ntt_wait", ms_since(t));
    if (abc_timer) st.emplace_back("abc_device", abc_timer->ms());
    host_abc.reset();

    t = Clock::now();
    s.h =
        res ? res->h.msm_split01_device(a.data(), h_len) : im.streamed(im.stream_g1, key->h, a.data(), h_len);
    a = {};
    st.emplace_back("msm_h", ms_since(t));

    // scalars of A, B, L on the device, compacted by density
    t = Clock::now();
    cuda::DeviceFrVec as(key->a.size(), dev), bs(key->b_g1.size(), dev);
    cuda::gather_by_density(asg->inputs, d_aux, key->n_aux, asg->a_aux.words().data(), asg->a_aux.size(), as);
    std::vector<Fr> b_head;
    for (size_t i = 0; i < asg->inputs.size(); i++)
      if (asg->b_inp.test(i)) b_head.push_back(asg->inputs[i]);
    cuda::gather_by_density(b_head, d_aux, key->n_aux, asg->b_aux.words().data(), asg->b_aux.size(), bs);
    cuda::synchronize(dev);
    st.emplace_back("density_gather", ms_since(t));

    auto run_g1 = [&](const char* name, cuda::MsmG1* r, const BigVector<G1Affine>& bases, const Fr* sc,
                      size_t len) {
      const auto t0 = Clock::now();
      G1 out = len == 0 ? G1::infinity()
               : r      ? r->msm_split01_device(sc, len)
                        : im.streamed(im.stream_g1, bases, sc, len);
      st.emplace_back(name, ms_since(t0));
      return out;
    };
    s.a = run_g1("msm_a", res ? &res->a : nullptr, key->a, as.data(), as.size());
    s.b_g1 = run_g1("msm_b_g1", res ? &res->b_g1 : nullptr, key->b_g1, bs.data(), bs.size());
    s.l = run_g1("msm_l", res ? &res->l : nullptr, key->l, d_aux, key->n_aux);
    if (slot) im.give_slot(std::move(slot));  // the L MSM returned: no kernel reads the witness now
    if (!im.g2_pool) {
      t = Clock::now();
      s.b_g2 = bs.size() == 0 ? G2::infinity()
               : res          ? res->b_g2.msm_split01_device(bs.data(), bs.size())
                              : im.streamed(im.stream_g2, key->b_g2, bs.data(), bs.size());
      st.emplace_back("msm_b_g2", ms_since(t));
    }
  }
  if (im.g2_pool) {
    // B_G2 on the CPU pool, after the GPU mutex is released; the handle owns key and assignment.
    // Borrowed values are not read after start() returns: their B scalars are gathered now.
    ThreadPool* pool = im.g2_pool.get();
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
