// Crash-safe file output shared by every writer in src/formats: the bytes go to a temporary file next
// to the destination (`<path>.tmp-XXXXXX`), are fsync'ed, and the temporary is renamed over the
// destination, so a reader sees either the old file or the complete new one, never a prefix.
// Several files that belong together (proof.json and public.json, a key and its verification key)
// are committed as one: write_files_atomically / commit_together.
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
  friend void commit_together(std::span<AtomicFile* const> files, bool lock_folders);
  void flush();
  /// Flushes, fsyncs and closes the temporary, which stays under its temporary name.
  void seal();
  /// Renames the sealed temporary onto the destination (no directory fsync).
  void rename_into_place();
  void discard() noexcept;

  std::filesystem::path path_, tmp_;  // tmp_ is empty once renamed or removed
  int fd_ = -1;
  uint64_t size_ = 0;     // bytes appended (flushed + buffered)
  uint64_t flushed_ = 0;  // bytes already handed to the OS
  std::vector<uint8_t> buf_;
};

/// Writes `bytes` to `path` atomically (temporary file, fsync, rename). Throws cuzk::Error(kIo).
void write_file_atomic(const std::filesystem::path& path, std::span<const uint8_t> bytes);
/// Same for text.
void write_file_atomic(const std::filesystem::path& path, const std::string& text);

/// Commits several AtomicFiles as one, so that two processes writing the same set of paths at the same
/// time never leave files of one beside files of the other. In order:
///   1. every temporary is flushed, fsync'ed and closed (the slow part, done without any lock);
///   2. an exclusive flock(2) is taken on `.cuzk.lock` in each destination folder (created if missing
///      and left in place; several folders are locked in a fixed order, so writers cannot deadlock);
///   3. every temporary is renamed onto its destination, in the order given;
///   4. the folders are fsync'ed and the locks released.
/// Every writer that goes through this function renames its whole set under the lock, so the last
/// writer's set is complete on disk. Readers take no lock: one that reads while a commit is between two
/// renames may see a mixed set. If a step fails, every temporary not yet renamed is removed and
/// Error(kIo) names the path; a rename that fails after others succeeded (an OS error, e.g. the folder
/// was removed) leaves those in place. Each file is committed once: the objects are then finished.
/// Files must have distinct destinations. With lock_folders false, step 2 is left out (no `.cuzk.lock` is
/// made: for writers that no other process writes beside); a failure while sealing still renames nothing.
void commit_together(std::span<AtomicFile* const> files, bool lock_folders = true);

/// One file for write_files_atomically: its destination and its whole contents (text or binary bytes).
struct FileToWrite {
  std::filesystem::path path;
  std::string contents;
};

/// Writes several small files so that they appear together: each is written to a temporary next to
/// its destination and fsync'ed, then all are renamed under an exclusive lock (see commit_together).
/// A failure before the renames leaves every destination untouched. Files that are too large to hold
/// in memory go through AtomicFile (or BinFileWriter) and commit_together instead. Throws
/// Error(kIo) naming the path.
///   write_files_atomically({{"proof.json", proof_text}, {"public.json", public_text}});
void write_files_atomically(const std::vector<FileToWrite>& files);

/// Reads a whole (small) file into memory. Throws cuzk::Error(kIo) naming the path when it cannot be
/// opened or read, or is not a regular file (open_regular_file).
std::vector<uint8_t> read_file_bytes(const std::filesystem::path& path);

/// Opens a regular file to read it whole: read-only, close-on-exec and O_NONBLOCK, so that a FIFO is not
/// waited on; anything but a regular file (a FIFO, a device such as /dev/zero, which would be read until
/// memory ran out) is refused. Returns the descriptor, which the caller closes, and sets `size` to the
/// file's size in bytes. Throws cuzk::Error(kIo) "<path>: cannot open: …", "cannot stat: …" or "not a
/// regular file".
int open_regular_file(const std::filesystem::path& path, uint64_t& size);

}  // namespace cuzk
