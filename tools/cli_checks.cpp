#include "cli_checks.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <filesystem>
#include <optional>

#include "util/error.hpp"

namespace cuzk::cli {

CLI::Validator unsigned64() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        uint64_t v = 0;
        const char *b = text.data(), *e = b + text.size();
        const auto [p, ec] = std::from_chars(b, e, v);
        if (text.empty() || ec != std::errc() || p != e)
          return "\"" + text + "\" is not a whole number from 0 to 18446744073709551615";
        return "";
      },
      "UINT64");
}

namespace {

namespace fs = std::filesystem;

/// The file identity (device, inode) of an existing path (symbolic links followed), nullopt when it
/// does not exist.
std::optional<std::pair<dev_t, ino_t>> identity(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return std::make_pair(st.st_dev, st.st_ino);
}

/// The path with its existing part resolved (symbolic links, "..", "."), made absolute.
fs::path resolved(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? fs::absolute(path).lexically_normal() : p;
}

/// Whether two paths name the same file: the same identity when both exist, else the same resolved path.
bool same_file(const std::string& a, const std::string& b) {
  const auto ia = identity(a), ib = identity(b);
  if (ia && ib) return *ia == *ib;
  return resolved(a) == resolved(b);
}

}  // namespace

void check_outputs(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs) {
  for (size_t i = 0; i < outputs.size(); i++) {
    const std::string& out = outputs[i];
    if (out.empty()) continue;
    const fs::path dir = fs::path(out).parent_path();
    const std::string folder = dir.empty() ? "." : dir.string();
    std::error_code ec;
    if (!fs::is_directory(folder, ec))
      throw Error(ErrorCode::kInvalidArgument, out + ": folder " + folder + " does not exist");
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
      throw Error(ErrorCode::kInvalidArgument, out + ": folder " + folder + " is not writable");
    if (fs::is_directory(out, ec))
      throw Error(ErrorCode::kInvalidArgument, out + ": is a folder, expected a file name");
    for (const auto& in : inputs)
      if (!in.empty() && same_file(in, out))
        throw Error(ErrorCode::kInvalidArgument,
                    "output " + out + " is also an input (" + in + "): refusing to overwrite it");
    for (size_t j = 0; j < i; j++)
      if (!outputs[j].empty() && same_file(outputs[j], out))
        throw Error(ErrorCode::kInvalidArgument,
                    "two outputs are the same file: " + outputs[j] + " and " + out);
  }
}

void make_folder(const std::string& dir) {
  const fs::path p(dir);
  std::error_code ec;
  if (fs::is_directory(p, ec)) return;
  if (fs::exists(p, ec)) throw Error(ErrorCode::kInvalidArgument, dir + ": not a folder");
  const fs::path parent = p.parent_path();
  if (!parent.empty() && !fs::is_directory(parent, ec))
    throw Error(ErrorCode::kInvalidArgument, dir + ": folder " + parent.string() + " does not exist");
  if (!fs::create_directory(p, ec) && ec)
    throw Error(ErrorCode::kIo, dir + ": cannot create the folder: " + ec.message());
}

std::string key_output_path(const std::string& arg, const std::string& stem) {
  if (fs::path(arg).extension() == ".params") return arg;
  try {
    make_folder(arg);
  } catch (const Error& e) {
    throw Error(e.code(), std::string(e.what()) + " (the key goes to FOLDER/" + stem +
                              ".params, or to a file name ending in .params)");
  }
  return (fs::path(arg) / (stem + ".params")).string();
}

void check_vk_inputs(const VerifyingKey& vk, size_t expected, const std::string& vk_path,
                     const std::string& circuit) {
  if (vk.ic.empty() || vk.n_public() != expected)
    throw Error(ErrorCode::kInvalidArgument, vk_path + ": a key for another circuit: expected " +
                                                 std::to_string(expected) + " public inputs (" + circuit +
                                                 "), the key has " +
                                                 std::to_string(vk.ic.empty() ? 0 : vk.n_public()));
}

void write_files_unlocked(const std::vector<FileToWrite>& files) {
  std::vector<AtomicFile> out;
  out.reserve(files.size());
  for (const FileToWrite& f : files) {
    out.emplace_back(f.path);
    out.back().append({reinterpret_cast<const uint8_t*>(f.contents.data()), f.contents.size()});
  }
  // Every file written and fsync'ed before the first rename: a full disk leaves none of them.
  std::vector<AtomicFile*> ptrs;
  for (AtomicFile& f : out) ptrs.push_back(&f);
  commit_together(ptrs, false);
}

}  // namespace cuzk::cli
