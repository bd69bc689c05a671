// Crash-safe file output shared by every writer in src/formats: the bytes go to a temporary file next
// to the destination (`<path>.tmp-XXXXXX`), are fsync'ed, and the temporary is renamed over the
// destination, so a reader sees either the old file or the complete new one, never a prefix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace cuzk {

/// A file being written atomically. Bytes are appended through an internal buffer (1 MiB) and may be
/// patched in place at an earlier offset (used for the section sizes of iden3 containers, known only
/// once a section is complete). `commit()` flushes, fsyncs, renames the temporary onto the target and
/// fsyncs the directory; an AtomicFile destroyed (or moved-from) without commit removes its temporary.
/// Move-only. Every OS failure throws cuzk::Error(kIo) naming the path and strerror.
class AtomicFile {
 public:
  /// Creates `<path>.tmp-XXXXXX` in the destination's directory (mode 0644 after umask).
  explicit AtomicFile(const std::filesystem::path& path);
  AtomicFile(AtomicFile&& o) noexcept;
  AtomicFile& operator=(AtomicFile&& o) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  /// Appends bytes at the end of what has been written so far.
  void append(std::span<const uint8_t> bytes);
  /// Appends a little-endian u32 / u64.
  void append_u32(uint32_t v);
  void append_u64(uint64_t v);
  /// Overwrites bytes at `offset` (which must lie entirely inside what was appended so far).
  void patch(uint64_t offset, std::span<const uint8_t> bytes);
  /// Number of bytes appended so far (the file's size once committed).
  uint64_t size() const { return size_; }
  /// Flushes, fsyncs and renames the temporary onto the destination; the object is then finished.
  void commit();
  /// The destination path.
  const std::filesystem::path& path() const { return path_; }

 private:
  void flush();
  void discard() noexcept;

  std::filesystem::path path_, tmp_;
  int fd_ = -1;
  uint64_t size_ = 0;      // bytes appended (flushed + buffered)
  uint64_t flushed_ = 0;   // bytes already handed to the OS
  std::vector<uint8_t> buf_;
};

/// Writes `bytes` to `path` atomically (temporary file, fsync, rename). Throws cuzk::Error(kIo).
void write_file_atomic(const std::filesystem::path& path, std::span<const uint8_t> bytes);
/// Same for text.
void write_file_atomic(const std::filesystem::path& path, const std::string& text);

/// Reads a whole (small) file into memory. Throws cuzk::Error(kIo) naming the path when it cannot be
/// opened or read.
std::vector<uint8_t> read_file_bytes(const std::filesystem::path& path);

}  // namespace cuzk
