// Per-GPU contexts, the caching pool, and the device/memory parts of gpu.hpp.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cuda/chunk_pipe.hpp"
#include "cuda/context.cuh"
#include "cuda/gpu.hpp"
#include "cuda/pin_registry.hpp"
#include "cuda/witness_pack.hpp"
#include "util/fault.hpp"
#include "util/thread_pool.hpp"

namespace cuzk::cuda {

void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
  std::string msg = std::string("CUDA error ") + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) +
                    ") in " + call + " at " + file + ":" + std::to_string(line);
  throw Error(ErrorCode::kCuda, msg);
}

void check_launch(const char* kernel, cudaStream_t stream, const char* file, int line) {
  cudaError_t err = cudaGetLastError();
  if (err == cudaSuccess) check_fault(FaultPoint::kKernelLaunch, kernel);  // tests (util/fault.hpp)
  if (err == cudaSuccess) {
    static const bool sync_check = [] {
      const char* e = std::getenv("CUZK_CUDA_SYNC_CHECK");
      return e && *e && *e != '0';
    }();
    if (sync_check) err = cudaStreamSynchronize(stream);
  }
  if (err != cudaSuccess) throw_cuda_error(err, (std::string("launch of ") + kernel).c_str(), file, line);
}

// ---- pool ------------------------------------------------------------------------------------------

size_t DevicePool::round_size(size_t bytes) {
  constexpr size_t kSmall = 512, kLarge = size_t{2} << 20;
  if (bytes == 0) bytes = 1;
  const size_t g = bytes < (size_t{1} << 20) ? kSmall : kLarge;
  return (bytes + g - 1) / g * g;
}

namespace {
/// Allocations left before the injected failure fires (0 = disarmed); armed from CUZK_GPU_FAIL_ALLOC.
std::atomic<uint64_t>& alloc_countdown() {
  static std::atomic<uint64_t> n{[] {
    const char* e = std::getenv("CUZK_GPU_FAIL_ALLOC");
    return e ? std::strtoull(e, nullptr, 10) : 0ull;
  }()};
  return n;
}
}  // namespace

void inject_alloc_failure(uint64_t n) { alloc_countdown().store(n); }

bool injected_alloc_failure() {
  auto& c = alloc_countdown();
  uint64_t v = c.load();
  while (v != 0) {
    if (c.compare_exchange_weak(v, v - 1)) return v == 1;
  }
  return false;
}

void* DevicePool::alloc(size_t bytes) {
  const size_t sz = round_size(bytes);
  {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = cache_.lower_bound(sz);
    if (it != cache_.end() && it->first <= sz + sz / 8) {
      void* p = it->second;
      const size_t got = it->first;
      cache_.erase(it);
      live_[p] = got;
      in_use_ += got;
      if (in_use_ > peak_) peak_ = in_use_;
      return p;
    }
  }
  int prev = 0;
  CUZK_CUDA_CHECK(cudaGetDevice(&prev));
  CUZK_CUDA_CHECK(cudaSetDevice(device_));
  void* p = nullptr;
  if (injected_alloc_failure()) {
    cudaSetDevice(prev);
    throw_cuda_error(cudaErrorMemoryAllocation, "cudaMalloc (failure injected by CUZK_GPU_FAIL_ALLOC)",
                     __FILE__, __LINE__);
  }
  cudaError_t err = cudaMalloc(&p, sz);
  if (err == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    release_cached();
    err = cudaMalloc(&p, sz);
  }
  cudaSetDevice(prev);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    throw_cuda_error(err, ("cudaMalloc(" + std::to_string(sz) + " bytes)").c_str(), __FILE__, __LINE__);
  }
  std::lock_guard<std::mutex> lk(mu_);
  live_[p] = sz;
  in_use_ += sz;
  reserved_ += sz;
  if (in_use_ > peak_) peak_ = in_use_;
  return p;
}

void DevicePool::free(void* p) {
  if (!p) return;
  std::lock_guard<std::mutex> lk(mu_);
  auto it = live_.find(p);
  if (it == live_.end()) return;  // not ours: ignore rather than corrupt the accounting
  in_use_ -= it->second;
  cache_.emplace(it->second, p);
  live_.erase(it);
}

void DevicePool::release_cached() {
  std::multimap<size_t, void*> drop;
  {
    std::lock_guard<std::mutex> lk(mu_);
    drop.swap(cache_);
    for (auto& [sz, p] : drop) reserved_ -= sz;
  }
  if (drop.empty()) return;
  int prev = 0;
  if (cudaGetDevice(&prev) != cudaSuccess) return;
  cudaSetDevice(device_);
  cudaDeviceSynchronize();  // cached blocks may still be used by queued work of their last owner
  for (auto& [sz, p] : drop) cudaFree(p);
  cudaSetDevice(prev);
}

DevicePool::~DevicePool() {
  // Process teardown: the driver may already be gone; free what we can and ignore errors.
  for (auto& [sz, p] : cache_) cudaFree(p);
  for (auto& [p, sz] : live_) cudaFree(p);
}

size_t DevicePool::in_use() const {
  std::lock_guard<std::mutex> lk(mu_);
  return in_use_;
}
size_t DevicePool::reserved() const {
  std::lock_guard<std::mutex> lk(mu_);
  return reserved_;
}
size_t DevicePool::peak() const {
  std::lock_guard<std::mutex> lk(mu_);
  return peak_;
}

// ---- context ---------------------------------------------------------------------------------------

Context::Context(int device) : device_(device), pool_(device) {
  int n = 0;
  CUZK_CUDA_CHECK(cudaGetDeviceCount(&n));
  if (device < 0 || device >= n)
    throw Error(ErrorCode::kCuda, "CUDA device " + std::to_string(device) + " does not exist (" +
                                      std::to_string(n) + " visible)");
  CUZK_CUDA_CHECK(cudaSetDevice(device));
  CUZK_CUDA_CHECK(cudaGetDeviceProperties(&props_, device));
  CUZK_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  CUZK_CUDA_CHECK(cudaStreamCreateWithFlags(&copy_stream_, cudaStreamNonBlocking));
}

Context& Context::get(int device) {
  // Never destroyed: freeing device memory during static destruction races the runtime's own teardown.
  static std::mutex mu;
  static auto& all = *new std::vector<std::unique_ptr<Context>>();
  std::lock_guard<std::mutex> lk(mu);
  if (device >= 0 && (size_t)device < all.size() && all[device]) {
    all[device]->activate();
    return *all[device];
  }
  std::unique_ptr<Context> c(new Context(device));
  if ((size_t)device >= all.size()) all.resize(device + 1);
  all[device] = std::move(c);
  return *all[device];
}

void Context::activate() const { CUZK_CUDA_CHECK(cudaSetDevice(device_)); }

// ---- gpu.hpp: devices and memory ---------------------------------------------------------------------

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

DeviceInfo device_info(int device) {
  const cudaDeviceProp& p = Context::get(device).props();
  DeviceInfo d;
  d.index = device;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.global_mem = p.totalGlobalMem;
  d.l2_bytes = (size_t)p.l2CacheSize;
  d.smem_optin = p.sharedMemPerBlockOptin;
  auto attribute = [device](cudaDeviceAttr a) {
    int v = 0;
    if (cudaDeviceGetAttribute(&v, a, device) != cudaSuccess) {
      (void)cudaGetLastError();
      v = 0;
    }
    return v;
  };
  d.clock_khz = attribute(cudaDevAttrClockRate);
  d.mem_clock_khz = attribute(cudaDevAttrMemoryClockRate);
  d.mem_bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth);
  return d;
}

CudaVersions cuda_versions() {
  CudaVersions v;
  if (cudaRuntimeGetVersion(&v.runtime) != cudaSuccess) {
    (void)cudaGetLastError();
    v.runtime = 0;
  }
  if (cudaDriverGetVersion(&v.driver) != cudaSuccess) {
    (void)cudaGetLastError();
    v.driver = 0;
  }
  return v;
}

MemoryStats memory_stats(int device) {
  Context& ctx = Context::get(device);
  MemoryStats m;
  m.pool_in_use = ctx.pool().in_use();
  m.pool_reserved = ctx.pool().reserved();
  m.pool_peak = ctx.pool().peak();
  CUZK_CUDA_CHECK(cudaMemGetInfo(&m.device_free, &m.device_total));
  return m;
}

void release_cached_memory(int device) { Context::get(device).pool().release_cached(); }

void synchronize(int device) { CUZK_CUDA_CHECK(cudaStreamSynchronize(Context::get(device).stream())); }

StreamTimer::StreamTimer(int device) : device_(device) {
  Context::get(device);
  cudaEvent_t a, b;
  CUZK_CUDA_CHECK(cudaEventCreate(&a));
  CUZK_CUDA_CHECK(cudaEventCreate(&b));
  start_ = a;
  stop_ = b;
}
StreamTimer::~StreamTimer() {
  if (start_) cudaEventDestroy(static_cast<cudaEvent_t>(start_));
  if (stop_) cudaEventDestroy(static_cast<cudaEvent_t>(stop_));
}
void StreamTimer::start() {
  CUZK_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(start_), Context::get(device_).stream()));
}
void StreamTimer::stop() {
  CUZK_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(stop_), Context::get(device_).stream()));
}
float StreamTimer::ms() {
  CUZK_CUDA_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(stop_)));
  float t = 0;
  CUZK_CUDA_CHECK(
      cudaEventElapsedTime(&t, static_cast<cudaEvent_t>(start_), static_cast<cudaEvent_t>(stop_)));
  return t;
}

PinnedBuffer::PinnedBuffer(size_t bytes) : bytes_(bytes) { CUZK_CUDA_CHECK(cudaMallocHost(&ptr_, bytes)); }
PinnedBuffer::~PinnedBuffer() {
  if (ptr_) cudaFreeHost(ptr_);
}
PinnedBuffer::PinnedBuffer(PinnedBuffer&& o) noexcept : ptr_(o.ptr_), bytes_(o.bytes_) {
  o.ptr_ = nullptr;
  o.bytes_ = 0;
}
PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&& o) noexcept {
  if (this != &o) {
    if (ptr_) cudaFreeHost(ptr_);
    ptr_ = o.ptr_;
    bytes_ = o.bytes_;
    o.ptr_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

// ---- DeviceFrVec -------------------------------------------------------------------------------------

DeviceFrVec::DeviceFrVec(size_t n, int device) : n_(n), device_(device) {
  ptr_ = static_cast<Fr*>(Context::get(device).pool().alloc(n * sizeof(Fr)));
}
DeviceFrVec::~DeviceFrVec() {
  if (ptr_) Context::get(device_).pool().free(ptr_);
}
DeviceFrVec::DeviceFrVec(DeviceFrVec&& o) noexcept : ptr_(o.ptr_), n_(o.n_), device_(o.device_) {
  o.ptr_ = nullptr;
  o.n_ = 0;
}
DeviceFrVec& DeviceFrVec::operator=(DeviceFrVec&& o) noexcept {
  if (this != &o) {
    if (ptr_) Context::get(device_).pool().free(ptr_);
    ptr_ = o.ptr_;
    n_ = o.n_;
    device_ = o.device_;
    o.ptr_ = nullptr;
    o.n_ = 0;
  }
  return *this;
}
UploadStaging::UploadStaging(size_t chunk_bytes, int device, int buffers)
    : device_(device), chunk_(chunk_bytes / sizeof(Fr) * sizeof(Fr)) {
  if (chunk_ == 0 || buffers < 2)
    throw Error(ErrorCode::kInvalidArgument, "UploadStaging: " + std::to_string(buffers) + " buffers of " +
                                                 std::to_string(chunk_bytes) + " bytes (at least 2 of 32)");
  Context::get(device).activate();
  try {
    for (int i = 0; i < buffers; i++) {
      buf_.emplace_back(chunk_);
      cudaEvent_t ev;
      CUZK_CUDA_CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
      done_.push_back(ev);
    }
  } catch (...) {
    for (void* e : done_) cudaEventDestroy(static_cast<cudaEvent_t>(e));
    throw;
  }
}

UploadStaging::~UploadStaging() {
  for (void* e : done_)
    if (e) cudaEventSynchronize(static_cast<cudaEvent_t>(e));  // no copy or unpacking still reads them
  if (dev_) cudaFree(dev_);
  for (void* e : done_)
    if (e) cudaEventDestroy(static_cast<cudaEvent_t>(e));
}

void UploadStaging::upload(DeviceFrVec& dst, const Fr* host, size_t n,
                           const std::function<void(void*, const void*, size_t)>& copy) {
  upload_at(dst, 0, host, n, copy);
}

void UploadStaging::upload_at(DeviceFrVec& dst, size_t at, const Fr* host, size_t n,
                              const std::function<void(void*, const void*, size_t)>& copy, bool host_wait) {
  check_range(dst, at, n);
  Context& ctx = Context::get(device_);
  ctx.activate();
  const size_t per = chunk_ / sizeof(Fr);
  cudaEvent_t last = nullptr;
  for (size_t off = 0; off < n; off += per, k_ = (k_ + 1) % buf_.size()) {
    const size_t len = std::min(per, n - off);
    auto ev = static_cast<cudaEvent_t>(done_[k_]);
    CUZK_CUDA_CHECK(cudaEventSynchronize(ev));  // the DMA that last read this buffer is done
    copy(buf_[k_].data(), host + off, len * sizeof(Fr));
    CUZK_CUDA_CHECK(cudaMemcpyAsync(dst.data() + at + off, buf_[k_].data(), len * sizeof(Fr),
                                    cudaMemcpyHostToDevice, ctx.copy_stream()));
    CUZK_CUDA_CHECK(cudaEventRecord(ev, ctx.copy_stream()));
    last = ev;
  }
  if (last) finish(last, host_wait);
}

void UploadStaging::check_range(const DeviceFrVec& dst, size_t at, size_t n) {
  if (at > dst.size() || n > dst.size() - at)
    throw Error(ErrorCode::kInvalidArgument, "UploadStaging::upload: " + std::to_string(n) + " elements at " +
                                                 std::to_string(at) + " into " + std::to_string(dst.size()));
}

void UploadStaging::finish(void* last, bool host_wait) {
  auto ev = static_cast<cudaEvent_t>(last);
  if (host_wait)
    CUZK_CUDA_CHECK(cudaEventSynchronize(ev));  // on the device now; no stream waits for it
  else
    CUZK_CUDA_CHECK(
        cudaStreamWaitEvent(Context::get(device_).stream(), ev, 0));  // later context work sees it
}

namespace {
/// out[i] ← value i of a packed piece of n values (witness_pack.hpp); a warp writes 32 consecutive values.
__global__ void unpack_witness_kernel(const uint32_t* tags, const uint32_t* offs, const Fr* values, size_t n,
                                      Fr* out) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    out[i] = unpack_value(tags[i / 16], offs[i / 16], values, (unsigned)(i % 16));
}
}  // namespace

size_t UploadStaging::packed_piece(size_t chunk_bytes) {
  return std::min(chunk_bytes / sizeof(Fr), kPackedPiece) / 16 * 16;
}

void UploadStaging::send_packed(size_t bytes, size_t len, Fr* to) {
  Context& ctx = Context::get(device_);
  // the device copy of buffer k_ is free: the unpacking that last read it came before done_[k_]
  char* dev = static_cast<char*>(dev_) + k_ * (packed_piece() * sizeof(Fr) / 4);
  CUZK_CUDA_CHECK(cudaMemcpyAsync(dev, buf_[k_].data(), bytes, cudaMemcpyHostToDevice, ctx.copy_stream()));
  const auto* tags = reinterpret_cast<const uint32_t*>(dev);
  unpack_witness_kernel<<<grid_for(ctx, len, 256), 256, 0, ctx.copy_stream()>>>(
      tags, tags + packed_words(len), reinterpret_cast<const Fr*>(dev + packed_values_at(len)), len, to);
  CUZK_CUDA_CHECK_LAUNCH("unpack_witness_kernel", ctx.copy_stream());
}

void UploadStaging::upload_packed_at(DeviceFrVec& dst, size_t at, const Fr* host, size_t n, ThreadPool& pool,
                                     bool host_wait) {
  check_range(dst, at, n);
  const size_t per = packed_piece();
  if (per < 16) {  // buffers too small for a piece: plain
    upload_at(
        dst, at, host, n, [&pool](void* d, const void* s, size_t b) { parallel_memcpy(pool, d, s, b); },
        host_wait);
    return;
  }
  Context& ctx = Context::get(device_);
  ctx.activate();
  // A piece is sent packed when that takes at most a quarter of its bytes; each buffer's packed piece is
  // unpacked from a device copy of it, in device memory of this object's own (not the pool's: a pool
  // block may still be read by work queued on the context stream, which the copy stream does not wait for).
  const size_t cap = per * sizeof(Fr) / 4;
  if (!dev_) CUZK_CUDA_CHECK(cudaMalloc(&dev_, cap * buf_.size()));
  cudaEvent_t last = nullptr;
  for (size_t off = 0; off < n; off += per, k_ = (k_ + 1) % buf_.size()) {
    const size_t len = std::min(per, n - off);
    auto ev = static_cast<cudaEvent_t>(done_[k_]);
    CUZK_CUDA_CHECK(cudaEventSynchronize(ev));  // the copy and unpacking that last read this buffer are done
    void* stage = buf_[k_].data();
    Fr* to = dst.data() + at + off;
    if (const size_t bytes = pack_witness(host + off, len, stage, cap, pool)) {
      send_packed(bytes, len, to);
    } else {
      parallel_memcpy(pool, stage, host + off, len * sizeof(Fr));
      CUZK_CUDA_CHECK(
          cudaMemcpyAsync(to, stage, len * sizeof(Fr), cudaMemcpyHostToDevice, ctx.copy_stream()));
    }
    CUZK_CUDA_CHECK(cudaEventRecord(ev, ctx.copy_stream()));
    last = ev;
  }
  if (last) finish(last, host_wait);
}

void UploadStaging::upload_packed_at(DeviceFrVec& dst, size_t at, const PackedWitness& pw, ThreadPool& pool,
                                     bool host_wait) {
  check_range(dst, at, pw.n);
  const size_t per = packed_piece();
  if (pw.piece > per)
    throw Error(ErrorCode::kInvalidArgument, "upload of a packed witness: its pieces of " +
                                                 std::to_string(pw.piece) + " values exceed the staging's " +
                                                 std::to_string(per));
  Context& ctx = Context::get(device_);
  ctx.activate();
  if (!dev_) CUZK_CUDA_CHECK(cudaMalloc(&dev_, per * sizeof(Fr) / 4 * buf_.size()));
  cudaEvent_t last = nullptr;
  for (size_t k = 0; k < pw.pieces(); k++, k_ = (k_ + 1) % buf_.size()) {
    auto ev = static_cast<cudaEvent_t>(done_[k_]);
    CUZK_CUDA_CHECK(cudaEventSynchronize(ev));  // the copy and unpacking that last read this buffer are done
    const size_t bytes = pw.at[k + 1] - pw.at[k], off = k * pw.piece;
    parallel_memcpy(pool, buf_[k_].data(), pw.data(k), bytes);
    send_packed(bytes, std::min(pw.piece, pw.n - off), dst.data() + at + off);
    CUZK_CUDA_CHECK(cudaEventRecord(ev, ctx.copy_stream()));
    last = ev;
  }
  if (last) finish(last, host_wait);
}

AsyncCopy::AsyncCopy(int device, void* dst, const void* src, size_t bytes, bool to_device) : device_(device) {
  Context& ctx = Context::get(device);
  ctx.activate();
  cudaEvent_t queued, done;
  CUZK_CUDA_CHECK(cudaEventCreateWithFlags(&queued, cudaEventDisableTiming));
  if (cudaEventCreateWithFlags(&done, cudaEventDisableTiming) != cudaSuccess) {
    cudaEventDestroy(queued);
    CUZK_CUDA_CHECK(cudaGetLastError());
  }
  done_ = done;
  CUZK_CUDA_CHECK(cudaEventRecord(queued, ctx.stream()));
  CUZK_CUDA_CHECK(cudaStreamWaitEvent(ctx.copy_stream(), queued, 0));
  cudaEventDestroy(queued);  // released once the wait has seen it
  CUZK_CUDA_CHECK(cudaMemcpyAsync(
      dst, src, bytes, to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, ctx.copy_stream()));
  CUZK_CUDA_CHECK(cudaEventRecord(done, ctx.copy_stream()));
}
AsyncCopy AsyncCopy::to_host(void* pinned, const DeviceFrVec& src) {
  return AsyncCopy(src.device(), pinned, src.data(), src.size() * sizeof(Fr), false);
}
AsyncCopy AsyncCopy::to_device(DeviceFrVec& dst, const void* pinned) {
  return AsyncCopy(dst.device(), dst.data(), pinned, dst.size() * sizeof(Fr), true);
}
AsyncCopy::AsyncCopy(AsyncCopy&& o) noexcept : device_(o.device_), done_(std::exchange(o.done_, nullptr)) {}
AsyncCopy::~AsyncCopy() {
  if (!done_) return;
  cudaEventSynchronize(static_cast<cudaEvent_t>(done_));  // the ranges outlive the copy
  cudaEventDestroy(static_cast<cudaEvent_t>(done_));
}
void AsyncCopy::wait() {
  if (done_) CUZK_CUDA_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(done_)));
}
void AsyncCopy::context_waits() {
  if (done_)
    CUZK_CUDA_CHECK(cudaStreamWaitEvent(Context::get(device_).stream(), static_cast<cudaEvent_t>(done_), 0));
}

namespace {
/// The process's page-locked ranges (never destroyed: a registration may outlive static destructors).
PinRegistry& pins() {
  static PinRegistry* const r = new PinRegistry;
  return *r;
}
}  // namespace

HostRegistration::HostRegistration(const void* p, size_t bytes, int device) {
  if (!p || bytes == 0) return;
  Context::get(device).activate();
  // Portable (pinned for every device's context, as each backend streams the same key); read-only
  // where the device supports it. A failure is not fatal (the copies are then staged by the driver).
  const bool held = pins().acquire(p, bytes, [&] {
    for (const unsigned flags :
         {cudaHostRegisterPortable | cudaHostRegisterReadOnly, cudaHostRegisterPortable}) {
      if (cudaHostRegister(const_cast<void*>(p), bytes, flags) == cudaSuccess) return true;
      cudaGetLastError();
    }
    return false;
  });
  if (!held) return;
  ptr_ = const_cast<void*>(p);
  bytes_ = bytes;
}
void HostRegistration::drop() {
  if (ptr_) pins().release(ptr_, [this] { cudaHostUnregister(ptr_); });
  ptr_ = nullptr;
  bytes_ = 0;
}
HostRegistration::~HostRegistration() { drop(); }
bool page_locked(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}
HostRegistration::HostRegistration(HostRegistration&& o) noexcept
    : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
HostRegistration& HostRegistration::operator=(HostRegistration&& o) noexcept {
  if (this != &o) {
    drop();
    ptr_ = std::exchange(o.ptr_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
  }
  return *this;
}

ChunkPipe::ChunkPipe(size_t chunk_bytes, int device) : device_(device), chunk_(chunk_bytes) {
  Context::get(device).activate();
  try {
    cudaStream_t st;
    CUZK_CUDA_CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    stream_ = st;
    for (int i = 0; i < 2; i++) {
      CUZK_CUDA_CHECK(cudaMalloc(&buf_[i], chunk_ ? chunk_ : 1));
      for (void** e : {&done_[i], &freed_[i]}) {
        cudaEvent_t ev;
        CUZK_CUDA_CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
        *e = ev;
      }
    }
  } catch (...) {
    release();
    throw;
  }
}
ChunkPipe::~ChunkPipe() { release(); }
void ChunkPipe::release() noexcept {
  if (stream_) cudaStreamSynchronize(static_cast<cudaStream_t>(stream_));
  cudaStreamSynchronize(Context::get(device_).stream());  // no queued kernel still reads a buffer
  for (int i = 0; i < 2; i++) {
    if (buf_[i]) cudaFree(buf_[i]);
    for (void** e : {&done_[i], &freed_[i]})
      if (*e) cudaEventDestroy(static_cast<cudaEvent_t>(*e));
    buf_[i] = done_[i] = freed_[i] = nullptr;
  }
  if (stream_) cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
  stream_ = nullptr;
}
void ChunkPipe::check(int slot, size_t at, size_t bytes) const {
  if ((slot != 0 && slot != 1) || at > chunk_ || bytes > chunk_ - at)
    throw Error(ErrorCode::kInvalidArgument, "ChunkPipe: " + std::to_string(bytes) + " bytes at " +
                                                 std::to_string(at) + " into slot " + std::to_string(slot) +
                                                 " of " + std::to_string(chunk_));
}
void ChunkPipe::copy_to(int slot, size_t at, const void* host, size_t bytes) {
  check(slot, at, bytes);
  Context::get(device_).activate();
  auto st = static_cast<cudaStream_t>(stream_);
  if (wait_freed_[slot]) {
    CUZK_CUDA_CHECK(cudaStreamWaitEvent(st, static_cast<cudaEvent_t>(freed_[slot]), 0));
    wait_freed_[slot] = false;
  }
  if (bytes)
    CUZK_CUDA_CHECK(cudaMemcpyAsync((char*)buf_[slot] + at, host, bytes, cudaMemcpyHostToDevice, st));
}
void ChunkPipe::mark(int slot) {
  check(slot, 0, 0);
  CUZK_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(done_[slot]), static_cast<cudaStream_t>(stream_)));
}
void ChunkPipe::fetch(int slot, const void* host, size_t bytes) {
  copy_to(slot, 0, host, bytes);
  mark(slot);
}
const void* ChunkPipe::wait(int slot) {
  check(slot, 0, 0);
  CUZK_CUDA_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(done_[slot])));
  return buf_[slot];
}
const void* ChunkPipe::context_waits(int slot) {
  check(slot, 0, 0);
  Context& ctx = Context::get(device_);
  CUZK_CUDA_CHECK(cudaStreamWaitEvent(ctx.stream(), static_cast<cudaEvent_t>(done_[slot]), 0));
  return buf_[slot];
}
void ChunkPipe::release_after_context(int slot) {
  check(slot, 0, 0);
  CUZK_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(freed_[slot]), Context::get(device_).stream()));
  wait_freed_[slot] = true;
}

struct DeviceMemorySampler::Impl {
  std::atomic<bool> stop{false};
  std::atomic<size_t> peak{0};
  std::thread thread;
};
DeviceMemorySampler::DeviceMemorySampler(int device, int period_ms) : impl_(std::make_unique<Impl>()) {
  Impl* im = impl_.get();
  im->thread = std::thread([im, device, period_ms] {
    if (cudaSetDevice(device) != cudaSuccess) return;
    while (!im->stop.load()) {
      size_t free = 0, total = 0;
      if (cudaMemGetInfo(&free, &total) == cudaSuccess && total - free > im->peak.load())
        im->peak.store(total - free);
      std::this_thread::sleep_for(std::chrono::milliseconds(period_ms));
    }
  });
}
DeviceMemorySampler::~DeviceMemorySampler() { stop(); }
size_t DeviceMemorySampler::stop() {
  impl_->stop.store(true);
  if (impl_->thread.joinable()) impl_->thread.join();
  return impl_->peak.load();
}
size_t DeviceMemorySampler::peak() const { return impl_->peak.load(); }

double pinned_upload_gbps(size_t bytes, int reps, int device) {
  Context::get(device).activate();
  PinnedBuffer host(bytes);
  std::memset(host.data(), 1, bytes);
  ChunkPipe pipe(bytes, device);
  std::vector<double> ms;
  for (int r = 0; r <= reps; r++) {
    const auto t0 = std::chrono::steady_clock::now();
    pipe.fetch(0, host.data(), bytes);
    pipe.wait(0);
    const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (r > 0) ms.push_back(t);  // the first copy warms up
  }
  std::sort(ms.begin(), ms.end());
  const double med = ms.empty() ? 0 : ms[ms.size() / 2];
  return med > 0 ? (double)bytes / (med * 1e6) : 0;
}

void DeviceFrVec::upload(const Fr* host) {
  Context& ctx = Context::get(device_);
  CUZK_CUDA_CHECK(cudaMemcpyAsync(ptr_, host, n_ * sizeof(Fr), cudaMemcpyHostToDevice, ctx.stream()));
  CUZK_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
}
void DeviceFrVec::zero_from(size_t at) {
  if (at >= n_) return;
  CUZK_CUDA_CHECK(cudaMemsetAsync(ptr_ + at, 0, (n_ - at) * sizeof(Fr), Context::get(device_).stream()));
}
void DeviceFrVec::download(Fr* host) const {
  Context& ctx = Context::get(device_);
  CUZK_CUDA_CHECK(cudaMemcpyAsync(host, ptr_, n_ * sizeof(Fr), cudaMemcpyDeviceToHost, ctx.stream()));
  CUZK_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
}
void DeviceFrVec::upload(const std::vector<Fr>& host) {
  if (host.size() != n_)
    throw Error(ErrorCode::kInvalidArgument, "DeviceFrVec::upload: host has " + std::to_string(host.size()) +
                                                 " elements, device " + std::to_string(n_));
  upload(host.data());
}
std::vector<Fr> DeviceFrVec::download() const {
  std::vector<Fr> v(n_);
  download(v.data());
  return v;
}

}  // namespace cuzk::cuda
