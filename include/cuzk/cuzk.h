/* cuzk C ABI: a thin skin over the C++ API (src/groth16, src/formats). No exception crosses it: every
 * function returns a cuzk_status and, on failure, writes a NUL-terminated message naming the input and
 * the problem into the caller's buffer (truncated to err_len bytes; err may be NULL). */
#ifndef CUZK_CUZK_H
#define CUZK_CUZK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Status codes; the values match cuzk::ErrorCode (src/util/error.hpp). */
typedef enum cuzk_status {
  CUZK_OK = 0,
  CUZK_INVALID_ARGUMENT = 1, /**< a caller-supplied value is out of range or inconsistent */
  CUZK_INVALID_ENCODING = 2, /**< bytes that do not decode (bad flags, non-canonical, off-curve) */
  CUZK_INVALID_FILE = 3,     /**< truncated or corrupt file, wrong magic/version/curve */
  CUZK_IO = 4,               /**< the OS refused a read or write */
  CUZK_UNSATISFIED = 5,      /**< the witness does not satisfy the circuit */
  CUZK_CUDA = 6,             /**< a CUDA call failed */
  CUZK_INTERNAL = 7
} cuzk_status;

/** A loaded proving key (snarkjs .zkey) with its compute backend. Opaque; one per circuit. */
typedef struct cuzk_prover cuzk_prover;

/** The library version, e.g. "0.1.0". */
const char* cuzk_version(void);

/** Loads a Groth16 .zkey (BLS12-381) and prepares a CPU backend with `threads` threads (0 = all).
 *  On success *out owns the key; release it with cuzk_prover_free. */
cuzk_status cuzk_prover_new(const char* zkey_path, unsigned threads, cuzk_prover** out, char* err, size_t err_len);

/** Proves with the witness file `wtns_path` (.wtns v2) and writes snarkjs's proof.json and public.json
 *  (atomically, as a pair: nothing is written on failure, and concurrent calls writing the same paths
 *  leave a matching pair). The proof is verified before it is written. */
cuzk_status cuzk_prove_files(cuzk_prover* prover, const char* wtns_path, const char* proof_json_path,
                             const char* public_json_path, char* err, size_t err_len);

/** Verifies snarkjs JSON files; *valid is set to 1 for a valid proof, 0 for an invalid one (status
 *  CUZK_OK either way). Malformed files give an error status. */
cuzk_status cuzk_verify_files(const char* vk_json_path, const char* public_json_path, const char* proof_json_path,
                              int* valid, char* err, size_t err_len);

/** Releases a prover (NULL is allowed). */
void cuzk_prover_free(cuzk_prover* prover);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_CUZK_H */
