// The engine's logging interface: the engine library has no logging dependency (it builds on the GPU
// machine with only the compiler); it emits structured events through a sink that the caller plugs in
// (the daemon forwards them to spdlog, tests collect them, the pipeline benchmark prints them).
#pragma once

#include <functional>
#include <string>
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

  /// The event as one logfmt line: `event key=value key="value with spaces"`.
  std::string logfmt() const;
};

/// Receives every event; called from engine threads (must be thread-safe). Empty = discard.
using LogSink = std::function<void(const LogEvent&)>;

}  // namespace cuzk::engine
