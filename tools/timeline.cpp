// `cuzk timeline t.csv --svg t.svg`: the engine's timeline CSV (EngineConfig::timeline_csv, `bench pipeline
// --timeline`, the daemon's pipeline.timeline_csv) drawn as lanes: synthesis, GPU (start() calls, per
// device) and finalize, each stage's intervals packed greedily into as many lanes as overlap (one lane per
// worker that was busy at once), coloured by job; the GPU's busy fraction and bubbles are printed too.
#include "timeline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "formats/atomic_file.hpp"
#include "util/error.hpp"

namespace cuzk::cli {
namespace {

struct Row {
  std::string job, circuit, device;
  unsigned partition = 0;
  double submitted = 0, synth_start = 0, synth_end = 0, gpu_start = 0, gpu_end = 0, finalized = 0;
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string f;
  while (std::getline(ss, f, ',')) out.push_back(f);
  return out;
}

const char* kHeader =
    "job,partition,circuit,device,submitted_ms,synth_start_ms,synth_end_ms,gpu_start_ms,gpu_end_ms,finalized_"
    "ms";

std::vector<Row> read_timeline(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(ErrorCode::kIo, path + ": cannot open the timeline");
  std::string line;
  if (!std::getline(in, line) || line != kHeader)
    throw Error(ErrorCode::kInvalidFile,
                path + ": line 1: not an engine timeline (expected the header " + std::string(kHeader) + ")");
  std::vector<Row> rows;
  for (size_t no = 2; std::getline(in, line); no++) {
    if (line.empty()) continue;
    const std::vector<std::string> f = split(line);
    auto bad = [&](const std::string& why) {
      throw Error(ErrorCode::kInvalidFile, path + ": line " + std::to_string(no) + ": " + why);
    };
    if (f.size() != 10) bad(std::to_string(f.size()) + " fields, expected 10");
    Row r;
    r.job = f[0];
    r.circuit = f[2];
    r.device = f[3];
    try {
      r.partition = (unsigned)std::stoul(f[1]);
      double* t[] = {&r.submitted, &r.synth_start, &r.synth_end, &r.gpu_start, &r.gpu_end, &r.finalized};
      for (int i = 0; i < 6; i++) *t[i] = std::stod(f[4 + i]);
    } catch (const std::exception&) {
      bad("a field is not a number");
    }
    if (!(r.synth_start <= r.synth_end && r.synth_end <= r.gpu_start && r.gpu_start <= r.gpu_end &&
          r.gpu_end <= r.finalized))
      bad("the times are not in pipeline order (synthesis, GPU, finalize)");
    rows.push_back(r);
  }
  if (rows.empty()) throw Error(ErrorCode::kInvalidFile, path + ": the timeline has no partitions");
  return rows;
}

struct Interval {
  double begin, end;
  size_t row;
};

/// Packs intervals into lanes: each goes to the first lane free at its start. Returns lane per interval.
std::vector<unsigned> pack(std::vector<Interval>& iv, unsigned& lanes) {
  std::sort(iv.begin(), iv.end(), [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
  std::vector<double> free_at;
  std::vector<unsigned> lane(iv.size());
  for (size_t i = 0; i < iv.size(); i++) {
    unsigned l = 0;
    while (l < free_at.size() && free_at[l] > iv[i].begin + 1e-6) l++;
    if (l == free_at.size()) free_at.push_back(0);
    free_at[l] = iv[i].end;
    lane[i] = l;
  }
  lanes = (unsigned)free_at.size();
  return lane;
}

/// Milliseconds covered by the union of the intervals.
double covered(std::vector<Interval> iv) {
  std::sort(iv.begin(), iv.end(), [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
  double total = 0, b = -1, e = -1;
  for (const Interval& x : iv) {
    if (x.begin > e) {
      total += e - b;
      b = x.begin;
      e = x.end;
    } else {
      e = std::max(e, x.end);
    }
  }
  return total + (e - b);
}

std::string colour(size_t job) {
  const double hue = std::fmod(job * 137.508, 360.0);
  char buf[48];
  std::snprintf(buf, sizeof buf, "hsl(%.0f,65%%,55%%)", hue);
  return buf;
}

}  // namespace

int run_timeline(const std::string& csv, const std::string& svg, bool quiet) {
  const std::vector<Row> rows = read_timeline(csv);
  std::map<std::string, size_t> job_index;
  for (const Row& r : rows) job_index.emplace(r.job, job_index.size());
  double t_end = 0;
  for (const Row& r : rows) t_end = std::max(t_end, r.finalized);
  // Stages: synthesis, then one GPU group per device, then finalize.
  struct Group {
    std::string name;
    std::vector<Interval> iv;
    std::vector<unsigned> lane;
    unsigned lanes = 0;
  };
  std::vector<Group> groups;
  groups.push_back({"synthesis", {}, {}, 0});
  std::map<std::string, size_t> gpu_group;
  for (size_t i = 0; i < rows.size(); i++) {
    groups[0].iv.push_back({rows[i].synth_start, rows[i].synth_end, i});
    auto [it, added] = gpu_group.emplace(rows[i].device, 0);
    if (added) {
      it->second = groups.size();
      groups.push_back({"GPU " + rows[i].device, {}, {}, 0});
    }
    groups[it->second].iv.push_back({rows[i].gpu_start, rows[i].gpu_end, i});
  }
  groups.push_back({"finalize", {}, {}, 0});
  for (size_t i = 0; i < rows.size(); i++)
    groups.back().iv.push_back({rows[i].gpu_end, rows[i].finalized, i});
  for (Group& g : groups) g.lane = pack(g.iv, g.lanes);

  if (!quiet) {
    std::printf("%s: %zu partitions of %zu jobs over %.2f s\n", csv.c_str(), rows.size(), job_index.size(),
                t_end / 1000);
    for (const Group& g : groups) {
      if (g.iv.empty()) continue;
      double first = g.iv.front().begin, last = 0;
      for (const Interval& x : g.iv) last = std::max(last, x.end);
      const double busy = covered(g.iv);
      std::printf(
          "  %-24s %u lane(s); busy %.2f s of the %.2f s from its first start to its last end (%.0f%%)\n",
          g.name.c_str(), g.lanes, busy / 1000, (last - first) / 1000,
          last > first ? 100 * busy / (last - first) : 100.0);
    }
  }
  if (svg.empty()) return 0;

  const double width = 1200, left = 150, lane_h = 18, gap = 10, top = 30;
  const double scale = (width - left - 10) / std::max(t_end, 1.0);
  unsigned total_lanes = 0;
  for (const Group& g : groups) total_lanes += g.lanes;
  const double height = top + total_lanes * lane_h + groups.size() * gap + 30;
  std::string out;
  char buf[512];
  std::snprintf(
      buf, sizeof buf,
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" "
      "font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
      "<text x=\"10\" y=\"18\" font-size=\"13\">%s: %zu partitions, %zu jobs, %.2f s</text>\n",
      width, height, csv.c_str(), rows.size(), job_index.size(), t_end / 1000);
  out += buf;
  double y = top;
  for (const Group& g : groups) {
    std::snprintf(buf, sizeof buf, "<text x=\"10\" y=\"%.1f\">%s</text>\n", y + 13, g.name.c_str());
    out += buf;
    for (size_t i = 0; i < g.iv.size(); i++) {
      const Interval& x = g.iv[i];
      const Row& r = rows[x.row];
      const double x0 = left + x.begin * scale, w = std::max(0.5, (x.end - x.begin) * scale);
      const double y0 = y + g.lane[i] * lane_h;
      std::snprintf(buf, sizeof buf,
                    "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\" stroke=\"black\" "
                    "stroke-width=\"0.3\"><title>%s partition %u: %.1f–%.1f ms</title></rect>\n",
                    x0, y0 + 1, w, lane_h - 2, colour(job_index[r.job]).c_str(), r.job.c_str(), r.partition,
                    x.begin, x.end);
      out += buf;
      if (w > 14) {
        std::snprintf(buf, sizeof buf, "<text x=\"%.2f\" y=\"%.1f\" font-size=\"9\">%u</text>\n", x0 + 2,
                      y0 + 12, r.partition);
        out += buf;
      }
    }
    y += g.lanes * lane_h + gap;
  }
  // Time axis: a tick per second (or per 100 ms on short runs).
  const double step = t_end > 5000 ? 1000 : 100;
  for (double t = 0; t <= t_end; t += step) {
    std::snprintf(
        buf, sizeof buf,
        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\" stroke-width=\"0.5\"/>"
        "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\">%.1f s</text>\n",
        left + t * scale, top - 4, left + t * scale, y, left + t * scale + 2, y + 12, t / 1000);
    out += buf;
  }
  out += "</svg>\n";
  write_file_atomic(svg, out);
  if (!quiet) std::printf("wrote %s\n", svg.c_str());
  return 0;
}

}  // namespace cuzk::cli
