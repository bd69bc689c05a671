#include "formats/params.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>

#include "formats/atomic_file.hpp"
#include "util/error.hpp"
#include "util/thread_pool.hpp"

namespace cuzk {
namespace {

constexpr size_t kHeaderBytes = 3 * kG1Uncompressed + 3 * kG2Uncompressed;  // 864
/// Points per parallel_for chunk when decoding (≈1.5 MB of G1): chunks are handed out in increasing
/// order, so the threads together sweep the mapping front to back and read-ahead keeps up.
constexpr size_t kDecodeGrain = size_t{1} << 14;
/// Points encoded per write when streaming a key out.
constexpr size_t kWriteChunk = size_t{1} << 16;

/// A read-only view of the bytes being parsed and the name used in error messages.
struct Source {
  const uint8_t* data;
  uint64_t size;
  const std::string& name;

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorCode::kInvalidFile, name + ": " + what);
  }
  uint32_t be32(uint64_t at) const {
    const uint8_t* p = data + at;
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
  }
};

/// Decoding of one group's uncompressed points.
template <class A>
struct Group;
template <>
struct Group<G1Affine> {
  static constexpr size_t kBytes = kG1Uncompressed;
  static G1Affine decode(const uint8_t* in, SubgroupCheck c) { return g1_from_zcash(in, kBytes, c); }
  static void encode(const G1Affine& p, uint8_t* out) { g1_to_zcash(p, false, out); }
  static size_t decode_with(PointDecoder& d, const uint8_t* in, size_t n, SubgroupCheck c, ThreadPool& pool,
                            G1Affine* out) {
    return d.decode_g1(in, n, c, pool, out);
  }
};
template <>
struct Group<G2Affine> {
  static constexpr size_t kBytes = kG2Uncompressed;
  static G2Affine decode(const uint8_t* in, SubgroupCheck c) { return g2_from_zcash(in, kBytes, c); }
  static void encode(const G2Affine& p, uint8_t* out) { g2_to_zcash(p, false, out); }
  static size_t decode_with(PointDecoder& d, const uint8_t* in, size_t n, SubgroupCheck c, ThreadPool& pool,
                            G2Affine* out) {
    return d.decode_g2(in, n, c, pool, out);
  }
};

/// "<what> at byte <offset>: <problem>".
std::string at(const std::string& what, uint64_t offset, const std::string& problem) {
  return what + " at byte " + std::to_string(offset) + ": " + problem;
}

/// "name" or "name[index]" (index < 0: a single point).
std::string label(const char* name, int64_t index) {
  return index < 0 ? std::string(name) : std::string(name) + "[" + std::to_string(index) + "]";
}

/// Decodes one point at `offset`, named `name[index]` in errors (the name is only built on failure);
/// `allow_inf` is false for the vectors (bellperson refuses ∞ there).
template <class A>
A decode_point(const Source& src, uint64_t offset, const char* name, int64_t index, SubgroupCheck check,
               bool allow_inf) {
  A p;
  try {
    p = Group<A>::decode(src.data + offset, check);
  } catch (const Error& e) {
    src.fail(at(label(name, index), offset, e.what()));
  }
  if (!allow_inf && p.is_inf())
    src.fail(at(label(name, index), offset, "the point at infinity (bellperson refuses it here)"));
  return p;
}

/// The six points every .params and .vk file starts with.
struct Header {
  G1Affine alpha1, beta1, delta1;
  G2Affine beta2, gamma2, delta2;
};

/// Decodes the header (bellperson's VerifyingKey::read: every point subgroup-checked, ∞ accepted).
/// The caller has checked that the source holds at least kHeaderBytes.
Header decode_header(const Source& src) {
  Header h;
  uint64_t off = 0;
  auto g1 = [&](G1Affine& p, const char* what) {
    p = decode_point<G1Affine>(src, off, what, -1, SubgroupCheck::kYes, true);
    off += kG1Uncompressed;
  };
  auto g2 = [&](G2Affine& p, const char* what) {
    p = decode_point<G2Affine>(src, off, what, -1, SubgroupCheck::kYes, true);
    off += kG2Uncompressed;
  };
  g1(h.alpha1, "alpha_g1");
  g1(h.beta1, "beta_g1");
  g2(h.beta2, "beta_g2");
  g2(h.gamma2, "gamma_g2");
  g1(h.delta1, "delta_g1");
  g2(h.delta2, "delta_g2");
  return h;
}

/// Where one point vector lies in the file.
struct Extent {
  const char* name;
  size_t elem;      // bytes per point
  uint64_t offset;  // of the first point
  uint32_t count;
};

/// Reads the u32 count at `pos` and checks that the points it announces fit in what is left; advances
/// `pos` past them. Nothing is allocated here, so a corrupt count costs nothing.
Extent scan_vector(const Source& src, uint64_t& pos, const char* name, size_t elem) {
  if (src.size - pos < 4)
    src.fail(at(std::string("the count of ") + name, pos,
                "truncated: the file ends " + std::to_string(src.size - pos) + " bytes later"));
  const uint32_t count = src.be32(pos);
  pos += 4;
  const uint64_t need = (uint64_t)count * elem, left = src.size - pos;
  if (need > left)
    src.fail(at(std::string("the count of ") + name, pos - 4,
                std::to_string(count) + " points need " + std::to_string(need) + " bytes, only " +
                    std::to_string(left) + " are left (truncated file or corrupt count)"));
  Extent e{name, elem, pos, count};
  pos += need;
  return e;
}

/// The points decoded so far, reported to ParamsReadOptions::progress (when set) one call at a time.
class DecodeProgress {
 public:
  DecodeProgress(const std::function<void(uint64_t, uint64_t)>& fn, uint64_t total)
      : fn_(fn), total_(total) {}
  /// Counts `n` more points decoded and reports, unless another thread is reporting now.
  void add(uint64_t n) {
    done_ += n;
    if (!fn_) return;
    std::unique_lock<std::mutex> lock(mu_, std::try_to_lock);
    if (lock.owns_lock()) report(done_.load());
  }
  /// The last report, every point decoded (unless a chunk's report said so already).
  void finish() {
    if (!fn_) return;
    std::lock_guard<std::mutex> lock(mu_);
    if (reported_ != total_) report(total_);
  }

 private:
  void report(uint64_t done) {  // under mu_
    reported_ = done;
    fn_(done, total_);
  }

  const std::function<void(uint64_t, uint64_t)>& fn_;
  const uint64_t total_;
  std::atomic<uint64_t> done_{0};
  std::mutex mu_;
  uint64_t reported_ = ~uint64_t{0};  // the last count reported (under mu_)
};

/// Decodes the `e.count` points of a vector into `out` on the pool, or through `decoder` when one is
/// given; ∞ is refused. A point the decoder reports invalid is decoded again on the CPU, which throws the
/// error read_params always gives for it. `progress` (optional) counts the points decoded.
template <class A, class Vec>
void decode_vector(const Source& src, const Extent& e, SubgroupCheck check, ThreadPool& pool, Vec& out,
                   PointDecoder* decoder = nullptr, DecodeProgress* progress = nullptr) {
  out.resize(e.count);
  if (decoder) {
    if (e.count == 0) return;
    const size_t bad = Group<A>::decode_with(*decoder, src.data + e.offset, e.count, check, pool, out.data());
    if (bad == e.count) {
      if (progress) progress->add(e.count);
      return;
    }
    if (bad > e.count)
      throw Error(ErrorCode::kInternal, src.name + ": the point decoder returned index " +
                                            std::to_string(bad) + " for " + e.name + ", which has " +
                                            std::to_string(e.count) + " points");
    decode_point<A>(src, e.offset + bad * e.elem, e.name, (int64_t)bad, check, false);  // throws its error
    throw Error(ErrorCode::kInternal, src.name + ": the point decoder refused " +
                                          label(e.name, (int64_t)bad) + ", which the CPU decoder accepts");
  }
  pool.parallel_for(
      e.count,
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; i++)
          out[i] = decode_point<A>(src, e.offset + i * e.elem, e.name, (int64_t)i, check, false);
        if (progress) progress->add(end - begin);
      },
      kDecodeGrain);
}

/// A read-only private mapping of a whole file (sequential read-ahead); unmapped on destruction.
class Mapping {
 public:
  explicit Mapping(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) io_fail(path, "cannot open", errno);
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      const int err = errno;
      ::close(fd);
      io_fail(path, "cannot stat", err);
    }
    size_ = (uint64_t)st.st_size;
    if (size_ > 0) {
      void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p == MAP_FAILED) {
        const int err = errno;
        ::close(fd);
        io_fail(path, "cannot map", err);
      }
      data_ = static_cast<const uint8_t*>(p);
      ::madvise(p, size_, MADV_SEQUENTIAL);  // advisory: aggressive read-ahead, early reclaim
    }
    ::close(fd);  // the mapping keeps the file referenced
  }
  ~Mapping() {
    if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;

  std::span<const uint8_t> bytes() const { return {data_, size_}; }

 private:
  [[noreturn]] static void io_fail(const std::filesystem::path& p, const char* what, int err) {
    throw Error(ErrorCode::kIo, p.string() + ": " + what + ": " + std::strerror(err));
  }
  const uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
};

/// The pool to run on: the caller's, or a temporary one.
class PoolRef {
 public:
  PoolRef(ThreadPool* given, unsigned threads) {
    if (!given) owned_.emplace(threads);
    pool_ = given ? given : &*owned_;
  }
  ThreadPool& operator*() const { return *pool_; }

 private:
  std::optional<ThreadPool> owned_;
  ThreadPool* pool_;
};

// ---- writing -----------------------------------------------------------------------------------------

using Sink = std::function<void(std::span<const uint8_t>)>;

[[noreturn]] void bad_key(const std::string& what) {
  throw Error(ErrorCode::kInvalidArgument, "cannot write a bellperson key: " + what);
}

void check_count(size_t n, const char* name) {
  if (n > std::numeric_limits<uint32_t>::max())
    bad_key(std::string(name) + " has " + std::to_string(n) + " points, more than a u32 count can hold");
}

void put_be32(const Sink& sink, uint32_t v) {
  const uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
  sink(b);
}

void put_header(const Sink& sink, const ProvingKey& key) {
  uint8_t buf[kHeaderBytes];
  uint8_t* p = buf;
  auto g1 = [&](const G1Affine& q) {
    g1_to_zcash(q, false, p);
    p += kG1Uncompressed;
  };
  auto g2 = [&](const G2Affine& q) {
    g2_to_zcash(q, false, p);
    p += kG2Uncompressed;
  };
  g1(key.alpha1);
  g1(key.beta1);
  g2(key.beta2);
  g2(key.gamma2);
  g1(key.delta1);
  g2(key.delta2);
  sink(buf);
}

/// Streams a u32 count and the points of `v`, encoded in parallel chunks of kWriteChunk points.
template <class A, class Vec>
void put_vector(const Sink& sink, const Vec& v, const char* name, ThreadPool* pool) {
  constexpr size_t kBytes = Group<A>::kBytes;
  put_be32(sink, (uint32_t)v.size());
  std::vector<uint8_t> buf(std::min(v.size(), kWriteChunk) * kBytes);
  for (size_t base = 0; base < v.size(); base += kWriteChunk) {
    const size_t n = std::min(kWriteChunk, v.size() - base);
    auto encode = [&](size_t b, size_t e) {
      for (size_t i = b; i < e; i++) {
        if (v[base + i].is_inf())
          bad_key(std::string(name) + "[" + std::to_string(base + i) +
                  "] is the point at infinity, which bellperson's reader refuses");
        Group<A>::encode(v[base + i], buf.data() + i * kBytes);
      }
    };
    if (pool)
      pool->parallel_for(n, encode);
    else
      encode(0, n);
    sink(std::span<const uint8_t>(buf.data(), n * kBytes));
  }
}

void check_writable(const ProvingKey& key, bool full) {
  if (key.ic.empty()) bad_key("ic is empty (it holds at least the point of the constant ONE)");
  if (key.n_inputs != key.ic.size())
    bad_key("n_inputs = " + std::to_string(key.n_inputs) + " but ic has " + std::to_string(key.ic.size()) +
            " points");
  check_count(key.ic.size(), "ic");
  if (!full) return;
  if (key.convention != HConvention::kBellperson)
    bad_key("the key uses the snarkjs H convention; a .params file carries bellperson's");
  if (key.log_n < 0 || key.log_n > 32 || key.h.size() != key.domain_size() - 1)
    bad_key("h has " + std::to_string(key.h.size()) + " points, log_n = " + std::to_string(key.log_n) +
            " wants 2^log_n - 1");
  if (key.n_aux != key.l.size())
    bad_key("n_aux = " + std::to_string(key.n_aux) + " but l has " + std::to_string(key.l.size()) +
            " points");
  check_count(key.h.size(), "h");
  check_count(key.l.size(), "l");
  check_count(key.a.size(), "a");
  check_count(key.b_g1.size(), "b_g1");
  check_count(key.b_g2.size(), "b_g2");
}

void put_vk(const Sink& sink, const ProvingKey& key) {
  check_writable(key, false);
  put_header(sink, key);
  put_vector<G1Affine>(sink, key.ic, "ic", nullptr);
}

void put_params(const Sink& sink, const ProvingKey& key, ThreadPool* pool) {
  check_writable(key, true);
  put_header(sink, key);
  put_vector<G1Affine>(sink, key.ic, "ic", nullptr);
  put_vector<G1Affine>(sink, key.h, "h", pool);
  put_vector<G1Affine>(sink, key.l, "l", pool);
  put_vector<G1Affine>(sink, key.a, "a", pool);
  put_vector<G1Affine>(sink, key.b_g1, "b_g1", pool);
  put_vector<G2Affine>(sink, key.b_g2, "b_g2", pool);
}

}  // namespace

// ---- reading -------------------------------------------------------------------------------------------

ProvingKey read_params(std::span<const uint8_t> bytes, const std::string& name,
                       const ParamsReadOptions& options) {
  const Source src{bytes.data(), bytes.size(), name};
  if (src.size < kHeaderBytes)
    src.fail("truncated: the verifying-key header needs " + std::to_string(kHeaderBytes) +
             " bytes, the file has " + std::to_string(src.size));
  // Layout first: every count checked against the size before any allocation.
  uint64_t pos = kHeaderBytes;
  const Extent ic = scan_vector(src, pos, "ic", kG1Uncompressed),
               h = scan_vector(src, pos, "h", kG1Uncompressed),
               l = scan_vector(src, pos, "l", kG1Uncompressed),
               a = scan_vector(src, pos, "a", kG1Uncompressed),
               b1 = scan_vector(src, pos, "b_g1", kG1Uncompressed),
               b2 = scan_vector(src, pos, "b_g2", kG2Uncompressed);
  if (pos != src.size)
    src.fail(
        at(std::to_string(src.size - pos) + " trailing bytes after b_g2", pos, "not part of the format"));
  if (ic.count == 0)
    src.fail(at("ic", ic.offset - 4, "empty (it holds at least the point of the constant ONE)"));
  const uint64_t n = (uint64_t)h.count + 1;
  if (!std::has_single_bit(n))
    src.fail(
        at("h", h.offset - 4, std::to_string(h.count) + " points: not 2^k - 1 (the domain size minus one)"));
  if (b1.count != b2.count)
    src.fail(at("b_g2", b2.offset - 4,
                std::to_string(b2.count) + " points but b_g1 has " + std::to_string(b1.count) +
                    " (both hold one point per variable in B)"));
  const uint64_t vars = (uint64_t)ic.count + l.count;
  for (const Extent* e : {&a, &b1})
    if (e->count > vars)
      src.fail(at(e->name, e->offset - 4,
                  std::to_string(e->count) + " points for " + std::to_string(vars) + " variables (ic + l)"));

  ProvingKey key;
  const Header hd = decode_header(src);
  key.convention = HConvention::kBellperson;
  key.log_n = std::countr_zero(n);
  key.n_inputs = ic.count;
  key.n_aux = l.count;
  key.alpha1 = hd.alpha1;
  key.beta1 = hd.beta1;
  key.delta1 = hd.delta1;
  key.beta2 = hd.beta2;
  key.gamma2 = hd.gamma2;
  key.delta2 = hd.delta2;

  PoolRef pool(options.pool, options.threads);
  DecodeProgress progress(options.progress, (uint64_t)h.count + l.count + a.count + b1.count + b2.count);
  decode_vector<G1Affine>(src, ic, SubgroupCheck::kYes, *pool, key.ic);
  decode_vector<G1Affine>(src, h, options.subgroup, *pool, key.h, options.decoder, &progress);
  decode_vector<G1Affine>(src, l, options.subgroup, *pool, key.l, options.decoder, &progress);
  decode_vector<G1Affine>(src, a, options.subgroup, *pool, key.a, options.decoder, &progress);
  decode_vector<G1Affine>(src, b1, options.subgroup, *pool, key.b_g1, options.decoder, &progress);
  decode_vector<G2Affine>(src, b2, options.subgroup, *pool, key.b_g2, options.decoder, &progress);
  progress.finish();
  return key;
}

ProvingKey read_params(const std::filesystem::path& path, const ParamsReadOptions& options) {
  const Mapping map(path);
  return read_params(map.bytes(), path.string(), options);
}

VerifyingKey read_vk(std::span<const uint8_t> bytes, const std::string& name) {
  const Source src{bytes.data(), bytes.size(), name};
  if (src.size < kHeaderBytes)
    src.fail("truncated: the verifying-key header needs " + std::to_string(kHeaderBytes) +
             " bytes, the file has " + std::to_string(src.size));
  uint64_t pos = kHeaderBytes;
  const Extent ic = scan_vector(src, pos, "ic", kG1Uncompressed);
  if (pos != src.size)
    src.fail(at(std::to_string(src.size - pos) + " trailing bytes after ic", pos, "not part of the format"));
  if (ic.count == 0)
    src.fail(at("ic", ic.offset - 4, "empty (it holds at least the point of the constant ONE)"));
  const Header hd = decode_header(src);
  VerifyingKey vk{hd.alpha1, hd.beta2, hd.gamma2, hd.delta2, {}};
  vk.ic.resize(ic.count);
  for (size_t i = 0; i < ic.count; i++)
    vk.ic[i] = decode_point<G1Affine>(src, ic.offset + i * kG1Uncompressed, "ic", (int64_t)i,
                                      SubgroupCheck::kYes, false);
  return vk;
}

VerifyingKey read_vk(const std::filesystem::path& path) {
  const std::vector<uint8_t> bytes = read_file_bytes(path);
  return read_vk(bytes, path.string());
}

// ---- writing -------------------------------------------------------------------------------------------

void write_params(const std::filesystem::path& path, const ProvingKey& key, ThreadPool* pool) {
  PoolRef p(pool, 0);
  AtomicFile file(path);
  put_params([&](std::span<const uint8_t> b) { file.append(b); }, key, &*p);
  file.commit();
}

std::vector<uint8_t> params_bytes(const ProvingKey& key, ThreadPool* pool) {
  std::vector<uint8_t> out;
  put_params([&](std::span<const uint8_t> b) { out.insert(out.end(), b.begin(), b.end()); }, key, pool);
  return out;
}

void write_vk(const std::filesystem::path& path, const ProvingKey& key) {
  AtomicFile file(path);
  put_vk([&](std::span<const uint8_t> b) { file.append(b); }, key);
  file.commit();
}

std::vector<uint8_t> vk_bytes(const ProvingKey& key) {
  std::vector<uint8_t> out;
  put_vk([&](std::span<const uint8_t> b) { out.insert(out.end(), b.begin(), b.end()); }, key);
  return out;
}

}  // namespace cuzk
