// The one exception type of the C++ API. Each carries a stable code (mirrored by the C ABI's
// cuzk_status) and a message that names the input and the problem.
#pragma once

#include <stdexcept>
#include <string>

namespace cuzk {

/// Error categories; the numeric values are part of the C ABI (include/cuzk/cuzk.h).
enum class ErrorCode : int {
  kOk = 0,
  kInvalidArgument = 1,  ///< a caller-supplied value is out of range or inconsistent
  kInvalidEncoding = 2,  ///< bytes that do not decode: bad flags, non-canonical, off-curve, …
  kInvalidFile = 3,      ///< a file that is truncated, has a wrong magic/version/curve, …
  kIo = 4,               ///< the OS refused a read or write
  kUnsatisfied = 5,      ///< a witness that does not satisfy the constraints / a proof that fails
  kCuda = 6,             ///< a CUDA call failed; the message carries CUDA's text
  kInternal = 7,
};

/// An error with a code and a human-readable message.
class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& msg) : std::runtime_error(msg), code_(code) {}
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

}  // namespace cuzk
