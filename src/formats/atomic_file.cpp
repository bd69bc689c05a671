#include "formats/atomic_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
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

/// Where `path`'s bytes go: `path` itself, or for a symbolic link the file it names (so the rename
/// replaces that file, not the link). An existing destination that is not a regular file (a device such
/// as /dev/null, a FIFO, a socket, a folder) is refused: a rename would replace it with a regular file.
std::filesystem::path destination_of(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path dest = path;
  if (fs::is_symlink(fs::symlink_status(path, ec))) {
    dest = fs::weakly_canonical(path, ec);
    if (ec) io_error(path, "cannot resolve the symbolic link", ec.value());
  }
  const fs::file_status st = fs::status(dest, ec);
  if (fs::exists(st) && !fs::is_regular_file(st))
    throw Error(ErrorCode::kIo, path.string() +
                                    ": not a regular file (cuzk replaces its outputs whole, through a "
                                    "temporary file): give the path of a file");
  return dest;
}

}  // namespace

AtomicFile::AtomicFile(const std::filesystem::path& path) : path_(destination_of(path)) {
  std::string tmpl = path_.string() + ".tmp-XXXXXX";
  fd_ = ::mkstemp(tmpl.data());
  if (fd_ < 0) io_error(path_, "cannot create a temporary file next to it", errno);
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
      buf_(std::move(o.buf_)) {
  o.tmp_.clear();
}

AtomicFile& AtomicFile::operator=(AtomicFile&& o) noexcept {
  if (this != &o) {
    discard();
    path_ = std::move(o.path_);
    tmp_ = std::move(o.tmp_);
    o.tmp_.clear();
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
  }
  if (!tmp_.empty()) {
    ::unlink(tmp_.c_str());
    tmp_.clear();
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

void AtomicFile::seal() {
  if (fd_ < 0) throw Error(ErrorCode::kInternal, path_.string() + ": commit twice");
  flush();
  if (::fsync(fd_) != 0) io_error(tmp_, "fsync failed", errno);
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) io_error(tmp_, "close failed", errno);  // the destructor removes tmp_
}

void AtomicFile::rename_into_place() {
  if (::rename(tmp_.c_str(), path_.c_str()) != 0)
    io_error(path_, "rename of the temporary file failed", errno);
  tmp_.clear();
}

void AtomicFile::commit() {
  AtomicFile* self = this;
  commit_together({&self, 1});
}

namespace {

/// The folder that holds `path` ("." for a bare file name).
std::filesystem::path folder_of(const std::filesystem::path& path) {
  std::filesystem::path dir = path.parent_path();
  return dir.empty() ? std::filesystem::path(".") : dir;
}

/// Persists directory entries (best effort: some file systems refuse fsync on directories).
void fsync_folder(const std::filesystem::path& dir) {
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
}

/// Exclusive flock(2) on `.cuzk.lock` in each of a set of folders, held until destruction. A folder
/// named twice (under any spelling) is locked once; locks are taken in (device, inode) order.
class FolderLocks {
 public:
  explicit FolderLocks(const std::vector<std::filesystem::path>& dirs) {
    struct Held {
      dev_t dev;
      ino_t ino;
      int fd;
      std::filesystem::path path;
    };
    std::vector<Held> held;
    try {
      for (const auto& dir : dirs) {
        const std::filesystem::path lock = dir / ".cuzk.lock";
        int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) io_error(lock, "cannot open the lock file", errno);
        fds_.push_back(fd);
        struct stat st;
        if (::fstat(fd, &st) != 0) io_error(lock, "stat failed", errno);
        held.push_back({st.st_dev, st.st_ino, fd, lock});
      }
      std::sort(held.begin(), held.end(),
                [](const Held& a, const Held& b) { return a.dev != b.dev ? a.dev < b.dev : a.ino < b.ino; });
      for (size_t i = 0; i < held.size(); i++) {
        if (i > 0 && held[i].dev == held[i - 1].dev && held[i].ino == held[i - 1].ino) continue;
        while (::flock(held[i].fd, LOCK_EX) != 0)
          if (errno != EINTR) io_error(held[i].path, "cannot lock", errno);
      }
    } catch (...) {
      release();
      throw;
    }
  }
  FolderLocks(const FolderLocks&) = delete;
  FolderLocks& operator=(const FolderLocks&) = delete;
  ~FolderLocks() { release(); }

 private:
  void release() noexcept {
    for (int fd : fds_) ::close(fd);  // closing the last descriptor of a lock releases it
    fds_.clear();
  }
  std::vector<int> fds_;
};

}  // namespace

void commit_together(std::span<AtomicFile* const> files, bool lock_folders) {
  for (AtomicFile* f : files) f->seal();
  std::vector<std::filesystem::path> dirs;
  for (AtomicFile* f : files) {
    std::filesystem::path d = folder_of(f->path_);
    if (std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);
  }
  {
    // One file is atomic by itself: only a set needs the lock.
    std::optional<FolderLocks> locks;
    if (files.size() > 1 && lock_folders) locks.emplace(dirs);
    for (AtomicFile* f : files) f->rename_into_place();
    for (const auto& d : dirs) fsync_folder(d);
  }
}

void write_files_atomically(const std::vector<FileToWrite>& files) {
  std::vector<AtomicFile> out;
  out.reserve(files.size());
  for (const FileToWrite& f : files) {
    out.emplace_back(f.path);
    out.back().append({reinterpret_cast<const uint8_t*>(f.contents.data()), f.contents.size()});
  }
  std::vector<AtomicFile*> ptrs;
  for (AtomicFile& f : out) ptrs.push_back(&f);
  commit_together(ptrs);
}

void write_file_atomic(const std::filesystem::path& path, std::span<const uint8_t> bytes) {
  AtomicFile f(path);
  f.append(bytes);
  f.commit();
}

void write_file_atomic(const std::filesystem::path& path, const std::string& text) {
  write_file_atomic(path,
                    std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

int open_regular_file(const std::filesystem::path& path, uint64_t& size) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) io_error(path, "cannot open", errno);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    io_error(path, "cannot stat", err);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw Error(ErrorCode::kIo, path.string() + ": not a regular file");
  }
  size = (uint64_t)st.st_size;
  return fd;
}

std::vector<uint8_t> read_file_bytes(const std::filesystem::path& path) {
  uint64_t size = 0;
  int fd = open_regular_file(path, size);
  std::vector<uint8_t> out;
  out.reserve((size_t)size);
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
