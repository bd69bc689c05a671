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
/// Points decoded before their file pages are dropped (≈200 MB of G1, 400 MB of G2): what the mapping
/// and the page cache hold of a file at most while it is decoded. Also the scratch of a vector that is
/// only checked (released).
constexpr size_t kDropChunk = size_t{1} << 21;
/// Points encoded per write when streaming a key out.
constexpr size_t kWriteChunk = size_t{1} << 16;

/// A read-only view of the bytes being parsed and the name used in error messages.
struct Source {
  const uint8_t* data;
  uint64_t size;
  const std::string& name;
  /// When set, told of byte ranges decoded for good, whose file pages may go (Mapping::drop).
  std::function<void(uint64_t offset, uint64_t bytes)> drop = {};

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
  /// Reports the start (0 of total; a key of no points is then reported once).
  DecodeProgress(const std::function<void(uint64_t, uint64_t)>& fn, uint64_t total) : fn_(fn), total_(total) {
    if (fn_) report(0);  // no other thread yet
  }
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

/// Decodes points [first, first + n) of vector `e` into `out` on the pool, or through `decoder` when one
/// is given; ∞ is refused. A point the decoder reports invalid is decoded again on the CPU, which throws
/// the error read_params always gives for it.
template <class A>
void decode_range(const Source& src, const Extent& e, size_t first, size_t n, SubgroupCheck check,
                  ThreadPool& pool, A* out, PointDecoder* decoder) {
  const uint64_t base = e.offset + first * e.elem;
  if (decoder) {
    const size_t bad = Group<A>::decode_with(*decoder, src.data + base, n, check, pool, out);
    if (bad == n) return;
    if (bad > n)
      throw Error(ErrorCode::kInternal, src.name + ": the point decoder returned index " +
                                            std::to_string(first + bad) + " for " + e.name + ", which has " +
                                            std::to_string(e.count) + " points");
    decode_point<A>(src, base + bad * e.elem, e.name, (int64_t)(first + bad), check, false);  // throws
    throw Error(ErrorCode::kInternal, src.name + ": the point decoder refused " +
                                          label(e.name, (int64_t)(first + bad)) +
                                          ", which the CPU decoder accepts");
  }
  pool.parallel_for(
      n,
      [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; i++)
          out[i] = decode_point<A>(src, base + i * e.elem, e.name, (int64_t)(first + i), check, false);
      },
      kDecodeGrain);
}

/// Decodes the `e.count` points of a vector, kDropChunk at a time, each chunk's file pages dropped once
/// it is decoded (src.drop). With `out` the points go there (resized to e.count); without, they are only
/// checked (released vectors) through a scratch of one chunk. `progress` (optional) counts them.
template <class A, class Vec>
void decode_vector(const Source& src, const Extent& e, SubgroupCheck check, ThreadPool& pool, Vec* out,
                   PointDecoder* decoder = nullptr, DecodeProgress* progress = nullptr) {
  BigVector<A> scratch;
  if (out)
    out->resize(e.count);
  else
    scratch.resize(std::min<size_t>(e.count, kDropChunk));
  for (size_t first = 0; first < e.count; first += kDropChunk) {
    const size_t n = std::min<size_t>(kDropChunk, e.count - first);
    decode_range<A>(src, e, first, n, check, pool, out ? out->data() + first : scratch.data(), decoder);
    if (src.drop) src.drop(e.offset + first * e.elem, n * e.elem);
    if (progress) progress->add(n);
  }
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
    fd_ = fd;
    mtime_ns_ = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
  }
  ~Mapping() {
    if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
    ::close(fd_);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;

  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  int64_t mtime_ns() const { return mtime_ns_; }
  /// Drops the pages of bytes [offset, offset + bytes) from the mapping (they no longer count in the
  /// process's RSS; touching them again reads the file) and from the page cache. Advisory: failures are
  /// ignored.
  void drop(uint64_t offset, uint64_t bytes) const {
    if (!data_ || bytes == 0) return;
    const uint64_t page = (uint64_t)::sysconf(_SC_PAGESIZE);
    const uint64_t begin = offset / page * page, end = std::min(size_, offset + bytes);
    ::madvise(const_cast<uint8_t*>(data_) + begin, end - begin, MADV_DONTNEED);
    ::posix_fadvise(fd_, (off_t)begin, (off_t)(end - begin), POSIX_FADV_DONTNEED);
  }
  /// A Source over the mapping whose decoded ranges are dropped.
  Source source(const std::string& name) const {
    return Source{data_, size_, name, [this](uint64_t off, uint64_t n) { drop(off, n); }};
  }

 private:
  [[noreturn]] static void io_fail(const std::filesystem::path& p, const char* what, int err) {
    throw Error(ErrorCode::kIo, p.string() + ": " + what + ": " + std::strerror(err));
  }
  const uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
  int fd_ = -1;
  int64_t mtime_ns_ = 0;
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

namespace {

/// Where a .params file's vectors lie, every count checked against the size and the format's rules.
struct Layout {
  Extent ic, h, l, a, b1, b2;
  /// The extent of a point vector.
  const Extent& of(KeyVector v) const {
    switch (v) {
      case KeyVector::kH:
        return h;
      case KeyVector::kA:
        return a;
      case KeyVector::kBG1:
        return b1;
      case KeyVector::kL:
        return l;
      case KeyVector::kBG2:
        break;
    }
    return b2;
  }
};

Layout scan_layout(const Source& src) {
  // A snarkjs/circom container given where a .params goes: named, instead of a count read from its header.
  // (A .params begins with an uncompressed point, whose first byte never spells these magics' first letter
  // with a valid flag combination.)
  for (const char* magic : {"zkey", "r1cs", "wtns"})
    if (src.size >= 4 && std::memcmp(src.data, magic, 4) == 0)
      src.fail(std::string("a circom/snarkjs .") + magic + " file (it begins with \"" + magic +
               "\"), not a bellperson .params file");
  if (src.size < kHeaderBytes)
    src.fail("truncated: the verifying-key header needs " + std::to_string(kHeaderBytes) +
             " bytes, the file has " + std::to_string(src.size));
  // Layout first: every count checked against the size before any allocation.
  uint64_t pos = kHeaderBytes;
  Layout y{scan_vector(src, pos, "ic", kG1Uncompressed),   scan_vector(src, pos, "h", kG1Uncompressed),
           scan_vector(src, pos, "l", kG1Uncompressed),    scan_vector(src, pos, "a", kG1Uncompressed),
           scan_vector(src, pos, "b_g1", kG1Uncompressed), scan_vector(src, pos, "b_g2", kG2Uncompressed)};
  if (pos != src.size)
    src.fail(
        at(std::to_string(src.size - pos) + " trailing bytes after b_g2", pos, "not part of the format"));
  if (y.ic.count == 0)
    src.fail(at("ic", y.ic.offset - 4, "empty (it holds at least the point of the constant ONE)"));
  const uint64_t n = (uint64_t)y.h.count + 1;
  if (!std::has_single_bit(n))
    src.fail(at("h", y.h.offset - 4,
                std::to_string(y.h.count) + " points: not 2^k - 1 (the domain size minus one)"));
  if (y.b1.count != y.b2.count)
    src.fail(at("b_g2", y.b2.offset - 4,
                std::to_string(y.b2.count) + " points but b_g1 has " + std::to_string(y.b1.count) +
                    " (both hold one point per variable in B)"));
  const uint64_t vars = (uint64_t)y.ic.count + y.l.count;
  for (const Extent* e : {&y.a, &y.b1})
    if (e->count > vars)
      src.fail(at(e->name, e->offset - 4,
                  std::to_string(e->count) + " points for " + std::to_string(vars) + " variables (ic + l)"));
  return y;
}

/// read_params on a source; `file` (when the source is a mapped file) makes releasing vectors possible.
ProvingKey read_key(const Source& src, const ParamsReadOptions& options, const std::filesystem::path* file) {
  const Layout y = scan_layout(src);
  ProvingKey key;
  const Header hd = decode_header(src);
  key.convention = HConvention::kBellperson;
  key.log_n = std::countr_zero((uint64_t)y.h.count + 1);
  key.n_inputs = y.ic.count;
  key.n_aux = y.l.count;
  key.alpha1 = hd.alpha1;
  key.beta1 = hd.beta1;
  key.delta1 = hd.delta1;
  key.beta2 = hd.beta2;
  key.gamma2 = hd.gamma2;
  key.delta2 = hd.delta2;

  PoolRef pool(options.pool, options.threads);
  decode_vector<G1Affine>(src, y.ic, SubgroupCheck::kYes, *pool, &key.ic);
  // The vectors to release: asked with every vector released, so that the shape's counts are all there.
  KeyVectorSet release{};
  if (options.release && file) {
    ProvingKey shape = key;
    for (int v = 0; v < kKeyVectors; v++) shape.released[v] = y.of((KeyVector)v).count;
    release = options.release(shape, options.rows);
    for (int v = 0; v < kKeyVectors; v++)
      if (release[v] && y.of((KeyVector)v).count > 0) {
        key.released[v] = y.of((KeyVector)v).count;
        if (!key.source) key.source = std::make_shared<ParamsVectorSource>(*file, options.threads);
      }
  }
  // Released vectors are checked now only when the subgroup is (a later read checks the rest).
  const bool check_released = options.subgroup == SubgroupCheck::kYes;
  uint64_t total = 0;
  for (int v = 0; v < kKeyVectors; v++)
    if (!key.is_released((KeyVector)v) || check_released) total += y.of((KeyVector)v).count;
  DecodeProgress progress(options.progress, total);
  auto g1 = [&](KeyVector v, BigVector<G1Affine>& out) {
    if (!key.is_released(v))
      decode_vector<G1Affine>(src, y.of(v), options.subgroup, *pool, &out, options.decoder, &progress);
    else if (check_released)
      decode_vector<G1Affine, BigVector<G1Affine>>(src, y.of(v), options.subgroup, *pool, nullptr,
                                                   options.decoder, &progress);
  };
  g1(KeyVector::kH, key.h);
  g1(KeyVector::kL, key.l);
  g1(KeyVector::kA, key.a);
  g1(KeyVector::kBG1, key.b_g1);
  if (!key.is_released(KeyVector::kBG2))
    decode_vector<G2Affine>(src, y.b2, options.subgroup, *pool, &key.b_g2, options.decoder, &progress);
  else if (check_released)
    decode_vector<G2Affine, BigVector<G2Affine>>(src, y.b2, options.subgroup, *pool, nullptr, options.decoder,
                                                 &progress);
  progress.finish();
  return key;
}

}  // namespace

ProvingKey read_params(std::span<const uint8_t> bytes, const std::string& name,
                       const ParamsReadOptions& options) {
  return read_key(Source{bytes.data(), bytes.size(), name}, options, nullptr);
}

ProvingKey read_params(const std::filesystem::path& path, const ParamsReadOptions& options) {
  const Mapping map(path);
  const std::string name = path.string();
  return read_key(map.source(name), options, &path);
}

ParamsVectorSource::ParamsVectorSource(std::filesystem::path path, unsigned threads)
    : path_(std::move(path)), threads_(threads) {
  const Mapping map(path_);
  const std::string name = path_.string();
  const Layout y = scan_layout(Source{map.bytes().data(), map.bytes().size(), name});
  size_ = map.bytes().size();
  mtime_ns_ = map.mtime_ns();
  for (int v = 0; v < kKeyVectors; v++) {
    offset_[v] = y.of((KeyVector)v).offset;
    count_[v] = y.of((KeyVector)v).count;
  }
}

namespace {

/// Maps the file of a ParamsVectorSource, checks it is the one recorded and decodes one vector.
template <class A>
BigVector<A> reread(const std::filesystem::path& path, uint64_t size, int64_t mtime_ns, KeyVector v,
                    uint64_t offset, uint64_t count, unsigned threads) {
  const Mapping map(path);
  const std::string name = path.string();
  if (map.bytes().size() != size || map.mtime_ns() != mtime_ns)
    throw Error(ErrorCode::kIo, name + ": changed since its key was loaded (size " +
                                    std::to_string(map.bytes().size()) + " bytes, was " +
                                    std::to_string(size) + "): its released " + key_vector_name(v) +
                                    " points cannot be read again; reload the circuit");
  const Source src = map.source(name);
  uint64_t pos = offset - 4;
  const Extent e = scan_vector(src, pos, key_vector_name(v), Group<A>::kBytes);
  if (e.count != count)
    throw Error(ErrorCode::kIo, name + ": " + key_vector_name(v) + " now has " + std::to_string(e.count) +
                                    " points, " + std::to_string(count) + " when its key was loaded");
  BigVector<A> out;
  ThreadPool pool(threads);
  decode_vector<A>(src, e, SubgroupCheck::kNo, pool, &out);
  return out;
}

}  // namespace

BigVector<G1Affine> ParamsVectorSource::read_g1(KeyVector v) const {
  if (v == KeyVector::kBG2)
    throw Error(ErrorCode::kInvalidArgument, "ParamsVectorSource::read_g1: b_g2 holds G2 points (read_g2)");
  return reread<G1Affine>(path_, size_, mtime_ns_, v, offset_[(int)v], count_[(int)v], threads_);
}

BigVector<G2Affine> ParamsVectorSource::read_g2() const {
  const int v = (int)KeyVector::kBG2;
  return reread<G2Affine>(path_, size_, mtime_ns_, KeyVector::kBG2, offset_[v], count_[v], threads_);
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
