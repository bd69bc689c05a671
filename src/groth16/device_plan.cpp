#include "groth16/device_plan.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "groth16/key.hpp"

namespace cuzk {
namespace {

constexpr size_t kFr = 32;                      // bytes of one scalar on the device
constexpr size_t kG1 = 96, kG2 = 192;           // affine points
constexpr size_t kMinChunk = size_t{64} << 20;  // at most this for the smallest chunk (min_chunk)
constexpr size_t kMaxChunk = size_t{2} << 30;
constexpr size_t kMaxScratch = size_t{4} << 30;    // MsmConfig's default
constexpr size_t kMinScratch = size_t{512} << 20;  // at most this for the smallest scratch (min_scratch)
constexpr size_t kSideChunk = size_t{512} << 20;   // the largest buffer of the side stream

/// The smallest MSM scratch planned: 64 bytes a domain point (digits, sort keys, the 0/1 split's flags),
/// between 16 MiB and kMinScratch.
size_t min_scratch(const DeviceShape& s) {
  return std::clamp(size_t{64} << s.log_n, size_t{16} << 20, kMinScratch);
}
/// The smallest chunk buffer: a sixteenth of the key, between 1 MiB and kMinChunk, in whole G2 points.
size_t min_chunk(size_t key_bytes) {
  return std::clamp(key_bytes / 16, size_t{1} << 20, kMinChunk) / kG2 * kG2;
}

/// The rows' slice buffers: an eighth of the rows, between 1 MiB and kRowsChunk, in 256-byte units.
size_t rows_chunk_bytes(const DeviceShape& s) {
  return std::clamp(s.rows_bytes / 8, size_t{1} << 20, kRowsChunk) / 256 * 256;
}

/// One arrangement of a partition's own buffers, richest first. rows_streamed: the rows cross the link
/// in slices (kRowsChunk buffers) and a, b, c are evaluated on the device, a parked in host memory
/// while b and c are transformed, and the witness re-uploaded after H. h_lean: besides, c and b are
/// parked raw while the others are evaluated, each transformed alone, and a and b come back in slices.
struct Arrangement {
  int slots;
  bool rows_resident;
  bool abc_in_sequence;
  bool rows_streamed = false;
  bool h_lean = false;
};

struct PhaseBytes {
  size_t ntt, msm_base;  // msm_base: without the chunk buffers
};

/// What streaming beside the H MSM takes: L (its scalars are the aux itself), A (the aux gathered by
/// density a chunk at a time) and the device bytes during the H MSM: its two buffers, its engine's
/// scratch (as large as one) and, for A, a chunk's scalars and the density's bitmap and word ranks.
struct Side {
  bool l = false, a = false;
  size_t chunk = 0;  // each of its two buffers
  size_t ranks = 0;  // A's density bitmap and word ranks, its head (the inputs)
  size_t bytes() const { return chunk ? 3 * chunk + (a ? chunk / kG1 * kFr + ranks : 0) : 0; }
};

/// The side stream of a plan that streams `streamed` (per KeyVector) with `budget` bytes, or none.
Side side_for(const DeviceShape& s, const std::array<bool, kKeyVectors>& streamed, size_t budget,
              SideStream allowed) {
  Side d;
  if (allowed == SideStream::kNone) return d;
  d.l = streamed[(int)KeyVector::kL] && s.l > 0;
  d.a = allowed == SideStream::kLAndA && streamed[(int)KeyVector::kA] && s.a > 0;
  if (!d.l && !d.a) return d;
  // a 48th of the budget, at most kSideChunk and an eighth of the larger vector, in 64-point units
  const size_t unit = kG1 * 64;
  const size_t largest = std::max(d.l ? s.l : 0, d.a ? s.a : 0);
  d.chunk = std::max(std::min({budget / 48, kSideChunk, largest * kG1 / 8}) / unit * unit, unit);
  d.ranks = d.a ? 2 * ((s.n_aux + 63) / 64) * 8 + s.n_inputs * kFr : 0;
  return d;
}

PhaseBytes phase_bytes(const DeviceShape& s, const Arrangement& arr, size_t scratch, const Side& side) {
  const size_t n = size_t{1} << s.log_n;
  const size_t vec = n * kFr;
  // Deferred rows: the witness (inputs ‖ aux) sits in device slots; otherwise aux goes up on its own.
  const size_t witness =
      s.rows_bytes && !arr.abc_in_sequence ? (size_t)arr.slots * (s.n_inputs + s.n_aux) * kFr : s.n_aux * kFr;
  const size_t rows = arr.rows_resident ? s.rows_bytes : 0;
  PhaseBytes p;
  if (arr.rows_streamed) {
    const size_t w = (s.n_inputs + s.n_aux) * kFr;
    // w + a + scratch (a's transforms), w + b + scratch, w + b + c (c evaluated), b + c + scratch (c's
    // transforms, w dropped), a + b + c (H's numerator): with w ≤ one vector, at most three vectors.
    // Lean: w + one vector while evaluating, a vector and the transform's scratch, c and two slices.
    p.ntt = (arr.h_lean ? std::max(w + vec, 2 * vec) : std::max(w, vec) + 2 * vec) + s.ntt_table_bytes +
            s.rows_table_bytes + 2 * rows_chunk_bytes(s);
    p.msm_base = std::max(vec + side.bytes(), (s.a + s.b_g1) * kFr) + s.n_aux * kFr + scratch;
    return p;
  }
  // a, b, c (two at a time in sequence), the multi-pass NTT's scratch vector and its tables.
  // In sequence the witness goes up only after H (a, b, c come from the host then).
  p.ntt = (arr.abc_in_sequence ? 2 * vec : 3 * vec + witness) + vec + s.ntt_table_bytes + rows;
  // The H scalars (and the side stream beside their MSM), then the gathered A and B scalars; one MSM's
  // scratch at a time.
  p.msm_base = std::max(vec + side.bytes(), (s.a + s.b_g1) * kFr) + witness + rows + scratch;
  return p;
}

double gib(size_t b) { return (double)b / (double)(size_t{1} << 30); }

/// The plan's cost model, in seconds per partition beyond a resident proof: streamed bytes at a PCIe 4.0
/// x16 card's practical host→device rate, a, b, c evaluated on the host (32 GiB PoRep: 3.28 s on 16
/// cores for 8.9 GB of rows, docs/PERFORMANCE.md §12), and a witness upload that no longer overlaps the
/// previous partition when there are fewer than two slots.
constexpr double kLinkBytesPerSecond = 25e9;
constexpr double kHostAbcSecondsPerRowByte = 3.28 / 8.9e9;

double cost(const DeviceShape& s, const Arrangement& arr, size_t streamed, const Side& side) {
  // The side stream's bytes cross while the (compute-bound) H MSM runs: counted at a quarter.
  const size_t beside = (side.l ? s.l * kG1 : 0) + (side.a ? s.a * kG1 : 0);
  double t = (double)(streamed - beside) / kLinkBytesPerSecond + 0.25 * (double)beside / kLinkBytesPerSecond;
  if (s.rows_bytes && arr.rows_streamed) {  // the rows, a parked and fetched back, the witness again
    const size_t vec = size_t{32} << s.log_n;
    // lean: c and b down and up raw, b and a down and up transformed, against a's one round trip
    t += (double)(s.rows_bytes + (arr.h_lean ? 8 : 2) * vec + (s.n_inputs + s.n_aux) * kFr) /
         kLinkBytesPerSecond;
  } else if (s.rows_bytes && !arr.rows_resident) {
    t += (double)s.rows_bytes * kHostAbcSecondsPerRowByte;
  }
  if (s.rows_bytes && arr.slots < 2) t += (double)((s.n_inputs + s.n_aux) * kFr) / kLinkBytesPerSecond;
  return t;
}

}  // namespace

DeviceShape device_shape(const ProvingKey& key) {
  DeviceShape s;
  s.log_n = key.log_n;
  s.n_inputs = key.n_inputs;
  s.n_aux = key.n_aux;
  s.a = key.count(KeyVector::kA);
  s.b_g1 = key.count(KeyVector::kBG1);
  s.b_g2 = key.count(KeyVector::kBG2);
  s.l = key.count(KeyVector::kL);
  s.h = key.count(KeyVector::kH);
  return s;
}

size_t key_vector_bytes(const DeviceShape& s, KeyVector v) {
  switch (v) {
    case KeyVector::kH:
      return s.h * kG1;
    case KeyVector::kA:
      return s.a * kG1;
    case KeyVector::kBG1:
      return s.b_g1 * kG1;
    case KeyVector::kL:
      return s.l * kG1;
    case KeyVector::kBG2:
      return s.b_g2 * kG2;
  }
  return 0;
}

DevicePlan plan_device(const DeviceShape& s, size_t budget, SideStream side_allowed) {
  const size_t usable = budget > kDeviceReserve ? budget - kDeviceReserve : 0;
  std::vector<Arrangement> arrangements = {{2, true, false},       {1, true, false},
                                           {1, false, false},      {0, false, true},
                                           {0, false, true, true}, {0, false, true, true, true}};
  if (!s.rows_bytes)  // no device rows: the slot and rows steps change nothing
    arrangements = {{1, false, false}, {0, false, true}};
  size_t total = 0;
  std::array<size_t, kKeyVectors> bytes{};
  for (int v = 0; v < kKeyVectors; v++) total += bytes[v] = key_vector_bytes(s, (KeyVector)v);

  DevicePlan best;
  best.budget = budget;
  bool found = false;
  size_t best_resident = 0;
  double best_cost = 0;
  // A scratch of an eighth of the budget where that fits, else the least one.
  for (const size_t scratch : {std::clamp(budget / 8, min_scratch(s), kMaxScratch), min_scratch(s)}) {
    for (const Arrangement& arr : arrangements) {
      for (const bool side_stream : {true, false}) {
        if (side_stream && side_allowed == SideStream::kNone) continue;
        for (unsigned mask = 0; mask < (1u << kKeyVectors); mask++) {
          size_t res = 0;
          std::array<bool, kKeyVectors> streamed{};
          for (int v = 0; v < kKeyVectors; v++) {
            if (mask >> v & 1) res += bytes[v];
            streamed[v] = !(mask >> v & 1) && bytes[v] > 0;
          }
          const Side side = side_stream ? side_for(s, streamed, budget, side_allowed) : Side{};
          const PhaseBytes p = phase_bytes(s, arr, scratch, side);
          const bool streams = res < total;
          const size_t chunks = streams ? 2 * min_chunk(total) : 0;
          if (res + std::max(p.ntt, p.msm_base + chunks) > usable) continue;
          // The cheapest plan by the cost model; among equal costs the one keeping more resident, then the
          // richer arrangement (earlier in the list).
          const double c = cost(s, arr, total - res, side);
          if (found && (c > best_cost || (c == best_cost && res <= best_resident))) continue;
          found = true;
          best_resident = res;
          best_cost = c;
          best.cost_seconds = c;
          best.resident = {};
          for (int v = 0; v < kKeyVectors; v++) best.resident[v] = mask >> v & 1;
          best.resident_bytes = res;
          best.streamed_bytes = total - res;
          best.witness_slots = arr.slots;
          best.rows_resident = arr.rows_resident && s.rows_bytes > 0;
          best.abc_in_sequence = arr.abc_in_sequence;
          best.rows_streamed = arr.rows_streamed && s.rows_bytes > 0;
          best.h_lean = best.rows_streamed && arr.h_lean;
          best.rows_chunk_bytes = best.rows_streamed ? rows_chunk_bytes(s) : 0;
          best.msm_scratch_bytes = scratch;
          best.ntt_phase_bytes = p.ntt;
          const size_t left = usable - res - p.msm_base;  // ≥ chunks by the test above
          best.chunk_bytes = streams ? std::min(kMaxChunk, left / 2) / kG2 * kG2 : 0;
          best.msm_phase_bytes = p.msm_base + 2 * best.chunk_bytes;
          best.side_chunk_bytes = side.chunk;
          best.side_l = side.l;
          best.side_a = side.a;
        }
      }
    }
    if (found) break;
  }
  Arrangement lean = arrangements.front();
  best.min_budget = SIZE_MAX;
  for (const Arrangement& arr : arrangements) {
    const PhaseBytes lp = phase_bytes(s, arr, min_scratch(s), Side{});
    const size_t need = std::max(lp.ntt, lp.msm_base + 2 * min_chunk(total)) + kDeviceReserve;
    if (need < best.min_budget) best.min_budget = need, lean = arr;
  }
  best.fits = found;
  if (!found) {
    best.streamed_bytes = total;
    best.witness_slots = lean.slots;
    best.abc_in_sequence = lean.abc_in_sequence;
    best.msm_scratch_bytes = min_scratch(s);
  }
  return best;
}

std::string DevicePlan::describe() const {
  std::string res, str;
  for (int v = 0; v < kKeyVectors; v++) {
    std::string& dst = resident[v] ? res : str;
    if (!dst.empty()) dst += ",";
    dst += key_vector_name((KeyVector)v);
  }
  std::string side;
  if (side_chunk_bytes) {
    char b[96];
    std::snprintf(b, sizeof b, "; %s beside H (2 x %.0f MiB)",
                  side_l && side_a ? "l, a"
                  : side_a         ? "a"
                                   : "l",
                  (double)side_chunk_bytes / (1 << 20));
    side = b;
  }
  char buf[640];
  if (!fits) {
    std::snprintf(buf, sizeof buf, "does not fit: budget %.1f GiB, needs at least %.1f GiB", gib(budget),
                  gib(min_budget));
    return buf;
  }
  std::snprintf(
      buf, sizeof buf,
      "resident %s (%.1f GiB); streamed %s (%.1f GiB per partition, 2 x %.0f MiB chunks); partition "
      "%.1f GiB for H, %.1f GiB for the MSMs; %d witness slot%s, rows on the %s, a/b/c %s%s; model +%.2f s",
      res.empty() ? "-" : res.c_str(), gib(resident_bytes), str.empty() ? "-" : str.c_str(),
      gib(streamed_bytes), (double)chunk_bytes / (1 << 20), gib(ntt_phase_bytes), gib(msm_phase_bytes),
      witness_slots, witness_slots == 1 ? "" : "s",
      rows_resident   ? "device"
      : rows_streamed ? (h_lean ? "host, streamed to the device, H lean" : "host, streamed to the device")
                      : "host",
      abc_in_sequence ? "in sequence" : "at once", side.c_str(), cost_seconds);
  return buf;
}

}  // namespace cuzk
