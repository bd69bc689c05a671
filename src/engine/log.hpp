// The engine's logging interface: the engine library has no logging dependency (it builds on the GPU
// machine with only the compiler); it emits structured events through a sink that the caller plugs in
// (the daemon forwards them to spdlog, tests collect them, the pipeline benchmark prints them).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cuzk::engine {

/// Severity of a log event.
enum class LogLevel { kDebug, kInfo, kWarn, kError };

/// One structured event: a short name ("partition_done") and key/value fields, rendered by the sink.
struct LogEvent {
  LogLevel level = LogLevel::kInfo;
  std::string event;
  std::vector<std::pair<std::string, std::string>> fields;

  /// The event as one logfmt line: `event key=value key="value with spaces"`. Every value goes through
  /// printable(value, kLogValueMax) (a value never breaks the line); values with spaces, quotes, `=` or
  /// backslashes are quoted, with `"` and `\` escaped by a backslash.
  std::string logfmt() const;
};

/// Client-supplied text (ids, names) made safe to print in a log line or an error message: control
/// bytes (newlines included) and DEL become `\xNN`, and text longer than `max_bytes` is cut there and
/// marked `...(<n> bytes)` with its full length, so that no client can forge log lines or make a
/// message larger than about 4 × max_bytes + 20. Applying it again changes nothing but the cut.
std::string printable(std::string_view text, size_t max_bytes = 64);

/// Longest value (bytes, before escaping) that LogEvent::logfmt prints in full.
inline constexpr size_t kLogValueMax = 512;

/// Receives every event; called from engine threads (must be thread-safe). Empty = discard.
using LogSink = std::function<void(const LogEvent&)>;

}  // namespace cuzk::engine
