// The iden3 binary container shared by .r1cs, .wtns, .zkey and .ptau (snarkjs's @iden3/binfileutils,
// src/binfileutils.js): 4 ASCII magic bytes, u32 version, u32 nSections, then nSections records
// `u32 id | u64 size | payload[size]`, all little-endian. Sections may appear in any order (snarkjs's
// `groth16 setup` writes 1,2,4,3,9,8,5,6,7,10), so readers scan the table and look sections up by id.
//
// Reading maps the file read-only (mmap) and hands out spans into the mapping; every length read from
// the file is checked against what is left before it is used, so a truncated or corrupt file throws
// cuzk::Error(kInvalidFile, "<path>: …") and never reads out of bounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "formats/atomic_file.hpp"

namespace cuzk {

/// One record of a container's section table: the payload lies at [offset, offset + size) of the file.
struct BinSection {
  uint32_t id;
  uint64_t offset;
  uint64_t size;
};

/// A validated iden3 container: header checked, section table scanned and bounds-checked. Owns a
/// read-only mapping of the file (or an in-memory copy); spans it returns stay valid while it lives.
/// Move-only.
class BinFile {
 public:
  /// Maps `path` and checks the magic (4 characters, e.g. "zkey") and that the version equals
  /// `version`. Throws Error(kIo) if the file cannot be opened or mapped, Error(kInvalidFile) naming
  /// the path for a wrong magic or version, a truncated header/table/section, or trailing bytes after
  /// the last section.
  static BinFile open(const std::filesystem::path& path, std::string_view magic, uint32_t version);
  /// The same checks on bytes already in memory; `name` stands for the path in error messages.
  static BinFile from_bytes(std::vector<uint8_t> bytes, std::string name, std::string_view magic,
                            uint32_t version);

  BinFile(BinFile&& o) noexcept;
  BinFile& operator=(BinFile&& o) noexcept;
  BinFile(const BinFile&) = delete;
  BinFile& operator=(const BinFile&) = delete;
  ~BinFile();

  /// The path (or name) used in error messages.
  const std::string& name() const { return name_; }
  uint32_t version() const { return version_; }
  /// The whole file.
  std::span<const uint8_t> data() const { return {data_, size_}; }
  /// The section table in file order.
  const std::vector<BinSection>& sections() const { return sections_; }
  /// How many records carry `id`.
  size_t count(uint32_t id) const;
  /// The payload of section `id`, which must appear exactly once. `what` (e.g. "IC") names the
  /// section in the error thrown when it is missing or duplicated (kInvalidFile).
  std::span<const uint8_t> section(uint32_t id, std::string_view what = {}) const;
  /// The payload of section `id` if present (nullopt when absent); throws if duplicated.
  std::optional<std::span<const uint8_t>> optional_section(uint32_t id, std::string_view what = {}) const;
  /// Throws Error(kInvalidFile, "<name>: <what>").
  [[noreturn]] void fail(const std::string& what) const;

 private:
  BinFile() = default;
  void parse(std::string_view magic, uint32_t version);
  void release() noexcept;

  std::string name_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  void* map_ = nullptr;  // mmap'ed region (size_ bytes) or null
  std::vector<uint8_t> owned_;
  uint32_t version_ = 0;
  std::vector<BinSection> sections_;
};

/// A bounds-checked little-endian cursor over a section payload. `context` (e.g. "mul.r1cs: section 2
/// (constraints)") prefixes every error: Error(kInvalidFile, "<context>: truncated: need N bytes at
/// offset O, M left").
class ByteReader {
 public:
  ByteReader(std::span<const uint8_t> data, std::string context) : data_(data), ctx_(std::move(context)) {}
  uint32_t u32();
  uint64_t u64();
  /// The next n bytes (a view into the payload).
  std::span<const uint8_t> take(size_t n);
  size_t offset() const { return pos_; }
  size_t remaining() const { return data_.size() - pos_; }
  /// Throws unless the whole payload was consumed ("N unexpected bytes at the end").
  void expect_end() const;
  const std::string& context() const { return ctx_; }
  /// Throws Error(kInvalidFile, "<context>: <what>").
  [[noreturn]] void fail(const std::string& what) const;

 private:
  std::span<const uint8_t> data_;
  std::string ctx_;
  size_t pos_ = 0;
};

/// Writes an iden3 container, section by section, either streaming into an AtomicFile (committed by
/// `commit()`) or into memory (`take_bytes()`). Section sizes and nSections are patched in when known,
/// so payloads of any size stream through without being held in memory.
class BinFileWriter {
 public:
  /// Streams to `path` through a temporary file; nothing appears at `path` until commit().
  BinFileWriter(const std::filesystem::path& path, std::string_view magic, uint32_t version);
  /// Builds the container in memory.
  BinFileWriter(std::string_view magic, uint32_t version);

  /// Starts a section record (the previous one must be ended).
  void begin_section(uint32_t id);
  /// Appends payload bytes to the open section.
  void write(std::span<const uint8_t> bytes);
  void write_u32(uint32_t v);
  void write_u64(uint64_t v);
  /// Closes the open section, patching its size.
  void end_section();
  /// begin_section + write + end_section.
  void add_section(uint32_t id, std::span<const uint8_t> payload);

  /// File mode: patches nSections, fsyncs and renames into place. Throws Error(kIo).
  void commit();
  /// Memory mode: the finished container.
  std::vector<uint8_t> take_bytes();

 private:
  void put(std::span<const uint8_t> bytes);
  void patch(uint64_t offset, std::span<const uint8_t> bytes);
  uint64_t pos() const;
  void finish_header();

  std::optional<AtomicFile> file_;
  std::vector<uint8_t> mem_;
  uint32_t n_sections_ = 0;
  bool in_section_ = false;
  uint64_t size_field_ = 0, payload_start_ = 0;
};

/// Little-endian helpers for payload builders.
inline void put_u32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; i++) out.push_back((uint8_t)(v >> (8 * i)));
}
inline void put_u64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; i++) out.push_back((uint8_t)(v >> (8 * i)));
}
inline uint32_t get_u32(const uint8_t* p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
inline uint64_t get_u64(const uint8_t* p) { return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32; }

}  // namespace cuzk
