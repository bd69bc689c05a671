#include "formats/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <utility>

#include "util/error.hpp"

namespace cuzk {
namespace {

constexpr size_t kBufferSize = 1 << 20;

[[noreturn]] void io_error(const std::filesystem::path& p, const std::string& what, int err) {
  throw Error(ErrorCode::kIo, p.string() + ": " + what + ": " + std::strerror(err));
}

/// write(2) until done, retrying on EINTR and short writes.
void write_all(int fd, const uint8_t* p, size_t n, const std::filesystem::path& name) {
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      io_error(name, "write failed", errno);
    }
    p += w;
    n -= (size_t)w;
  }
}
void pwrite_all(int fd, const uint8_t* p, size_t n, uint64_t off, const std::filesystem::path& name) {
  while (n > 0) {
    ssize_t w = ::pwrite(fd, p, n, (off_t)off);
    if (w < 0) {
      if (errno == EINTR) continue;
      io_error(name, "write failed", errno);
    }
    p += w;
    n -= (size_t)w;
    off += (uint64_t)w;
  }
}

}  // namespace

AtomicFile::AtomicFile(const std::filesystem::path& path) : path_(path) {
  std::string tmpl = path.string() + ".tmp-XXXXXX";
  fd_ = ::mkstemp(tmpl.data());
  if (fd_ < 0) io_error(path, "cannot create a temporary file next to it", errno);
  tmp_ = tmpl;
  if (::fchmod(fd_, 0644) != 0) {
    int err = errno;
    discard();
    io_error(tmp_, "chmod failed", err);
  }
  buf_.reserve(kBufferSize);
}

AtomicFile::AtomicFile(AtomicFile&& o) noexcept
    : path_(std::move(o.path_)),
      tmp_(std::move(o.tmp_)),
      fd_(std::exchange(o.fd_, -1)),
      size_(o.size_),
      flushed_(o.flushed_),
      buf_(std::move(o.buf_)) {}

AtomicFile& AtomicFile::operator=(AtomicFile&& o) noexcept {
  if (this != &o) {
    discard();
    path_ = std::move(o.path_);
    tmp_ = std::move(o.tmp_);
    fd_ = std::exchange(o.fd_, -1);
    size_ = o.size_;
    flushed_ = o.flushed_;
    buf_ = std::move(o.buf_);
  }
  return *this;
}

AtomicFile::~AtomicFile() { discard(); }

void AtomicFile::discard() noexcept {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
    ::unlink(tmp_.c_str());
  }
}

void AtomicFile::flush() {
  if (buf_.empty()) return;
  write_all(fd_, buf_.data(), buf_.size(), tmp_);
  flushed_ += buf_.size();
  buf_.clear();
}

void AtomicFile::append(std::span<const uint8_t> bytes) {
  if (fd_ < 0) throw Error(ErrorCode::kInternal, path_.string() + ": append after commit");
  if (bytes.size() >= kBufferSize) {
    flush();
    write_all(fd_, bytes.data(), bytes.size(), tmp_);
    flushed_ += bytes.size();
  } else {
    if (buf_.size() + bytes.size() > kBufferSize) flush();
    buf_.insert(buf_.end(), bytes.begin(), bytes.end());
  }
  size_ += bytes.size();
}

void AtomicFile::append_u32(uint32_t v) {
  uint8_t b[4];
  for (int i = 0; i < 4; i++) b[i] = (uint8_t)(v >> (8 * i));
  append(b);
}
void AtomicFile::append_u64(uint64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
  append(b);
}

void AtomicFile::patch(uint64_t offset, std::span<const uint8_t> bytes) {
  if (fd_ < 0) throw Error(ErrorCode::kInternal, path_.string() + ": patch after commit");
  if (offset > size_ || bytes.size() > size_ - offset)
    throw Error(ErrorCode::kInternal, path_.string() + ": patch outside the written range");
  // The part still in the buffer is patched there; the rest on disk.
  for (size_t i = 0; i < bytes.size(); i++) {
    uint64_t at = offset + i;
    if (at >= flushed_) buf_[at - flushed_] = bytes[i];
  }
  if (offset < flushed_) {
    size_t n = (size_t)std::min<uint64_t>(bytes.size(), flushed_ - offset);
    pwrite_all(fd_, bytes.data(), n, offset, tmp_);
  }
}

void AtomicFile::commit() {
  if (fd_ < 0) throw Error(ErrorCode::kInternal, path_.string() + ": commit twice");
  flush();
  if (::fsync(fd_) != 0) io_error(tmp_, "fsync failed", errno);
  if (::close(fd_) != 0) {
    int err = errno;
    fd_ = -1;
    ::unlink(tmp_.c_str());
    io_error(tmp_, "close failed", err);
  }
  fd_ = -1;
  if (::rename(tmp_.c_str(), path_.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp_.c_str());
    io_error(path_, "rename of the temporary file failed", err);
  }
  // Persist the directory entry too (best effort: some file systems refuse fsync on directories).
  std::filesystem::path dir = path_.parent_path();
  if (dir.empty()) dir = ".";
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
}

void write_file_atomic(const std::filesystem::path& path, std::span<const uint8_t> bytes) {
  AtomicFile f(path);
  f.append(bytes);
  f.commit();
}

void write_file_atomic(const std::filesystem::path& path, const std::string& text) {
  write_file_atomic(path, std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

std::vector<uint8_t> read_file_bytes(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) io_error(path, "cannot open", errno);
  std::vector<uint8_t> out;
  uint8_t chunk[1 << 16];
  for (;;) {
    ssize_t r = ::read(fd, chunk, sizeof chunk);
    if (r < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      io_error(path, "read failed", err);
    }
    if (r == 0) break;
    out.insert(out.end(), chunk, chunk + r);
  }
  ::close(fd);
  return out;
}

}  // namespace cuzk
