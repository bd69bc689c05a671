// Square roots in Fp (p ≡ 3 mod 4: a^((p+1)/4)), Fr (Tonelli–Shanks, 2-adicity 32, non-residue 7) and
// Fp2 (Adj–Rodríguez-Henríquez, "Square root computation over even extension fields", 2014, Alg. 9).
#pragma once

#include <optional>

#include "ff/fp2.hpp"

namespace cuzk {

/// A square root of a in Fp, or nothing when a is a non-residue. Which of ±root is returned is
/// unspecified; callers that need a sign choose it themselves.
std::optional<Fp> sqrt(const Fp& a);
/// A square root of a in Fr, or nothing when a is a non-residue.
std::optional<Fr> sqrt(const Fr& a);
/// A square root of a in Fp2, or nothing when a is a non-residue.
std::optional<Fp2> sqrt(const Fp2& a);

}  // namespace cuzk
