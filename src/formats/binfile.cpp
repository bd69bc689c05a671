#include "formats/binfile.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "formats/atomic_file.hpp"
#include "util/error.hpp"
#include "util/plural.hpp"

namespace cuzk {
namespace {

[[noreturn]] void io_error(const std::string& name, const std::string& what, int err) {
  throw Error(ErrorCode::kIo, name + ": " + what + ": " + std::strerror(err));
}

/// The magic as text when printable, else as hex.
std::string show_magic(const uint8_t* m) {
  std::string s = "\"";
  for (int i = 0; i < 4; i++) {
    if (m[i] < 0x20 || m[i] > 0x7e) {
      static const char* d = "0123456789abcdef";
      std::string h = "0x";
      for (int j = 0; j < 4; j++) {
        h += d[m[j] >> 4];
        h += d[m[j] & 15];
      }
      return h;
    }
    s += (char)m[i];
  }
  return s + "\"";
}

std::string section_label(uint32_t id, std::string_view what) {
  std::string s = "section " + std::to_string(id);
  if (!what.empty()) s += " (" + std::string(what) + ")";
  return s;
}

}  // namespace

// ---- BinFile ----------------------------------------------------------------------------------------

BinFile BinFile::open(const std::filesystem::path& path, std::string_view magic, uint32_t version) {
  BinFile f;
  f.name_ = path.string();
  uint64_t size = 0;
  int fd = open_regular_file(path, size);
  f.size_ = (size_t)size;
  if (f.size_ > 0) {
    // MAP_POPULATE: map the whole (page-cached) file up front rather than by one fault per 4 KiB page.
    void* m = ::mmap(nullptr, f.size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (m == MAP_FAILED) {
      int err = errno;
      ::close(fd);
      io_error(f.name_, "cannot map", err);
    }
    f.map_ = m;
    f.data_ = static_cast<const uint8_t*>(m);
  }
  ::close(fd);  // the mapping keeps the file alive
  f.parse(magic, version);
  return f;
}

BinFile BinFile::from_bytes(std::vector<uint8_t> bytes, std::string name, std::string_view magic,
                            uint32_t version) {
  BinFile f;
  f.name_ = std::move(name);
  f.owned_ = std::move(bytes);
  f.data_ = f.owned_.data();
  f.size_ = f.owned_.size();
  f.parse(magic, version);
  return f;
}

BinFile::BinFile(BinFile&& o) noexcept
    : name_(std::move(o.name_)),
      data_(std::exchange(o.data_, nullptr)),
      size_(std::exchange(o.size_, 0)),
      map_(std::exchange(o.map_, nullptr)),
      owned_(std::move(o.owned_)),
      version_(o.version_),
      sections_(std::move(o.sections_)) {
  if (!map_) data_ = owned_.data();  // a moved vector keeps its buffer, but be explicit
}

BinFile& BinFile::operator=(BinFile&& o) noexcept {
  if (this != &o) {
    release();
    name_ = std::move(o.name_);
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
    map_ = std::exchange(o.map_, nullptr);
    owned_ = std::move(o.owned_);
    if (!map_) data_ = owned_.data();
    version_ = o.version_;
    sections_ = std::move(o.sections_);
  }
  return *this;
}

BinFile::~BinFile() { release(); }

void BinFile::release() noexcept {
  if (map_) ::munmap(map_, size_);
  map_ = nullptr;
  data_ = nullptr;
  size_ = 0;
}

void BinFile::fail(const std::string& what) const {
  throw Error(ErrorCode::kInvalidFile, name_ + ": " + what);
}

void BinFile::parse(std::string_view magic, uint32_t version) {
  if (magic.size() != 4) throw Error(ErrorCode::kInternal, "container magic must be 4 characters");
  if (size_ < 12) fail("truncated: file has " + counted(size_, "byte") + ", the container header needs 12");
  if (std::memcmp(data_, magic.data(), 4) != 0)
    fail("wrong magic " + show_magic(data_) + ", expected \"" + std::string(magic) + "\" (not a ." +
         std::string(magic) + " file)");
  version_ = get_u32(data_ + 4);
  if (version_ != version)
    fail("unsupported ." + std::string(magic) + " version " + std::to_string(version_) + " (expected " +
         std::to_string(version) + ")");
  const uint32_t n = get_u32(data_ + 8);
  uint64_t pos = 12;
  sections_.clear();
  sections_.reserve(std::min<uint32_t>(n, 64));
  for (uint32_t i = 0; i < n; i++) {
    uint64_t left = size_ - pos;
    if (left < 12)
      fail("truncated: header of section record " + std::to_string(i + 1) + " of " + std::to_string(n) +
           " needs 12 bytes, " + std::to_string(left) + " left");
    BinSection s;
    s.id = get_u32(data_ + pos);
    s.size = get_u64(data_ + pos + 4);
    pos += 12;
    left -= 12;
    if (s.size > left)
      fail("truncated: section " + std::to_string(s.id) + " claims " + counted(s.size, "byte") + ", " +
           std::to_string(left) + " left");
    s.offset = pos;
    pos += s.size;
    sections_.push_back(s);
  }
  if (pos != size_)
    fail(counted(size_ - pos, "trailing byte") + " after the last of " + counted(n, "section"));
}

size_t BinFile::count(uint32_t id) const {
  size_t c = 0;
  for (const auto& s : sections_) c += s.id == id;
  return c;
}

std::optional<std::span<const uint8_t>> BinFile::optional_section(uint32_t id, std::string_view what) const {
  const BinSection* found = nullptr;
  for (const auto& s : sections_) {
    if (s.id != id) continue;
    if (found) fail(section_label(id, what) + " appears " + std::to_string(count(id)) + " times");
    found = &s;
  }
  if (!found) return std::nullopt;
  return std::span<const uint8_t>(data_ + found->offset, (size_t)found->size);
}

std::span<const uint8_t> BinFile::section(uint32_t id, std::string_view what) const {
  auto s = optional_section(id, what);
  if (!s) fail(section_label(id, what) + " is missing");
  return *s;
}

// ---- ByteReader -------------------------------------------------------------------------------------

void ByteReader::fail(const std::string& what) const {
  throw Error(ErrorCode::kInvalidFile, ctx_ + ": " + what);
}

std::span<const uint8_t> ByteReader::take(size_t n) {
  if (n > remaining())
    fail("truncated: need " + counted(n, "byte") + " at offset " + std::to_string(pos_) + ", " +
         std::to_string(remaining()) + " left");
  auto s = data_.subspan(pos_, n);
  pos_ += n;
  return s;
}
uint32_t ByteReader::u32() { return get_u32(take(4).data()); }
uint64_t ByteReader::u64() { return get_u64(take(8).data()); }

void ByteReader::expect_end() const {
  if (remaining() != 0)
    fail(std::to_string(remaining()) + " unexpected bytes at the end (offset " + std::to_string(pos_) + ")");
}

// ---- BinFileWriter ----------------------------------------------------------------------------------

BinFileWriter::BinFileWriter(const std::filesystem::path& path, std::string_view magic, uint32_t version) {
  if (magic.size() != 4) throw Error(ErrorCode::kInternal, "container magic must be 4 characters");
  file_.emplace(path);
  put({reinterpret_cast<const uint8_t*>(magic.data()), 4});
  uint8_t b[8] = {};
  for (int i = 0; i < 4; i++) b[i] = (uint8_t)(version >> (8 * i));
  put(b);  // version, then nSections = 0 (patched)
}

BinFileWriter::BinFileWriter(std::string_view magic, uint32_t version) {
  if (magic.size() != 4) throw Error(ErrorCode::kInternal, "container magic must be 4 characters");
  mem_.assign(12, 0);  // magic | version | nSections = 0 (patched)
  std::memcpy(mem_.data(), magic.data(), 4);
  for (int i = 0; i < 4; i++) mem_[4 + i] = (uint8_t)(version >> (8 * i));
}

uint64_t BinFileWriter::pos() const { return file_ ? file_->size() : mem_.size(); }

void BinFileWriter::put(std::span<const uint8_t> bytes) {
  if (file_)
    file_->append(bytes);
  else
    mem_.insert(mem_.end(), bytes.begin(), bytes.end());
}

void BinFileWriter::patch(uint64_t offset, std::span<const uint8_t> bytes) {
  if (file_)
    file_->patch(offset, bytes);
  else
    std::memcpy(mem_.data() + offset, bytes.data(), bytes.size());
}

void BinFileWriter::begin_section(uint32_t id) {
  if (in_section_) throw Error(ErrorCode::kInternal, "begin_section inside an open section");
  uint8_t h[12] = {};
  for (int i = 0; i < 4; i++) h[i] = (uint8_t)(id >> (8 * i));
  size_field_ = pos() + 4;
  put(h);
  payload_start_ = pos();
  in_section_ = true;
  n_sections_++;
}

void BinFileWriter::write(std::span<const uint8_t> bytes) {
  if (!in_section_) throw Error(ErrorCode::kInternal, "write outside a section");
  put(bytes);
}
void BinFileWriter::write_u32(uint32_t v) {
  uint8_t b[4];
  for (int i = 0; i < 4; i++) b[i] = (uint8_t)(v >> (8 * i));
  write(b);
}
void BinFileWriter::write_u64(uint64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
  write(b);
}

void BinFileWriter::end_section() {
  if (!in_section_) throw Error(ErrorCode::kInternal, "end_section without begin_section");
  uint64_t size = pos() - payload_start_;
  uint8_t b[8];
  for (int i = 0; i < 8; i++) b[i] = (uint8_t)(size >> (8 * i));
  patch(size_field_, b);
  in_section_ = false;
}

void BinFileWriter::add_section(uint32_t id, std::span<const uint8_t> payload) {
  begin_section(id);
  write(payload);
  end_section();
}

void BinFileWriter::finish_header() {
  if (in_section_) throw Error(ErrorCode::kInternal, "container finished inside an open section");
  uint8_t b[4];
  for (int i = 0; i < 4; i++) b[i] = (uint8_t)(n_sections_ >> (8 * i));
  patch(8, b);
}

void BinFileWriter::commit() {
  if (!file_) throw Error(ErrorCode::kInternal, "commit on an in-memory BinFileWriter");
  finish_header();
  file_->commit();
}

std::vector<uint8_t> BinFileWriter::take_bytes() {
  if (file_) throw Error(ErrorCode::kInternal, "take_bytes on a file BinFileWriter");
  finish_header();
  return std::move(mem_);
}

}  // namespace cuzk
