// Public host API of the CUDA layer. Plain C++: includable from g++ code, no CUDA header. Link
// cuzk_cuda (built when CUZK_CUDA is ON; it defines CUZK_WITH_CUDA for its users).
//
// Every function that touches a GPU throws cuzk::Error(ErrorCode::kCuda, …) with CUDA's error string
// and the failing call when CUDA reports an error (no GPU, out of memory, launch failure); none aborts.
// Field elements cross this API in the library's own layout (Montgomery form, little-endian 64-bit
// limbs), byte-identical on host and device. Functions run on the device's context stream; those that
// return host data synchronize it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ec/curves.hpp"
#include "ff/roots.hpp"

namespace cuzk {
class ThreadPool;
}

namespace cuzk::cuda {
struct PackedWitness;  // witness_pack.hpp

// ---- devices, memory -------------------------------------------------------------------------------

/// Number of CUDA devices visible to this process; 0 (never an exception) when there is no GPU, no
/// driver or an unusable runtime.
int device_count();

/// Static facts about one device.
struct DeviceInfo {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;  ///< compute capability
  int sm_count = 0;                ///< multiprocessors
  size_t global_mem = 0;           ///< bytes
  size_t l2_bytes = 0;
  size_t smem_optin = 0;  ///< largest dynamic shared memory per block after opt-in, bytes
  int clock_khz = 0;      ///< SM clock (may be 0 where the runtime no longer reports it)
  int mem_clock_khz = 0;  ///< peak memory clock (0 where the runtime does not report it)
  int mem_bus_bits = 0;   ///< global memory bus width in bits (0 where not reported)
};
/// Properties of device `device` (throws kCuda when it does not exist). Reads attributes only; changes
/// no setting of the device.
DeviceInfo device_info(int device = 0);

/// CUDA versions as 1000·major + 10·minor (12040 = 12.4); 0 where it cannot be read.
struct CudaVersions {
  int runtime = 0;  ///< the runtime this program was linked with (cudaRuntimeGetVersion)
  int driver = 0;   ///< the newest version the installed driver supports (cudaDriverGetVersion)
};
/// The runtime and driver versions; never throws.
CudaVersions cuda_versions();

/// Memory accounting of a device: the caching pool and the driver's view.
struct MemoryStats {
  size_t pool_in_use = 0;    ///< bytes handed out by the pool now
  size_t pool_reserved = 0;  ///< bytes the pool holds from cudaMalloc (in use + cached)
  size_t pool_peak = 0;      ///< high-water mark of pool_in_use
  size_t device_free = 0;    ///< cudaMemGetInfo
  size_t device_total = 0;
};
MemoryStats memory_stats(int device = 0);
/// Returns the pool's cached (unused) blocks to the driver.
void release_cached_memory(int device = 0);
/// Waits for all work queued on the device's context stream.
void synchronize(int device = 0);

/// Times work on a device's context stream with CUDA events (milliseconds between start and stop).
class StreamTimer {
 public:
  explicit StreamTimer(int device = 0);
  ~StreamTimer();
  StreamTimer(const StreamTimer&) = delete;
  StreamTimer& operator=(const StreamTimer&) = delete;
  void start();
  void stop();
  /// Waits for stop and returns the elapsed milliseconds.
  float ms();

 private:
  int device_;
  void* start_ = nullptr;
  void* stop_ = nullptr;
};

/// Page-locked host memory (cudaMallocHost), for fast transfers; freed on destruction.
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(size_t bytes);
  ~PinnedBuffer();
  PinnedBuffer(PinnedBuffer&& o) noexcept;
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void* data() const { return ptr_; }
  size_t size() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

/// A device array of Fr (Montgomery form, 32 bytes each) taken from the device's caching pool.
/// Move-only; the memory goes back to the pool on destruction.
class DeviceFrVec {
 public:
  DeviceFrVec() = default;
  /// n elements, uninitialized, on `device`.
  explicit DeviceFrVec(size_t n, int device = 0);
  ~DeviceFrVec();
  DeviceFrVec(DeviceFrVec&& o) noexcept;
  DeviceFrVec& operator=(DeviceFrVec&& o) noexcept;
  DeviceFrVec(const DeviceFrVec&) = delete;
  DeviceFrVec& operator=(const DeviceFrVec&) = delete;

  /// Copies n = size() elements from host memory (ordered on the context stream; returns when the
  /// host buffer may be reused).
  void upload(const Fr* host);
  /// Copies size() elements to host memory (synchronizes).
  void download(Fr* host) const;
  void upload(const std::vector<Fr>& host);
  std::vector<Fr> download() const;

  /// Sets elements [at, size()) to zero, queued on the context stream.
  void zero_from(size_t at);

  Fr* data() { return ptr_; }
  const Fr* data() const { return ptr_; }
  size_t size() const { return n_; }
  int device() const { return device_; }

 private:
  Fr* ptr_ = nullptr;
  size_t n_ = 0;
  int device_ = 0;
};

/// Page-locked staging buffers (two or more) for fast uploads from pageable host memory. One object per
/// user thread; reused across uploads.
class UploadStaging {
 public:
  /// `buffers` (at least 2) buffers of `chunk_bytes` each on `device`.
  explicit UploadStaging(size_t chunk_bytes = size_t{64} << 20, int device = 0, int buffers = 2);
  ~UploadStaging();
  UploadStaging(const UploadStaging&) = delete;
  UploadStaging& operator=(const UploadStaging&) = delete;

  /// dst[0..n) ← host[0..n): chunk k is copied into a staging buffer by `copy(dst, src, bytes)` (e.g. a
  /// memcpy split over threads) while the chunks before it (up to buffers − 1 of them) are DMA'd to the
  /// device on the context's copy stream,
  /// so the transfer runs at the pinned-memory rate instead of the pageable one and overlaps the kernels
  /// already queued. Returns once the last chunk is staged (`host` may then be reused); work queued
  /// afterwards on the context stream waits for the data. `dst` must not be a pool block that work
  /// still queued on the context stream may use (take it from the pool before queuing that work).
  void upload(DeviceFrVec& dst, const Fr* host, size_t n,
              const std::function<void(void*, const void*, size_t)>& copy);
  /// The same into dst[at..at + n). With `host_wait` the context stream is not ordered after the copy;
  /// instead the call returns once the data is on the device (for uploads made outside the GPU mutex
  /// while another thread's kernels run: they must not wait for this copy).
  void upload_at(DeviceFrVec& dst, size_t at, const Fr* host, size_t n,
                 const std::function<void(void*, const void*, size_t)>& copy, bool host_wait = false);
  /// upload_at for a witness, packed (witness_pack.hpp): each piece of packed_piece() values is packed on
  /// `pool` into a staging buffer, crosses in its packed size and is unpacked on the device by a kernel on
  /// the copy stream; a piece whose values other than 0 and 1 exceed a quarter of its bytes crosses as it
  /// is. The same bytes land as with upload_at, and the same ordering holds (`host_wait` likewise). The
  /// first call takes `buffers` × packed_piece() × 8 bytes of device memory (4 MiB a buffer at the
  /// default chunk) for this object's lifetime.
  void upload_packed_at(DeviceFrVec& dst, size_t at, const Fr* host, size_t n, ThreadPool& pool,
                        bool host_wait = false);
  /// upload_packed_at for a witness packed ahead (pack_witness_ahead, outside the GPU mutex, with pieces
  /// of at most packed_piece() values): only the packed bytes are copied into the staging buffers.
  /// Throws Error(kInvalidArgument) when `pw`'s pieces are larger.
  void upload_packed_at(DeviceFrVec& dst, size_t at, const PackedWitness& pw, ThreadPool& pool,
                        bool host_wait = false);
  /// Values per packed piece: the chunk's, at most kPackedPiece, in whole tag words of 16.
  size_t packed_piece() const { return packed_piece(chunk_); }
  /// The same for staging buffers of `chunk_bytes`.
  static size_t packed_piece(size_t chunk_bytes);
  static constexpr size_t kPackedPiece = size_t{1} << 19;

 private:
  /// Throws Error(kInvalidArgument) naming the sizes unless dst[at..at + n) lies within dst.
  static void check_range(const DeviceFrVec& dst, size_t at, size_t n);
  /// The piece of `len` values packed in `bytes` bytes of staging buffer k_ crosses into buffer k_'s device
  /// copy and is unpacked into to[0..len) on the copy stream.
  void send_packed(size_t bytes, size_t len, Fr* to);
  /// After the last chunk's copy (event `last`): the host waits for it, or the context stream does.
  void finish(void* last, bool host_wait);
  int device_;
  size_t chunk_;
  std::vector<PinnedBuffer> buf_;
  std::vector<void*> done_;  // cudaEvent_t: the DMA (and unpacking) out of buf_[i] has finished
  size_t k_ = 0;             // the buffer the next chunk goes to
  void* dev_ = nullptr;      // the packed pieces' device copies, one per buffer (upload_packed_at)
};

/// One copy between a device array and page-locked host memory on the device's copy stream, ordered
/// after the work queued on the context stream so far, so that it runs beside the kernels queued later. The
/// caller keeps both ranges alive and unchanged until wait() returns or context_waits() has ordered the
/// readers; the destructor waits. Throws Error(kCuda) for a CUDA failure.
class AsyncCopy {
 public:
  /// pinned[0..src.size()) ← src.
  static AsyncCopy to_host(void* pinned, const DeviceFrVec& src);
  /// dst ← pinned[0..dst.size()).
  static AsyncCopy to_device(DeviceFrVec& dst, const void* pinned);
  AsyncCopy(AsyncCopy&& o) noexcept;
  AsyncCopy& operator=(AsyncCopy&&) = delete;
  AsyncCopy(const AsyncCopy&) = delete;
  ~AsyncCopy();
  /// Blocks the host until the copy is done.
  void wait();
  /// Work queued on the context stream from now on runs after the copy (the host does not block).
  void context_waits();

 private:
  AsyncCopy(int device, void* dst, const void* src, size_t bytes, bool to_device);
  int device_ = 0;
  void* done_ = nullptr;  // cudaEvent_t
};

/// Page-locks an existing host range (cudaHostRegister, portable to every device's context, read-only
/// use) for this object's lifetime, so that copies out of it run as DMA at the link's rate and
/// asynchronously to the host thread, with no second host copy. Registrations of the same range (each
/// GPU backend of a multi-GPU host pins the same key) share one (cuda/pin_registry.hpp); the last one
/// unregisters it. Registration can fail (locked-memory limits, a range the driver will not pin, a
/// shorter range already registered from the same start): then ok() is false and copies from the range
/// are staged by the driver at the pageable rate.
class HostRegistration {
 public:
  HostRegistration() = default;
  /// Registers [p, p + bytes) with the driver (device `device` is made current first).
  HostRegistration(const void* p, size_t bytes, int device);
  ~HostRegistration();
  HostRegistration(HostRegistration&& o) noexcept;
  HostRegistration& operator=(HostRegistration&& o) noexcept;
  HostRegistration(const HostRegistration&) = delete;
  HostRegistration& operator=(const HostRegistration&) = delete;
  bool ok() const { return ptr_ != nullptr; }
  size_t bytes() const { return bytes_; }

 private:
  void drop();  // gives the hold back (the last holder's unregisters the range)
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

/// Whether the driver counts host address p as page-locked (registered or cudaMallocHost memory;
/// cudaPointerGetAttributes), so that copies from it run as DMA.
bool page_locked(const void* p);

/// Samples a device's used memory (cudaMemGetInfo: total − free, the driver's view, CUDA contexts
/// included) every `period_ms` on a thread of its own, from construction until stop(); peak() is the
/// highest reading. For benchmarks that check a memory budget against what the device really held.
class DeviceMemorySampler {
 public:
  explicit DeviceMemorySampler(int device = 0, int period_ms = 20);
  ~DeviceMemorySampler();
  DeviceMemorySampler(const DeviceMemorySampler&) = delete;
  DeviceMemorySampler& operator=(const DeviceMemorySampler&) = delete;
  /// Stops sampling (idempotent) and returns the peak in bytes.
  size_t stop();
  size_t peak() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Host→device copy rate of `bytes` from page-locked memory on `device`, in GB/s (10^9 bytes per second):
/// the median of `reps` timed copies after one warm-up.
double pinned_upload_gbps(size_t bytes, int reps, int device = 0);

// ---- batched arithmetic (host arrays in and out; for tests and benchmarks) ---------------------------

/// Element-wise operation of the batched field kernels. kSqr and kNeg ignore `b`.
enum class FieldOp { kAdd, kSub, kMul, kSqr, kNeg };

/// out[i] = op(a[i], b[i]) for i < n, computed by device code (Mont/Fp2 operators compiled for the GPU).
void fp_batch(FieldOp op, const Fp* a, const Fp* b, Fp* out, size_t n, int device = 0);
void fr_batch(FieldOp op, const Fr* a, const Fr* b, Fr* out, size_t n, int device = 0);
void fp2_batch(FieldOp op, const Fp2* a, const Fp2* b, Fp2* out, size_t n, int device = 0);
/// out[i] = a[i]·b[i] (canonical) through the FP64 product of ff/mont_f64.hpp on the device
/// (f64::mul_by_columns when `by_columns`, else f64::mul); inputs are Fp limbs of any value below 2p.
void fp_mul_f64_batch(const Fp* a, const Fp* b, Fp* out, size_t n, bool by_columns, int device = 0);

/// Batched point operations on the device, F = Fp (G1) or Fp2 (G2). Formulas of ec/point.hpp.
template <class F>
void jacobian_add(const Jacobian<F>* p, const Jacobian<F>* q, Jacobian<F>* out, size_t n, int device = 0);
template <class F>
void jacobian_add_affine(const Jacobian<F>* p, const Affine<F>* q, Jacobian<F>* out, size_t n,
                         int device = 0);
template <class F>
void jacobian_dbl(const Jacobian<F>* p, Jacobian<F>* out, size_t n, int device = 0);
template <class F>
void affine_neg(const Affine<F>* p, Affine<F>* out, size_t n, int device = 0);
template <class F>
void xyzz_add_affine(const XYZZ<F>* p, const Affine<F>* q, XYZZ<F>* out, size_t n, int device = 0);
template <class F>
void xyzz_add(const XYZZ<F>* p, const XYZZ<F>* q, XYZZ<F>* out, size_t n, int device = 0);
template <class F>
void xyzz_dbl(const XYZZ<F>* p, XYZZ<F>* out, size_t n, int device = 0);
/// out[i] = k[i]·p[i] (canonical value of k[i]); MSB-first double-and-add in Jacobian coordinates.
template <class F>
void scalar_mul_batch(const Affine<F>* p, const Fr* k, Jacobian<F>* out, size_t n, int device = 0);

// ---- throughput benchmarks ---------------------------------------------------------------------------

/// Which device multiplier a benchmark uses.
enum class MulVariant {
  kEvenOdd,       ///< Mont::operator* on the device (mont.hpp's mul_evenodd, plain form)
  kEvenOddShape,  ///< mul_evenodd with the modulus-shape tricks (differs from kEvenOdd for Fr only)
  kCios4,         ///< reference: 32-bit CIOS with four carry chains per row (the first device multiplier)
  kWide64,        ///< reference: 32-bit CIOS written with 64-bit accumulators (mul.wide.u32 + add.u64)
  kF64,           ///< Fp only: the FP64 product in 48-bit limbs (ff/mont_f64.hpp f64::mul, CIOS order)
  kF64Columns,    ///< Fp only: the same column by column (f64::mul_by_columns)
  kSplitHalf,     ///< Fp only: in one kernel, 2 of every 4 warps run kEvenOdd chains, the others kF64 chains
  kSplitQuarter,  ///< Fp only: the same with 1 of every 4 warps on kF64
};
const char* mul_variant_name(MulVariant v);

/// Result of a throughput benchmark.
struct Throughput {
  double ops_per_s = 0;  ///< operations per second (median run)
  double ms_median = 0;  ///< one launch, median over the runs
  double ms_min = 0;
  uint64_t ops = 0;  ///< operations per launch
  int runs = 0;
  size_t checked = 0;       ///< results compared with the host
  size_t mismatches = 0;    ///< of those, how many differed (0 expected)
  int regs_per_thread = 0;  ///< kernel register count
};

/// Fp (or Fr) Montgomery multiplications per second: each thread runs `chains` independent dependent
/// chains x ← x·y of `iters` steps over random data; a sample of threads is recomputed on the host.
Throughput bench_fp_mul(MulVariant v, int runs = 7, int device = 0);
Throughput bench_fr_mul(MulVariant v, int runs = 7, int device = 0);
/// Fp squarings per second from the wide square and one reduction (mont.hpp sqr_wide_words +
/// redc_words, not Mont::sqr's device path), same method: compare with bench_fp_mul.
Throughput bench_fp_sqr(int runs = 7, int device = 0);
/// Fp2 products per second, same method: `lazy` = Karatsuba with two reductions (fp2.hpp mul_lazy),
/// else Fp2's operator* (three reduced Fp products).
Throughput bench_fp2_mul(bool lazy, int runs = 7, int device = 0);
/// G1 XYZZ mixed additions per second: each thread adds a sequence of random affine points (from a
/// 16 Ki-point table) into its accumulator; a sample is recomputed on the host.
Throughput bench_g1_madd(int runs = 7, int device = 0);
/// The masks bench_g1_madd_f64 has kernels for: none, all, alternate products, and one per pair of
/// independent products (see ec/xyzz_f64.hpp MaddF64 for the products' order).
inline constexpr unsigned kMaddF64Masks[] = {0x000, 0x3ff, 0x155, 0x2aa, 0x1a9};
/// The same mixed additions with product k on the FP64 pipe (ff/mont_f64.hpp) where bit k of `mask` is
/// set, else on the IMAD pipe: the mixed IMAD/FP64 schedule. `mask` must be one of kMaddF64Masks.
Throughput bench_g1_madd_f64(unsigned mask, int runs = 7, int device = 0);

// ---- NTT ------------------------------------------------------------------------------------------------

/// Number-theoretic transforms over Fr of size n = 2^log_n (1 ≤ log_n ≤ 28) on one device, data resident
/// in DeviceFrVec, natural order in and out, in place (a scratch buffer of n elements comes from the
/// pool for n > 2^10). ω = root_of_unity(log_n, conv). Twiddle tables are built on the device on first
/// use and kept (max_table_bytes(log_n) at most: exact tables of n entries up to n = 2^24, 2 GiB there, and
/// tens of MiB of two-level ones beyond); memory_stats() accounts for them.
///
/// Algorithm: src/cuda/ntt_pass.cuh (four-step recursion in ≤ 3 passes of radix ≤ 2^10; in a pass,
/// radix-2 DIF stages two at a time on four-element units through shared memory; twiddle/coset factors
/// fused into the passes).
class GpuNtt {
 public:
  GpuNtt(int log_n, RootConvention conv, int device = 0);
  ~GpuNtt();
  GpuNtt(const GpuNtt&) = delete;
  GpuNtt& operator=(const GpuNtt&) = delete;

  int log_n() const { return log_n_; }
  size_t size() const { return size_t{1} << log_n_; }

  /// x_i ← Σ_k x_k·ω^(ik). Asynchronous on the context stream. x.size() must be n (else kInvalidArgument).
  void forward(DeviceFrVec& x);
  /// x_k ← n⁻¹·Σ_i x_i·ω^(−ik).
  void inverse(DeviceFrVec& x);
  /// Coset forward: x_i ← Σ_k x_k·shift^k·ω^(ik) (values at shift·ω^i).
  void coset_forward(DeviceFrVec& x, const Fr& shift);
  /// Inverse of coset_forward: x_k ← n⁻¹·shift^(−k)·Σ_i x_i·ω^(−ik). shift ≠ 0.
  void coset_inverse(DeviceFrVec& x, const Fr& shift);
  /// Bytes of device tables held for this size and convention.
  size_t table_bytes() const;
  /// An upper bound of table_bytes() once all four transforms have run at size 2^log_n (one shift).
  static size_t max_table_bytes(int log_n);

 private:
  struct Impl;
  int log_n_;
  std::unique_ptr<Impl> impl_;
  void run(DeviceFrVec& x, bool inverse, bool coset, const Fr& shift);
};

/// out_i = a_i·b_i − c_i (the H numerator, snarkjs convention); all of one size (else kInvalidArgument).
void fr_mul_sub(const DeviceFrVec& a, const DeviceFrVec& b, const DeviceFrVec& c, DeviceFrVec& out);
/// out_i = (a_i·b_i − c_i)·s (bellperson: s = 1/(gⁿ − 1)).
void fr_mul_sub_scale(const DeviceFrVec& a, const DeviceFrVec& b, const DeviceFrVec& c, const Fr& s,
                      DeviceFrVec& out);
/// out_i = a_i·b_i (snarkjs's C = A∘B on the domain); all of one size (else kInvalidArgument).
void fr_mul(const DeviceFrVec& a, const DeviceFrVec& b, DeviceFrVec& out);
/// out[i] = (a[i]·b[i] − c[i])·s for i < n over device arrays (out may alias c), queued on `device`'s
/// context stream: the H numerator over slices (a lean H streams a and b back in slices).
void fr_mul_sub_scale_n(const Fr* a, const Fr* b, const Fr* c, const Fr& s, Fr* out, size_t n, int device);
/// out = (a − c)·s element-wise (out may alias a or c): the last step of H when a∘b was formed first.
void fr_sub_scale(const DeviceFrVec& a, const DeviceFrVec& c, const Fr& s, DeviceFrVec& out);
/// x_i ← x_i·s.
void fr_scale(DeviceFrVec& x, const Fr& s);

// ---- density gather ----------------------------------------------------------------------------------

/// Compacts by a density bitmap on the device: out = head ‖ src[i] for every set bit i of `bits`
/// (u64 words, LSB first, `nbits` bits over src[0..nbits)). `head` (host, may be empty) is copied in
/// first; out must have head.size() + popcount(bits) elements. The bitmap is uploaded; the positions
/// come from a prefix sum of per-word popcounts (CUB), so no CPU pass touches the scalars.
void gather_by_density(const std::vector<Fr>& head, const DeviceFrVec& src, const uint64_t* bits,
                       size_t nbits, DeviceFrVec& out);
/// The same from src[0..src_len) at a device pointer on out's device (e.g. the aux part of a witness).
void gather_by_density(const std::vector<Fr>& head, const Fr* src, size_t src_len, const uint64_t* bits,
                       size_t nbits, DeviceFrVec& out);

/// gather_by_density a range at a time, for a consumer that takes the compacted vector in pieces (the A
/// MSM streamed beside the H MSM, GpuBackend) without the whole of it on the device: element p of
/// head ‖ (src[i] for every set bit i of the bitmap). The head, the bitmap and each word's rank (its
/// set bits before it, from a host prefix sum) are uploaded once; a range is one kernel on a stream of
/// its own, of the device's greatest priority when asked. Not thread-safe; one per consumer.
class DensityRanks {
 public:
  /// head (host), bits and nbits as gather_by_density's; throws kCuda on a device failure.
  DensityRanks(const std::vector<Fr>& head, const uint64_t* bits, size_t nbits, int device,
               bool high_priority = false);
  ~DensityRanks();
  DensityRanks(const DensityRanks&) = delete;
  DensityRanks& operator=(const DensityRanks&) = delete;
  /// head.size() + popcount(bits): the compacted length.
  size_t size() const;
  /// out[0..p1 − p0) ← elements [p0, p1) of the compacted vector, whose source src (device, ≥ nbits
  /// elements) is read at the set bits; returns once written. Throws kInvalidArgument when p0 > p1 or
  /// p1 > size(), kCuda on a device failure.
  void gather(const Fr* src, size_t p0, size_t p1, Fr* out);
  /// Device bytes held (head, bitmap, ranks).
  size_t device_bytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// ---- sparse rows: a, b, c on the device ----------------------------------------------------------------

/// One matrix of a compact constraint system in host memory (groth16/compact_cs.hpp CompactMatrix):
/// row j's terms are (cols[k], table[coeffs[k]]) for k in [offsets[j], offsets[j + 1]).
struct HostCsr {
  const uint64_t* offsets = nullptr;  ///< rows + 1 entries
  const uint32_t* cols = nullptr;
  const uint32_t* coeffs = nullptr;
  uint64_t rows = 0;
};

/// The rows of one circuit resident on a device: up to three compact CSR matrices (A, B, C) and their
/// coefficient table, uploaded once (8 bytes per term, 8 per row and matrix, 32 per table entry) and
/// evaluated per partition against a witness already on the device. Move-only; freed on destruction.
class DeviceRows {
 public:
  /// Uploads `table` (n_table coefficients, table[0] = 1, table[1] = −1) and the matrices. Throws
  /// Error(kCuda) when the device has no room, Error(kInvalidArgument) when a matrix has no offsets.
  DeviceRows(const Fr* table, size_t n_table, const std::vector<HostCsr>& mats, int device = 0);
  ~DeviceRows();
  DeviceRows(DeviceRows&&) noexcept;
  DeviceRows& operator=(DeviceRows&&) noexcept;
  DeviceRows(const DeviceRows&) = delete;
  DeviceRows& operator=(const DeviceRows&) = delete;

  /// out[j] = ⟨row j of matrix i, w⟩ (cuda/spmv_row.hpp csr_row_dot, byte-identical to the CPU) for
  /// j < rows, 0 for the rest of out; queued on the context stream. `d_w` is a device array covering
  /// every column. Throws Error(kInvalidArgument) when i is out of range or out is shorter than the rows.
  void evaluate(size_t i, const Fr* d_w, DeviceFrVec& out) const;
  /// Device bytes held.
  size_t bytes() const;
  size_t matrices() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// ---- fixed-base multiplication (setup) ----------------------------------------------------------------

/// out[i] = k[i]·g (affine, ∞ = (0, 0)) for i < n, F = Fp (G1) or Fp2 (G2), on `device`: 8-bit window
/// table of g, at most 32 mixed additions and one inversion per point. Host arrays in and out; the
/// work is chunked (2^24 points at a time).
template <class F>
void fixed_base_mul(const Affine<F>& g, const Fr* k, size_t n, Affine<F>* out, int device = 0);

// ---- fault injection (tests) ---------------------------------------------------------------------------

/// Makes the `n`-th device allocation from now (1 = the next) fail as if the device were out of memory
/// (cudaErrorMemoryAllocation, reported as Error(kCuda)); 0 disarms. The environment variable
/// CUZK_GPU_FAIL_ALLOC=N arms it at start-up. Counts the allocations of the memory pool and of the MSM
/// engines.
void inject_alloc_failure(uint64_t n);
/// True when the armed allocation failure fires now (called by the allocators; consumes it).
bool injected_alloc_failure();

}  // namespace cuzk::cuda
