// File formats (src/formats): the iden3 container, .r1cs, .wtns, .zkey and snarkjs's JSON files,
// checked against the circom/snarkjs fixtures in tests/data (README.md there) for real values,
// byte-exact round trips, and corrupt inputs that must throw cuzk::Error naming the problem.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "ec/pairing.hpp"
#include "ff/bytes.hpp"
#include "ff/sqrt.hpp"
#include "formats/atomic_file.hpp"
#include "formats/binfile.hpp"
#include "formats/decimal.hpp"
#include "formats/r1cs.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/wtns.hpp"
#include "formats/zkey.hpp"
#include "util/error.hpp"

namespace cuzk::test {
namespace {

namespace fs = std::filesystem;

fs::path data(const std::string& rel) { return fs::path(CUZK_SOURCE_DIR) / "tests" / "data" / rel; }

std::vector<uint8_t> bytes_of(const fs::path& p) { return read_file_bytes(p); }
std::string text_of(const fs::path& p) {
  auto b = bytes_of(p);
  return std::string(b.begin(), b.end());
}

/// A fresh directory under gtest's temp dir, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) / ("cuzk_fmt_" + std::string(info->test_suite_name()) + "_" +
                                             info->name() + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path operator/(const std::string& name) const { return dir_ / name; }
  const fs::path& path() const { return dir_; }

 private:
  fs::path dir_;
};

/// Plain (non-atomic, no fsync) write for test inputs.
void put_file(const fs::path& p, const std::vector<uint8_t>& b) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(b.data()), (std::streamsize)b.size());
}

/// Runs f, expects a cuzk::Error with `code` whose message contains every one of `needles`.
void expect_error(const std::function<void()>& f, ErrorCode code, std::vector<std::string> needles) {
  try {
    f();
    ADD_FAILURE() << "no error thrown (expected one mentioning \"" << needles[0] << "\")";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    for (const auto& n : needles) EXPECT_NE(std::string(e.what()).find(n), std::string::npos) << e.what();
  }
}

Fr fr(uint64_t v) { return Fr::from_u64(v); }

/// Offset of the payload of the (first) section `id` in a container's bytes.
size_t section_offset(const std::vector<uint8_t>& file, uint32_t id) {
  size_t pos = 12;
  for (uint32_t i = 0, n = get_u32(file.data() + 8); i < n; i++) {
    uint32_t sid = get_u32(file.data() + pos);
    uint64_t sz = get_u64(file.data() + pos + 4);
    if (sid == id) return pos + 12;
    pos += 12 + sz;
  }
  throw std::runtime_error("no section " + std::to_string(id));
}

/// Rebuilds a container from `file`, letting `edit` change each section's payload (or drop it by
/// returning false).
std::vector<uint8_t> rebuild(const std::vector<uint8_t>& file, const char* magic, uint32_t version,
                             const std::function<bool(uint32_t, std::vector<uint8_t>&)>& edit) {
  BinFile f = BinFile::from_bytes(file, "in", magic, version);
  BinFileWriter w(magic, version);
  for (const auto& s : f.sections()) {
    std::vector<uint8_t> p(file.begin() + (long)s.offset, file.begin() + (long)(s.offset + s.size));
    if (edit(s.id, p)) w.add_section(s.id, p);
  }
  return w.take_bytes();
}

// ---- decimal ----------------------------------------------------------------------------------------

TEST(FormatDecimal, KnownValues) {
  uint64_t zero[2] = {0, 0}, big[2] = {0, 1};  // 2^64
  EXPECT_EQ(decimal_from_limbs(zero, 2), "0");
  EXPECT_EQ(decimal_from_limbs(big, 2), "18446744073709551616");
  uint64_t l[2];
  ASSERT_TRUE(decimal_to_limbs("18446744073709551616", l, 2));
  EXPECT_EQ(l[0], 0u);
  EXPECT_EQ(l[1], 1u);
  EXPECT_FALSE(decimal_to_limbs("340282366920938463463374607431768211456", l, 2));  // 2^128
  EXPECT_TRUE(decimal_to_limbs("340282366920938463463374607431768211455", l, 2));   // 2^128 − 1
  EXPECT_EQ(l[0], ~0ull);
  EXPECT_FALSE(decimal_to_limbs("", l, 2));
  EXPECT_FALSE(decimal_to_limbs("12a", l, 2));
  EXPECT_FALSE(decimal_to_limbs("-1", l, 2));

  const std::string p =
      "400240955522166739341778982573590415655688281993900788533205813612403165049083786444268762912901566403"
      "7894272559787";
  uint8_t be[48];
  ASSERT_TRUE(decimal_to_be_bytes(p, be));
  EXPECT_EQ(be[0], 0x1a);
  EXPECT_EQ(be[47], 0xab);
  EXPECT_EQ(decimal_from_be_bytes(be), p);
  uint8_t small[2];
  EXPECT_FALSE(decimal_to_be_bytes("65536", small));
  EXPECT_TRUE(decimal_to_be_bytes("65535", small));

  Fp x;
  EXPECT_EQ(from_decimal(p, x), DecimalParse::kNotBelowModulus);
  EXPECT_EQ(from_decimal(p + "0", x), DecimalParse::kNotBelowModulus);
  EXPECT_EQ(from_decimal("12 ", x), DecimalParse::kMalformed);
  std::string pm1 = p;
  pm1.back() = '6';
  ASSERT_EQ(from_decimal(pm1, x), DecimalParse::kOk);
  EXPECT_EQ(x, -Fp::one());
  EXPECT_EQ(to_decimal(x), pm1);
  EXPECT_EQ(to_decimal(fr(33)), "33");
  EXPECT_EQ(to_decimal(Fr::zero()), "0");
  Fr y;
  ASSERT_EQ(from_decimal("0033", y), DecimalParse::kOk);
  EXPECT_EQ(y, fr(33));
}

TEST(FormatDecimal, RandomRoundTrip) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 200; i++) {
    Fr a = Fr::from_u64(rng()) * Fr::from_u64(rng()) * Fr::from_u64(rng()) + Fr::from_u64(rng());
    Fr b;
    ASSERT_EQ(from_decimal(to_decimal(a), b), DecimalParse::kOk);
    EXPECT_EQ(a, b);
  }
}

// ---- the container ----------------------------------------------------------------------------------

TEST(FormatBinFile, WriterAndReaderAgreeInAnyOrder) {
  BinFileWriter w("test", 7);
  std::vector<uint8_t> p1 = {1, 2, 3}, p9(1000, 9), p2;
  w.add_section(9, p9);
  w.add_section(1, p1);
  w.add_section(2, p2);
  auto bytes = w.take_bytes();
  ASSERT_EQ(bytes.size(), 12 + 3 * 12 + 3 + 1000u);
  BinFile f = BinFile::from_bytes(bytes, "mem", "test", 7);
  EXPECT_EQ(f.version(), 7u);
  ASSERT_EQ(f.sections().size(), 3u);
  EXPECT_EQ(f.sections()[0].id, 9u);
  auto s1 = f.section(1);
  EXPECT_EQ(std::vector<uint8_t>(s1.begin(), s1.end()), p1);
  EXPECT_EQ(f.section(9).size(), 1000u);
  EXPECT_EQ(f.section(2).size(), 0u);
  EXPECT_FALSE(f.optional_section(4).has_value());
  expect_error([&] { f.section(4, "IC"); }, ErrorCode::kInvalidFile, {"mem", "section 4 (IC) is missing"});

  BinFileWriter d("test", 7);
  d.add_section(3, p1);
  d.add_section(3, p1);
  BinFile fd = BinFile::from_bytes(d.take_bytes(), "dup", "test", 7);
  EXPECT_EQ(fd.count(3), 2u);
  expect_error([&] { fd.section(3); }, ErrorCode::kInvalidFile, {"dup", "section 3 appears 2 times"});
}

TEST(FormatBinFile, HeaderErrors) {
  BinFileWriter w("zkey", 1);
  w.add_section(1, std::vector<uint8_t>{1, 0, 0, 0});
  auto good = w.take_bytes();
  EXPECT_NO_THROW(BinFile::from_bytes(good, "f", "zkey", 1));
  expect_error([&] { BinFile::from_bytes(good, "f.r1cs", "r1cs", 1); }, ErrorCode::kInvalidFile,
               {"f.r1cs", "wrong magic \"zkey\"", "expected \"r1cs\""});
  expect_error([&] { BinFile::from_bytes(good, "f", "zkey", 2); }, ErrorCode::kInvalidFile,
               {"unsupported .zkey version 1 (expected 2)"});
  auto bin = good;
  bin[0] = 0;
  expect_error([&] { BinFile::from_bytes(bin, "f", "zkey", 1); }, ErrorCode::kInvalidFile,
               {"wrong magic 0x006b6579"});
  auto trailing = good;
  trailing.push_back(0);
  expect_error([&] { BinFile::from_bytes(trailing, "f", "zkey", 1); }, ErrorCode::kInvalidFile,
               {"1 trailing byte after the last of 1 section"});
  auto big = good;
  big[12 + 4] = 200;  // section 1 claims 200 bytes
  expect_error([&] { BinFile::from_bytes(big, "f", "zkey", 1); }, ErrorCode::kInvalidFile,
               {"f: truncated: section 1 claims 200 bytes, 4 left"});
  expect_error([&] { BinFile::from_bytes({}, "f", "zkey", 1); }, ErrorCode::kInvalidFile,
               {"truncated: file has 0 bytes"});
  auto huge = good;
  huge[12 + 11] = 0xff;  // size ≈ 2^63: must not overflow the bounds check
  expect_error([&] { BinFile::from_bytes(huge, "f", "zkey", 1); }, ErrorCode::kInvalidFile,
               {"truncated: section 1 claims"});
}

TEST(FormatBinFile, MissingFileIsIoError) {
  expect_error([] { BinFile::open("/nonexistent/x.zkey", "zkey", 1); }, ErrorCode::kIo,
               {"/nonexistent/x.zkey"});
  expect_error([] { read_zkey("/nonexistent/x.zkey"); }, ErrorCode::kIo, {"cannot open"});
}

TEST(FormatBinFile, StreamingWriterIsAtomic) {
  TempDir tmp;
  const fs::path p = tmp / "big.bin";
  // A section larger than the 1 MiB buffer exercises the patch-on-disk path.
  std::vector<uint8_t> payload(3 << 20);
  for (size_t i = 0; i < payload.size(); i++) payload[i] = (uint8_t)(i * 7 + (i >> 12));
  {
    BinFileWriter w(p, "test", 3);
    w.begin_section(5);
    w.write({payload.data(), 1000});
    w.write({payload.data() + 1000, payload.size() - 1000});
    w.end_section();
    w.add_section(6, std::vector<uint8_t>{42});
    EXPECT_FALSE(fs::exists(p));  // nothing visible before commit
    w.commit();
  }
  BinFile f = BinFile::open(p, "test", 3);
  auto s = f.section(5);
  EXPECT_TRUE(std::equal(s.begin(), s.end(), payload.begin(), payload.end()));
  EXPECT_EQ(f.section(6)[0], 42);
  // An abandoned writer leaves neither the target nor a temporary behind.
  {
    BinFileWriter w(tmp / "abandoned.bin", "test", 3);
    w.add_section(1, payload);
  }
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(tmp.path())) {
    n++;
    EXPECT_EQ(e.path().filename(), "big.bin");
  }
  EXPECT_EQ(n, 1u);
  // write_file_atomic replaces an existing file.
  write_file_atomic(p, std::string("hello"));
  EXPECT_EQ(text_of(p), "hello");
  expect_error([&] { write_file_atomic(tmp / "no/such/dir/f", std::string("x")); }, ErrorCode::kIo,
               {"no/such/dir/f"});
}

TEST(FormatAtomicFile, SetOfFilesIsWrittenTogether) {
  TempDir tmp;
  const fs::path a = tmp / "a.json", b = tmp / "sub" / "b.json";
  fs::create_directory(tmp / "sub");
  write_files_atomically({{a, "first a"}, {b, "first b"}});
  EXPECT_EQ(text_of(a), "first a");
  EXPECT_EQ(text_of(b), "first b");
  // Replaces existing files; the same folder under two spellings is locked once (no self-deadlock).
  write_files_atomically({{a, "second a"}, {tmp / "sub" / ".." / "c.json", std::string("\0\1", 2)}});
  EXPECT_EQ(text_of(a), "second a");
  EXPECT_EQ(text_of(tmp / "c.json"), std::string("\0\1", 2));
  // A file that cannot be created fails the whole set before any rename: nothing changes.
  const std::vector<FileToWrite> third = {{a, "third a"}, {tmp / "no" / "b.json", "x"}};
  expect_error([&] { write_files_atomically(third); }, ErrorCode::kIo, {"no/b.json"});
  EXPECT_EQ(text_of(a), "second a");
  // Streamed files commit together too; only the destinations and the lock files remain.
  {
    AtomicFile x(tmp / "x.bin"), y(tmp / "sub" / "y.bin");
    x.append_u32(7);
    y.append_u64(9);
    AtomicFile* both[] = {&x, &y};
    commit_together(both);
    EXPECT_THROW(x.commit(), Error);
  }
  EXPECT_EQ(fs::file_size(tmp / "x.bin"), 4u);
  EXPECT_EQ(fs::file_size(tmp / "sub" / "y.bin"), 8u);
  for (const fs::path& dir : {tmp.path(), tmp / "sub"})
    for (const auto& e : fs::directory_iterator(dir))
      EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
}

// ---- .r1cs ------------------------------------------------------------------------------------------

TEST(FormatR1cs, TinyMultiplier) {
  R1cs r = read_r1cs(data("tiny/mul.r1cs"));
  EXPECT_EQ(r.n_wires, 4u);
  EXPECT_EQ(r.n_pub_out, 1u);
  EXPECT_EQ(r.n_pub_in, 0u);
  EXPECT_EQ(r.n_prv_in, 2u);
  EXPECT_EQ(r.n_public(), 1u);
  EXPECT_EQ(r.n_constraints, 1u);
  ASSERT_EQ(r.a.rows(), 1u);
  // mul_constraints.json: [{"2": -1}, {"3": 1}, {"1": -1}]  (−a · b = −c)
  ASSERT_EQ(r.a.nnz(), 1u);
  EXPECT_EQ(r.a.cols[0], 2u);
  EXPECT_EQ(r.a.vals[0], -Fr::one());
  ASSERT_EQ(r.b.nnz(), 1u);
  EXPECT_EQ(r.b.cols[0], 3u);
  EXPECT_EQ(r.b.vals[0], Fr::one());
  ASSERT_EQ(r.c.nnz(), 1u);
  EXPECT_EQ(r.c.cols[0], 1u);
  EXPECT_EQ(r.c.vals[0], -Fr::one());
  EXPECT_EQ(r.wire_to_label.size(), 4u);

  auto w = read_wtns(data("tiny/mul.wtns"));
  EXPECT_EQ(first_unsatisfied(r, w), std::nullopt);
  w[1] = fr(34);
  EXPECT_EQ(first_unsatisfied(r, w), std::optional<size_t>(0));
  w.pop_back();
  expect_error([&] { first_unsatisfied(r, w); }, ErrorCode::kInvalidArgument, {"3 values", "4 wires"});
}

TEST(FormatR1cs, MimcSatisfiedAndFirstBrokenConstraint) {
  R1cs r = read_r1cs(data("mimc/mimc_test.r1cs"));
  EXPECT_EQ(r.n_constraints, 365u);
  EXPECT_EQ(r.n_wires, 369u);
  EXPECT_EQ(r.n_public(), 3u);
  EXPECT_EQ(r.a.rows(), 365u);
  auto w = read_wtns(data("mimc/mimc.wtns"));
  ASSERT_EQ(w.size(), 369u);
  EXPECT_EQ(w[0], Fr::one());
  EXPECT_EQ(first_unsatisfied(r, w), std::nullopt);
  // public.json holds w[1..3]
  auto pub = read_public_json(data("mimc/public.json"));
  ASSERT_EQ(pub.size(), 3u);
  for (int i = 0; i < 3; i++) EXPECT_EQ(pub[i], w[1 + i]);

  // Changing wire k breaks the first constraint that mentions it (found here by scanning the matrices).
  for (uint32_t k : {4u, 100u, 200u, 368u}) {
    size_t expect = SIZE_MAX;
    for (const SparseMatrix* m : {&r.a, &r.b, &r.c})
      for (size_t j = 0; j < m->rows(); j++)
        for (uint64_t t = m->row_offsets[j]; t < m->row_offsets[j + 1]; t++)
          if (m->cols[t] == k && !m->vals[t].is_zero()) expect = std::min(expect, j);
    ASSERT_NE(expect, SIZE_MAX) << "wire " << k << " is in no constraint";
    auto bad = w;
    bad[k] += Fr::one();
    EXPECT_EQ(first_unsatisfied(r, bad), std::optional<size_t>(expect)) << "wire " << k;
  }
}

TEST(FormatR1cs, BadInputs) {
  TempDir tmp;
  const auto good = bytes_of(data("tiny/mul.r1cs"));
  const size_t h = section_offset(good, 1);
  auto write_and_read = [&](const std::vector<uint8_t>& b) {
    put_file(tmp / "x.r1cs", b);
    read_r1cs(tmp / "x.r1cs");
  };
  // bn128's scalar field prime in place of BLS12-381's r
  auto bn = good;
  uint8_t bn_r[32];
  ASSERT_TRUE(decimal_to_be_bytes(
      "21888242871839275222246405745257275088548364400416034343698204186575808495617", bn_r));
  for (int i = 0; i < 32; i++) bn[h + 4 + i] = bn_r[31 - i];
  expect_error([&] { write_and_read(bn); }, ErrorCode::kInvalidFile,
               {"x.r1cs: section 1 (header)", "bn128 scalar field prime r", "expected the BLS12-381"});
  // a wire index beyond nWires
  auto wire = good;
  const size_t c = section_offset(good, 2);
  wire[c + 4] = 9;  // constraint 0, A, term 0
  expect_error([&] { write_and_read(wire); }, ErrorCode::kInvalidFile,
               {"section 2 (constraints)", "constraint 0 A term 0: wire 9 is not below nWires = 4"});
  // a coefficient ≥ r
  auto coef = good;
  for (int i = 0; i < 32; i++) coef[c + 8 + i] = 0xff;
  expect_error([&] { write_and_read(coef); }, ErrorCode::kInvalidFile,
               {"coefficient is not below the Fr modulus r"});
  // a term count that overruns the section
  auto terms = good;
  terms[c] = 5;
  expect_error([&] { write_and_read(terms); }, ErrorCode::kInvalidFile, {"constraint 0 A claims 5 terms"});
  // header counts inconsistent: more public signals than wires
  auto counts = good;
  counts[h + 4 + 32 + 4 + 4] = 7;  // nPubIn = 7 > nWires
  expect_error([&] { write_and_read(counts); }, ErrorCode::kInvalidFile,
               {"1 + nPubOut + nPubIn = 9 exceeds nWires = 4"});
  // but private inputs without a wire are fine: circom counts unused ones (snarkjs accepts them)
  auto prv = good;
  prv[h + 4 + 32 + 4 + 8] = 7;  // nPrvIn = 7
  put_file(tmp / "x.r1cs", prv);
  EXPECT_EQ(read_r1cs(tmp / "x.r1cs").n_prv_in, 7u);
  // missing constraint section
  auto no2 = rebuild(good, "r1cs", 1, [](uint32_t id, std::vector<uint8_t>&) { return id != 2; });
  expect_error([&] { write_and_read(no2); }, ErrorCode::kInvalidFile, {"section 2 (constraints) is missing"});
  // label map of the wrong size
  auto s3 = rebuild(good, "r1cs", 1, [](uint32_t id, std::vector<uint8_t>& p) {
    if (id == 3) p.resize(24);
    return true;
  });
  expect_error([&] { write_and_read(s3); }, ErrorCode::kInvalidFile,
               {"section 3 (wire to label map)", "expected nWires"});
  // wrong magic / version
  auto magic = good;
  magic[0] = 'x';
  expect_error([&] { write_and_read(magic); }, ErrorCode::kInvalidFile, {"wrong magic \"x1cs\""});
  auto ver = good;
  ver[4] = 2;
  expect_error([&] { write_and_read(ver); }, ErrorCode::kInvalidFile, {"unsupported .r1cs version 2"});
}

TEST(FormatR1cs, EveryPrefixThrows) {
  TempDir tmp;
  const auto good = bytes_of(data("tiny/mul.r1cs"));
  for (size_t n = 0; n < good.size(); n++) {
    put_file(tmp / "p.r1cs", std::vector<uint8_t>(good.begin(), good.begin() + (long)n));
    expect_error([&] { read_r1cs(tmp / "p.r1cs"); }, ErrorCode::kInvalidFile, {"truncated"});
  }
}

// ---- .wtns ------------------------------------------------------------------------------------------

TEST(FormatWtns, FixturesAndByteExactRoundTrip) {
  auto w = read_wtns(data("tiny/mul.wtns"));
  ASSERT_EQ(w.size(), 4u);
  EXPECT_EQ(w[0], fr(1));
  EXPECT_EQ(w[1], fr(33));
  EXPECT_EQ(w[2], fr(3));
  EXPECT_EQ(w[3], fr(11));
  EXPECT_EQ(wtns_bytes(w), bytes_of(data("tiny/mul.wtns")));

  auto m = read_wtns(data("mimc/mimc.wtns"));
  EXPECT_EQ(m.size(), 369u);
  EXPECT_EQ(wtns_bytes(m), bytes_of(data("mimc/mimc.wtns")));

  TempDir tmp;
  std::vector<Fr> v = {Fr::one(), -Fr::one(), fr(0), fr(123456789)};
  write_wtns(tmp / "v.wtns", v);
  EXPECT_EQ(read_wtns(tmp / "v.wtns"), v);
  write_wtns(tmp / "e.wtns", {});
  EXPECT_TRUE(read_wtns(tmp / "e.wtns").empty());
}

TEST(FormatWtns, BadInputs) {
  TempDir tmp;
  const auto good = bytes_of(data("tiny/mul.wtns"));
  auto write_and_read = [&](const std::vector<uint8_t>& b) {
    put_file(tmp / "x.wtns", b);
    read_wtns(tmp / "x.wtns");
  };
  const size_t v = section_offset(good, 2), h = section_offset(good, 1);
  // value 2 replaced by r itself (non-canonical)
  auto nc = good;
  for (int i = 0; i < 32; i++) nc[v + 64 + i] = (uint8_t)(FrParams::mod(i / 8) >> (8 * (i % 8)));
  expect_error([&] { write_and_read(nc); }, ErrorCode::kInvalidFile,
               {"x.wtns", "witness value 2 is not below the Fr modulus r"});
  // bn128 prime
  auto bn = good;
  uint8_t bn_r[32];
  ASSERT_TRUE(decimal_to_be_bytes(
      "21888242871839275222246405745257275088548364400416034343698204186575808495617", bn_r));
  for (int i = 0; i < 32; i++) bn[h + 4 + i] = bn_r[31 - i];
  expect_error([&] { write_and_read(bn); }, ErrorCode::kInvalidFile,
               {"prime is the bn128 scalar field prime r"});
  // nWitness disagrees with the values section
  auto cnt = good;
  cnt[h + 36] = 5;
  expect_error([&] { write_and_read(cnt); }, ErrorCode::kInvalidFile,
               {"section 2 (witness values) has 128 bytes, expected nWitness·32 = 160"});
  // an .r1cs is not a witness; a v1 witness is not supported
  expect_error([&] { read_wtns(data("tiny/mul.r1cs")); }, ErrorCode::kInvalidFile, {"wrong magic \"r1cs\""});
  auto v1 = good;
  v1[4] = 1;
  expect_error([&] { write_and_read(v1); }, ErrorCode::kInvalidFile,
               {"unsupported .wtns version 1 (expected 2)"});
}

TEST(FormatWtns, EveryPrefixThrows) {
  TempDir tmp;
  const auto good = bytes_of(data("tiny/mul.wtns"));
  for (size_t n = 0; n < good.size(); n++) {
    put_file(tmp / "p.wtns", std::vector<uint8_t>(good.begin(), good.begin() + (long)n));
    expect_error([&] { read_wtns(tmp / "p.wtns"); }, ErrorCode::kInvalidFile, {"truncated"});
  }
}

// ---- .zkey ------------------------------------------------------------------------------------------

/// Every A/B term of the r1cs appears in section 4 with the same value, plus the nPublic + 1
/// public-input rows (A, constraint nConstraints + i, signal i, value 1) that `groth16 setup` appends.
void expect_coefs_match_r1cs(const Zkey& zk, const R1cs& r) {
  size_t expected = r.a.nnz() + r.b.nnz() + r.n_public() + 1;
  EXPECT_EQ(zk.coefs.size(), expected);
  std::vector<ZkeyCoef> want;
  for (uint32_t m = 0; m < 2; m++) {
    const SparseMatrix& s = m == 0 ? r.a : r.b;
    for (uint32_t j = 0; j < s.rows(); j++)
      for (uint64_t t = s.row_offsets[j]; t < s.row_offsets[j + 1]; t++)
        want.push_back({m, j, s.cols[t], s.vals[t]});
  }
  for (uint32_t i = 0; i <= r.n_public(); i++) want.push_back({0, r.n_constraints + i, i, Fr::one()});
  auto key = [](const ZkeyCoef& c) { return std::tuple(c.matrix, c.constraint, c.signal); };
  auto by_key = [&](const ZkeyCoef& x, const ZkeyCoef& y) { return key(x) < key(y); };
  auto have = zk.coefs;
  std::sort(have.begin(), have.end(), by_key);
  std::sort(want.begin(), want.end(), by_key);
  EXPECT_TRUE(have == want);
}

TEST(FormatZkey, TinySetupOrderAndFinal) {
  const auto setup = read_zkey(data("tiny/mul_0000.zkey"));
  const auto final = read_zkey(data("tiny/mul_final.zkey"));
  // sections of the setup file really are out of order
  BinFile f = BinFile::open(data("tiny/mul_0000.zkey"), "zkey", 1);
  std::vector<uint32_t> order;
  for (const auto& s : f.sections()) order.push_back(s.id);
  EXPECT_EQ(order, (std::vector<uint32_t>{1, 2, 4, 3, 9, 8, 5, 6, 7, 10}));

  for (const Zkey* z : {&setup, &final}) {
    EXPECT_EQ(z->n_vars, 4u);
    EXPECT_EQ(z->n_public, 1u);
    EXPECT_EQ(z->domain_size, 4u);
    EXPECT_EQ(z->power(), 2u);
    EXPECT_EQ(z->ic.size(), 2u);
    EXPECT_EQ(z->a.size(), 4u);
    EXPECT_EQ(z->b2.size(), 4u);
    EXPECT_EQ(z->c.size(), 2u);
    EXPECT_EQ(z->h.size(), 4u);
    expect_coefs_match_r1cs(*z, read_r1cs(data("tiny/mul.r1cs")));
  }
  // the fresh setup has δ = 1; the contributions changed δ and the points that carry 1/δ, nothing else
  EXPECT_EQ(setup.delta1, Curve<Fp>::generator());
  EXPECT_EQ(setup.delta2, Curve<Fp2>::generator());
  EXPECT_NE(final.delta1, setup.delta1);
  EXPECT_EQ(final.alpha1, setup.alpha1);
  EXPECT_EQ(final.ic, setup.ic);
  EXPECT_EQ(final.a, setup.a);
  EXPECT_EQ(final.b2, setup.b2);
  EXPECT_NE(final.h, setup.h);
  EXPECT_EQ(setup.n_contributions(), 0u);
  EXPECT_EQ(final.n_contributions(), 2u);  // one contribution + the beacon
  EXPECT_EQ(final.mpc_params.size(), 1218u);
}

TEST(FormatZkey, MimcCounts) {
  const auto zk = read_zkey(data("mimc/mimc_dev.zkey"));
  EXPECT_EQ(zk.n_vars, 369u);
  EXPECT_EQ(zk.n_public, 3u);
  EXPECT_EQ(zk.domain_size, 512u);
  EXPECT_EQ(zk.c.size(), 369u - 4u);
  EXPECT_EQ(zk.h.size(), 512u);
  expect_coefs_match_r1cs(zk, read_r1cs(data("mimc/mimc_test.r1cs")));
  // ~half of the A points are ∞ in real circuits (docs/REFERENCE.md §6); here at least some are
  EXPECT_GT(std::count_if(zk.a.begin(), zk.a.end(), [](const G1Affine& p) { return p.is_inf(); }), 0);
  // the same circuit through `snarkjs groth16 setup` has the same shape and coefficients
  const auto sj = read_zkey(data("mimc/mimc_snarkjs_0000.zkey"));
  EXPECT_EQ(sj.coefs, zk.coefs);
  EXPECT_EQ(sj.n_vars, zk.n_vars);
}

TEST(FormatZkey, SubgroupChecksOnEverything) {
  ZkeyReadOptions all{SubgroupCheck::kYes, SubgroupCheck::kYes};
  const auto a = read_zkey(data("tiny/mul_final.zkey"), all);
  EXPECT_TRUE(a == read_zkey(data("tiny/mul_final.zkey")));
}

TEST(FormatZkey, RoundTrips) {
  TempDir tmp;
  // sections 1..10 in order: written back byte for byte
  const auto final_bytes = bytes_of(data("tiny/mul_final.zkey"));
  const auto final = read_zkey(data("tiny/mul_final.zkey"));
  EXPECT_EQ(zkey_bytes(final), final_bytes);
  // setup order: rewritten in order, reads back equal
  for (const char* f : {"tiny/mul_0000.zkey", "mimc/mimc_dev.zkey"}) {
    const auto zk = read_zkey(data(f));
    write_zkey(tmp / "out.zkey", zk);
    const auto back = read_zkey(tmp / "out.zkey");
    EXPECT_TRUE(back == zk) << f;
    EXPECT_EQ(fs::file_size(tmp / "out.zkey"), fs::file_size(data(f))) << f;
  }
  // no section 10 on input: an empty contributions record (64-byte csHash + 0) on output
  auto no10 = rebuild(final_bytes, "zkey", 1, [](uint32_t id, std::vector<uint8_t>&) { return id != 10; });
  auto zk = read_zkey(BinFile::from_bytes(no10, "no10", "zkey", 1));
  EXPECT_TRUE(zk.mpc_params.empty());
  auto out = zkey_bytes(zk);
  BinFile f = BinFile::from_bytes(out, "out", "zkey", 1);
  auto s10 = f.section(10);
  EXPECT_EQ(s10.size(), 68u);
  EXPECT_TRUE(std::all_of(s10.begin(), s10.end(), [](uint8_t b) { return b == 0; }));
  // shape errors are the caller's
  zk.h.pop_back();
  expect_error([&] { zkey_bytes(zk); }, ErrorCode::kInvalidArgument, {"H has 3 points, expected 4"});
}

TEST(FormatZkey, BadInputs) {
  TempDir tmp;
  const auto good = bytes_of(data("tiny/mul_final.zkey"));
  auto write_and_read = [&](const std::vector<uint8_t>& b) {
    put_file(tmp / "x.zkey", b);
    read_zkey(tmp / "x.zkey");
  };
  const size_t h = section_offset(good, 2);
  // q = bn128's base field prime (n8q stays 48: the high bytes are zero)
  auto bn = good;
  uint8_t q[48];
  ASSERT_TRUE(decimal_to_be_bytes(
      "21888242871839275222246405745257275088696311157297823662689037894645226208583", q));
  for (int i = 0; i < 48; i++) bn[h + 4 + i] = q[47 - i];
  expect_error(
      [&] { write_and_read(bn); }, ErrorCode::kInvalidFile,
      {"x.zkey: section 2 (groth16 header)", "q is the bn128 base field prime q", "expected the BLS12-381"});
  // r swapped for p's low bytes → an unknown prime
  auto rr = good;
  rr[h + 4 + 48 + 4] ^= 2;
  expect_error([&] { write_and_read(rr); }, ErrorCode::kInvalidFile, {"r is the unknown prime"});
  // protocol 2 = plonk
  auto plonk = good;
  plonk[section_offset(good, 1)] = 2;
  expect_error([&] { write_and_read(plonk); }, ErrorCode::kInvalidFile,
               {"section 1 (protocol)", "protocol 2 (plonk) is not groth16"});
  // domainSize not a power of two
  auto dom = good;
  dom[h + 4 + 48 + 4 + 32 + 8] = 3;
  expect_error([&] { write_and_read(dom); }, ErrorCode::kInvalidFile, {"domainSize 3 is not a power of two"});
  // nPublic too large
  auto np = good;
  np[h + 4 + 48 + 4 + 32 + 4] = 4;
  expect_error([&] { write_and_read(np); }, ErrorCode::kInvalidFile, {"nPublic + 1 = 5 exceeds nVars = 4"});
  // an off-curve point in the A section: bump y of the first finite A point
  const auto zk = read_zkey(data("tiny/mul_final.zkey"));
  size_t k = 0;
  while (zk.a[k].is_inf()) k++;
  auto off = good;
  off[section_offset(good, 5) + 96 * k + 48] ^= 1;
  expect_error([&] { write_and_read(off); }, ErrorCode::kInvalidFile,
               {"section 5 (A) point " + std::to_string(k), "not on the curve"});
  // an off-curve header point
  auto hoff = good;
  hoff[h + 4 + 48 + 4 + 32 + 12 + 48] ^= 1;  // α₁.y
  expect_error([&] { write_and_read(hoff); }, ErrorCode::kInvalidFile, {"alpha_1", "not on the curve"});
  // a coordinate ≥ p
  auto big = good;
  std::fill(big.begin() + (long)(section_offset(good, 9)), big.begin() + (long)(section_offset(good, 9) + 48),
            0xff);
  expect_error([&] { write_and_read(big); }, ErrorCode::kInvalidFile,
               {"section 9 (H) point 0", "not below the field modulus p"});
  // section size disagrees with the counts: H one point short
  auto shortH = rebuild(good, "zkey", 1, [](uint32_t id, std::vector<uint8_t>& p) {
    if (id == 9) p.resize(p.size() - 96);
    return true;
  });
  expect_error([&] { write_and_read(shortH); }, ErrorCode::kInvalidFile,
               {"section 9 (H) has 288 bytes, expected domainSize = 4 points of 96 bytes = 384"});
  auto longIC = rebuild(good, "zkey", 1, [](uint32_t id, std::vector<uint8_t>& p) {
    if (id == 3) p.resize(p.size() + 96);
    return true;
  });
  expect_error([&] { write_and_read(longIC); }, ErrorCode::kInvalidFile, {"section 3 (IC) has 288 bytes"});
  auto coefs = rebuild(good, "zkey", 1, [](uint32_t id, std::vector<uint8_t>& p) {
    if (id == 4) p.push_back(0);
    return true;
  });
  expect_error([&] { write_and_read(coefs); }, ErrorCode::kInvalidFile,
               {"section 4 (coefficients): has 181 bytes"});
  // coefficient fields out of range
  const size_t c4 = section_offset(good, 4);
  auto mtx = good;
  mtx[c4 + 4] = 2;
  expect_error([&] { write_and_read(mtx); }, ErrorCode::kInvalidFile, {"coefficient 0: matrix 2"});
  auto sig = good;
  sig[c4 + 4 + 8] = 4;
  expect_error([&] { write_and_read(sig); }, ErrorCode::kInvalidFile,
               {"coefficient 0: signal 4 is not below nVars 4"});
  auto row = good;
  row[c4 + 4 + 4] = 4;
  expect_error([&] { write_and_read(row); }, ErrorCode::kInvalidFile,
               {"coefficient 0: constraint 4 is not below domainSize 4"});
  auto val = good;
  std::fill(val.begin() + (long)(c4 + 4 + 12), val.begin() + (long)(c4 + 4 + 44), 0xff);
  expect_error([&] { write_and_read(val); }, ErrorCode::kInvalidFile,
               {"coefficient 0: value is not below the Fr modulus r"});
  // a duplicated and a missing section
  std::vector<uint8_t> dup;
  {
    BinFile f = BinFile::from_bytes(good, "g", "zkey", 1);
    BinFileWriter w("zkey", 1);
    for (const auto& s : f.sections()) {
      w.add_section(s.id, {good.data() + s.offset, (size_t)s.size});
      if (s.id == 8) w.add_section(s.id, {good.data() + s.offset, (size_t)s.size});
    }
    dup = w.take_bytes();
  }
  expect_error([&] { write_and_read(dup); }, ErrorCode::kInvalidFile, {"section 8 (C) appears 2 times"});
  auto no7 = rebuild(good, "zkey", 1, [](uint32_t id, std::vector<uint8_t>&) { return id != 7; });
  expect_error([&] { write_and_read(no7); }, ErrorCode::kInvalidFile, {"section 7 (B2) is missing"});
  // wrong magic, wrong version
  expect_error([&] { read_zkey(data("tiny/mul.wtns")); }, ErrorCode::kInvalidFile, {"wrong magic \"wtns\""});
  auto ver = good;
  ver[4] = 2;
  expect_error([&] { write_and_read(ver); }, ErrorCode::kInvalidFile,
               {"unsupported .zkey version 2 (expected 1)"});
}

TEST(FormatZkey, NotInSubgroupWhenAsked) {
  // A point on E(Fp) outside the order-r subgroup: x = 0 gives y² = 4, y = 2, and (0, 2) has order 3.
  auto good = bytes_of(data("tiny/mul_final.zkey"));
  G1Affine t{Fp::zero(), Fp::from_u64(2)};
  ASSERT_TRUE(is_on_curve(t));
  g1_to_snarkjs(t, good.data() + section_offset(good, 6));  // B1[0]
  EXPECT_NO_THROW(read_zkey(BinFile::from_bytes(good, "t", "zkey", 1)));
  expect_error(
      [&] {
        read_zkey(BinFile::from_bytes(good, "t", "zkey", 1), {SubgroupCheck::kYes, SubgroupCheck::kYes});
      },
      ErrorCode::kInvalidFile, {"section 6 (B1) point 0", "not in the prime-order subgroup"});
  auto hdr = bytes_of(data("tiny/mul_final.zkey"));
  g1_to_snarkjs(t, hdr.data() + section_offset(hdr, 2) + 4 + 48 + 4 + 32 + 12 + 96);  // β₁
  expect_error([&] { read_zkey(BinFile::from_bytes(hdr, "t", "zkey", 1)); }, ErrorCode::kInvalidFile,
               {"beta_1", "not in the prime-order subgroup"});
}

TEST(FormatZkey, EveryPrefixThrows) {
  // Every prefix in memory (an exact-size heap copy, so ASan would catch an over-read), and a sample of
  // them through real files and the mmap path.
  TempDir tmp;
  const auto good = bytes_of(data("tiny/mul_final.zkey"));
  for (size_t n = 0; n < good.size(); n++) {
    std::vector<uint8_t> prefix(good.begin(), good.begin() + (long)n);
    if (n % 37 == 0 || n < 40) {
      put_file(tmp / "p.zkey", prefix);
      expect_error([&] { read_zkey(tmp / "p.zkey"); }, ErrorCode::kInvalidFile, {"p.zkey: truncated"});
    }
    expect_error([&] { read_zkey(BinFile::from_bytes(std::move(prefix), "mem.zkey", "zkey", 1)); },
                 ErrorCode::kInvalidFile, {"mem.zkey: truncated"});
  }
}

TEST(FormatZkey, CorruptedBytesNeverCrash) {
  // Random byte flips anywhere in the file: either a valid key or a cuzk::Error, never a crash.
  const auto good = bytes_of(data("tiny/mul_0000.zkey"));
  std::mt19937_64 rng(11);
  int accepted = 0;
  for (int it = 0; it < 2000; it++) {
    auto b = good;
    for (int k = 0; k < 1 + (int)(rng() % 3); k++) b[rng() % b.size()] ^= (uint8_t)(1u << (rng() % 8));
    try {
      read_zkey(BinFile::from_bytes(std::move(b), "fuzz", "zkey", 1),
                {SubgroupCheck::kNo, SubgroupCheck::kNo});
      accepted++;
    } catch (const Error& e) {
      EXPECT_TRUE(e.code() == ErrorCode::kInvalidFile) << e.what();
    }
  }
  EXPECT_LT(accepted, 2000);
}

// ---- snarkjs JSON -----------------------------------------------------------------------------------

TEST(FormatJson, ProofsAreByteIdentical) {
  for (const char* f : {"tiny/proof.json", "tiny/ref_proof2.json", "mimc/snarkjs_patched_proof_r11_s13.json",
                        "mimc/snarkjs_proof_random.json", "poseidon_chain/pc16_proof.json",
                        "poseidon_chain/pc20_proof.json"}) {
    const std::string text = text_of(data(f));
    const Groth16Proof p = proof_from_json(text, f);
    EXPECT_TRUE(is_on_curve(p.a) && is_on_curve(p.b) && is_on_curve(p.c)) << f;
    EXPECT_EQ(proof_to_json(p), text) << f;
  }
  TempDir tmp;
  const auto p = read_proof_json(data("tiny/proof.json"));
  write_proof_json(tmp / "p.json", p);
  EXPECT_EQ(text_of(tmp / "p.json"), text_of(data("tiny/proof.json")));
  EXPECT_EQ(read_proof_json(tmp / "p.json"), p);
}

TEST(FormatJson, PublicAreByteIdentical) {
  for (const char* f : {"tiny/public.json", "tiny/ref_public2.json", "mimc/public.json",
                        "poseidon_chain/pc16_public.json", "poseidon_chain/pc18_public.json"}) {
    const std::string text = text_of(data(f));
    EXPECT_EQ(public_to_json(public_from_json(text, f)), text) << f;
  }
  EXPECT_EQ(read_public_json(data("tiny/public.json")), std::vector<Fr>{fr(33)});
  EXPECT_EQ(public_to_json({}), "[]");
}

TEST(FormatJson, VerificationKeysAreByteIdenticalAndMatchTheZkeys) {
  for (const char* f : {"tiny/verification_key.json", "mimc/mimc_dev_vk.json",
                        "poseidon_chain/pc16_dev_vk.json", "poseidon_chain/pc20_dev_vk.json"}) {
    const std::string text = text_of(data(f));
    const auto v = vk_from_json(text, f);
    EXPECT_EQ(vk_to_json(v.vk, v.alphabeta_12), text) << f;
    // snarkjs's vk_alphabeta_12 is exactly cuzk::pairing(α₁, β₂) (noble's convention, the cube of the
    // textbook ate pairing: ffjavascript's final exponentiation uses the same hard-part chain)
    EXPECT_EQ(pairing(v.vk.alpha1, v.vk.beta2), v.alphabeta_12) << f;
  }
  // from the zkeys, with alphabeta computed here: the files snarkjs exported
  const std::pair<const char*, const char*> pairs[] = {{"tiny/mul_final.zkey", "tiny/verification_key.json"},
                                                       {"mimc/mimc_dev.zkey", "mimc/mimc_dev_vk.json"}};
  for (auto [z, j] : pairs) {
    const VerifyingKey vk = verifying_key(read_zkey(data(z)));
    EXPECT_EQ(vk_to_json(vk, pairing(vk.alpha1, vk.beta2)), text_of(data(j))) << z;
    TempDir tmp;
    write_vk_json(tmp / "vk.json", vk, pairing(vk.alpha1, vk.beta2));
    EXPECT_EQ(read_vk_json(tmp / "vk.json").vk, vk);
  }
}

TEST(FormatJson, FixtureProofsVerify) {
  // e(−πA, πB) · e(vk_x, γ₂) · e(πC, δ₂) · e(α₁, β₂) = 1 with vk_x = IC₀ + Σ sᵢ·ICᵢ: the parsed values are
  // the right ones (an end-to-end check of decimal parsing, coordinate order and the G2 (c0, c1) layout).
  const std::tuple<const char*, const char*, const char*> cases[] = {
      {"tiny/verification_key.json", "tiny/proof.json", "tiny/public.json"},
      {"tiny/verification_key.json", "tiny/ref_proof2.json", "tiny/ref_public2.json"},
      {"mimc/mimc_dev_vk.json", "mimc/snarkjs_patched_proof_r11_s13.json", "mimc/public.json"}};
  for (auto [vkf, pf, pubf] : cases) {
    const auto v = read_vk_json(data(vkf));
    const auto p = read_proof_json(data(pf));
    const auto pub = read_public_json(data(pubf));
    ASSERT_EQ(pub.size(), v.vk.n_public());
    G1 x = G1::from_affine(v.vk.ic[0]);
    for (size_t i = 0; i < pub.size(); i++) x += scalar_mul(v.vk.ic[i + 1], pub[i]);
    EXPECT_TRUE(pairing_product_is_one(
        {{-p.a, p.b}, {x.to_affine(), v.vk.gamma2}, {p.c, v.vk.delta2}, {v.vk.alpha1, v.vk.beta2}}))
        << pf;
    auto wrong = pub;
    wrong[0] += Fr::one();
    G1 y = G1::from_affine(v.vk.ic[0]);
    for (size_t i = 0; i < wrong.size(); i++) y += scalar_mul(v.vk.ic[i + 1], wrong[i]);
    EXPECT_FALSE(pairing_product_is_one(
        {{-p.a, p.b}, {y.to_affine(), v.vk.gamma2}, {p.c, v.vk.delta2}, {v.vk.alpha1, v.vk.beta2}}));
  }
}

TEST(FormatJson, InfinityEncoding) {
  Groth16Proof p{G1Affine::infinity(), G2Affine::infinity(), Curve<Fp>::generator()};
  std::string t = proof_to_json(p);
  EXPECT_NE(t.find("\"pi_a\": [\n  \"0\",\n  \"1\",\n  \"0\"\n ]"), std::string::npos) << t;
  EXPECT_EQ(proof_from_json(t), p);
}

TEST(FormatJson, BadInputs) {
  const std::string proof = text_of(data("tiny/proof.json"));
  const std::string p_dec =
      "400240955522166739341778982573590415655688281993900788533205813612403165049083786444268762912901566403"
      "7894272559787";
  const std::string r_dec = "52435875175126190479447740508185965837690552500527637822603658699938581184513";
  auto replace_first_number = [](std::string s, const std::string& key, const std::string& value) {
    size_t at = s.find(key);
    size_t q1 = s.find('"', s.find('[', at)), q2 = s.find('"', q1 + 1);
    return s.replace(q1 + 1, q2 - q1 - 1, value);
  };
  expect_error([&] { proof_from_json(replace_first_number(proof, "pi_a", p_dec), "proof.json"); },
               ErrorCode::kInvalidFile, {"proof.json: .pi_a[0]: value", "not below the modulus of Fp"});
  expect_error([&] { proof_from_json(replace_first_number(proof, "pi_c", "12x"), "proof.json"); },
               ErrorCode::kInvalidFile, {".pi_c[0]", "is not a decimal integer"});
  expect_error([&] { proof_from_json(replace_first_number(proof, "pi_a", "5"), "proof.json"); },
               ErrorCode::kInvalidFile, {".pi_a: πA is not on the curve"});
  {
    // Binary bytes in the text: the parser's quote of them is shown as \xNN, never raw.
    std::string binary = proof;
    binary.replace(binary.size() / 2, 3, "\xff\x01\xfe");
    try {
      proof_from_json(binary, "proof.json");
      ADD_FAILURE() << "binary bytes parsed";
    } catch (const Error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("proof.json: not valid JSON"), std::string::npos) << msg;
      EXPECT_NE(msg.find("\\xff"), std::string::npos) << msg;
      for (const char c : msg) EXPECT_TRUE((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f) << msg;
    }
  }
  {
    // On the curve but outside the prime-order subgroups: malformed proof input (not merely invalid).
    Groth16Proof p = proof_from_json(proof);
    Groth16Proof q = p;
    q.a = {Fp::zero(), Fp::from_u64(2)};  // on y² = x³ + 4, outside G1
    expect_error([&] { proof_from_json(proof_to_json(q), "proof.json"); }, ErrorCode::kInvalidFile,
                 {"proof.json: .pi_a: πA is not in G1"});
    q = p;
    q.c = {Fp::zero(), -Fp::from_u64(2)};
    expect_error([&] { proof_from_json(proof_to_json(q), "proof.json"); }, ErrorCode::kInvalidFile,
                 {".pi_c: πC is not in G1"});
    q = p;
    for (uint64_t x = 1;; x++) {  // the first x with a point (x, y) on y² = x³ + 4(1 + u)
      Fp2 fx{Fp::from_u64(x), Fp::zero()};
      if (auto y = sqrt(fx * fx * fx + Curve<Fp2>::b())) {
        q.b = {fx, *y};
        break;
      }
    }
    ASSERT_TRUE(is_on_curve(q.b));
    ASSERT_FALSE(is_in_subgroup(q.b));
    expect_error([&] { proof_from_json(proof_to_json(q), "proof.json"); }, ErrorCode::kInvalidFile,
                 {".pi_b: πB is not in G2"});
    q = p;
    q.b.y += Fp2::one();
    expect_error([&] { proof_from_json(proof_to_json(q), "proof.json"); }, ErrorCode::kInvalidFile,
                 {".pi_b: πB is not on the curve"});
  }
  {
    std::string s = proof;
    s.replace(s.find("bls12381"), 8, "bn128");
    expect_error([&] { proof_from_json(s, "p"); }, ErrorCode::kInvalidFile,
                 {".curve: is \"bn128\", expected \"bls12381\""});
  }
  expect_error([&] { proof_from_json("{\"pi_a\": [", "p"); }, ErrorCode::kInvalidFile, {"p: not valid JSON"});
  expect_error([&] { proof_from_json("{}", "p"); }, ErrorCode::kInvalidFile, {"missing \"pi_a\""});
  expect_error([&] { proof_from_json("{\"pi_a\": [\"1\", \"2\"]}", "p"); }, ErrorCode::kInvalidFile,
               {".pi_a: expected 3 elements, got 2"});
  expect_error([&] { public_from_json("[\"1\", \"" + r_dec + "\"]", "public.json"); },
               ErrorCode::kInvalidFile, {"public.json: [1]: value", "not below the modulus of Fr"});
  expect_error([&] { public_from_json("[1]", "public.json"); }, ErrorCode::kInvalidFile,
               {"[0]: expected a decimal string"});
  std::string vk = text_of(data("tiny/verification_key.json"));
  {
    std::string s = vk;
    s.replace(s.find("\"nPublic\": 1"), 12, "\"nPublic\": 2");
    expect_error([&] { vk_from_json(s, "vk"); }, ErrorCode::kInvalidFile,
                 {".nPublic: is 2, but IC has 2 points"});
  }
  expect_error([&] { vk_from_json(replace_first_number(vk, "vk_alphabeta_12", p_dec), "vk"); },
               ErrorCode::kInvalidFile, {".vk_alphabeta_12[0][0][0]: value", "Fp"});
  expect_error([&] { read_proof_json("/nonexistent/proof.json"); }, ErrorCode::kIo,
               {"/nonexistent/proof.json"});
}

}  // namespace
}  // namespace cuzk::test
