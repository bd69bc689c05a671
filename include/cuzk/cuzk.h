/* cuzk C ABI: a thin skin over the C++ API (src/groth16, src/formats). No exception crosses it: every
 * function returns a cuzk_status and, on failure, writes a NUL-terminated message naming the input and
 * the problem into the caller's buffer (truncated to err_len bytes; err may be NULL). On success the
 * buffer holds the empty string.
 *
 * Two ways in:
 *  - files: cuzk_prover_new (a .zkey) + cuzk_prove_files / cuzk_verify_files (snarkjs .wtns and JSON);
 *  - memory: a cuzk_circuit (a .zkey, or a bellperson .params with its .r1cs), a cuzk_backend (CPU or
 *    GPU) and witnesses as arrays of field elements; cuzk_prove (one proof, synchronous) or
 *    cuzk_prove_start + cuzk_prove_finalize (several partitions per call, GPU work overlapped with the
 *    caller's next witness), cuzk_verify.
 *
 * Encodings (memory API):
 *  - a field element (witness value, public input, r, s) is CUZK_FR_BYTES = 32 bytes: the canonical
 *    little-endian integer, < r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
 *    (BLS12-381's scalar field), NOT Montgomery form. This is the value encoding of circom's .wtns files.
 *    A value ≥ r is refused (CUZK_INVALID_ENCODING, the message names its index).
 *  - a witness is the whole assignment inputs ‖ aux: n_vars values, value 0 the constant 1, then the
 *    n_public public inputs, then the auxiliary values (circom's wire order; for a .params + .r1cs circuit
 *    the .r1cs wire order, which is bellperson's inputs ‖ aux).
 *  - a proof is CUZK_PROOF_BYTES = 192 bytes in the zcash/bellperson encoding (bellperson's
 *    Proof::write): πA compressed G1 (48 bytes) ‖ πB compressed G2 (96) ‖ πC compressed G1 (48),
 *    big-endian coordinates with the zcash flag bits. Several proofs are concatenated in partition order
 *    (what Filecoin stores).
 *
 * Threads: a cuzk_circuit is read-only after loading and may be used by any number of threads at once. A
 * cuzk_backend may be used by several threads at once (e.g. several callers per GPU): cuzk_prove and
 * cuzk_prove_start are thread-safe on one backend; the CPU backend serves concurrent calls one parallel
 * loop at a time, the GPU backend serializes only its device work (a per-device mutex), so one caller's
 * host work overlaps another's GPU work. A cuzk_pending belongs to one thread at a time. */
#ifndef CUZK_CUZK_H
#define CUZK_CUZK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes of one field element (Fr of BLS12-381) in the memory API: canonical little-endian. */
#define CUZK_FR_BYTES 32
/** Bytes of one proof: zcash/bellperson compressed encoding, A (48) ‖ B (96) ‖ C (48). */
#define CUZK_PROOF_BYTES 192

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

/* ---- the memory API: circuits, backends, in-memory witnesses -------------------------------------- */

/** A proving key with its circuit's constraints (kept in compact form, so that a GPU backend evaluates
 *  the witness's A·w, B·w, C·w on the device). Opaque; read-only after loading. */
typedef struct cuzk_circuit cuzk_circuit;
/** A compute backend (CPU thread pool or one CUDA device). Opaque; thread-safe (see the file comment). */
typedef struct cuzk_backend cuzk_backend;
/** Proofs started by cuzk_prove_start and not yet finalized. Opaque. */
typedef struct cuzk_pending cuzk_pending;

/** The key format a circuit was loaded from (it fixes the H convention, REFERENCE.md §5). */
typedef enum cuzk_circuit_format {
  CUZK_FORMAT_ZKEY = 0,       /**< snarkjs .zkey (snarkjs convention) */
  CUZK_FORMAT_BELLPERSON = 1  /**< bellperson .params + circom .r1cs (bellperson convention) */
} cuzk_circuit_format;

/** Flags of cuzk_circuit_load_params. */
#define CUZK_LOAD_DEFAULT 0u
/** Skip the order-r subgroup check of the .params points (coordinates and curve membership are still
 *  checked): by far the largest cost of loading a large key. Only for a file whose integrity is known
 *  otherwise (Filecoin checks a digest of every parameter file). */
#define CUZK_LOAD_SKIP_SUBGROUP_CHECK 1u

/** The shape of a circuit: what a caller needs to size its buffers. */
typedef struct cuzk_shape {
  uint32_t format;      /**< a cuzk_circuit_format */
  uint32_t n_inputs;    /**< public inputs including the constant ONE (value 0 of a witness) */
  uint32_t n_public;    /**< public inputs without ONE = n_inputs − 1 (what cuzk_verify takes) */
  uint32_t n_aux;       /**< auxiliary (private) values */
  uint32_t n_vars;      /**< witness length in values: n_inputs + n_aux (bytes: n_vars · CUZK_FR_BYTES) */
  uint32_t log_n;       /**< log2 of the evaluation domain */
  uint64_t domain_size; /**< 2^log_n */
  uint64_t nnz;         /**< terms of the constraint matrices A, B, C (as kept by the prover) */
} cuzk_shape;

/** Loads a snarkjs Groth16 .zkey (BLS12-381) with the constraints it records (section 4): no .r1cs is
 *  needed. `threads` bounds the threads used while loading (0 = all hardware threads).
 *  On success *out owns the circuit; release it with cuzk_circuit_free. On failure *out is NULL.
 *  Errors: CUZK_INVALID_ARGUMENT (NULL path or out), CUZK_IO (the file cannot be read; the message names
 *  the path), CUZK_INVALID_FILE (truncated or corrupt file, another curve: named, with the section). */
cuzk_status cuzk_circuit_load_zkey(const char* zkey_path, unsigned threads, cuzk_circuit** out, char* err,
                                   size_t err_len);

/** Loads a bellperson .params proving key (bellperson's Parameters::write layout) with the circuit's
 *  circom .r1cs, whose constraints are taken in bellperson's convention (the constraints, then one row
 *  input_i · 0 = 0 per input, ONE included). `flags`: CUZK_LOAD_DEFAULT or CUZK_LOAD_SKIP_SUBGROUP_CHECK.
 *  `threads` as in cuzk_circuit_load_zkey. On success *out owns the circuit (cuzk_circuit_free).
 *  Errors: CUZK_INVALID_ARGUMENT (NULL argument, unknown flags, or a key and constraints of different
 *  circuits: both files named), CUZK_IO (a file cannot be read: named), CUZK_INVALID_FILE (a malformed
 *  file: named, with the vector, index and byte offset). */
cuzk_status cuzk_circuit_load_params(const char* params_path, const char* r1cs_path, unsigned flags,
                                     unsigned threads, cuzk_circuit** out, char* err, size_t err_len);

/** Writes the shape of `circuit` into *out. Errors: CUZK_INVALID_ARGUMENT (NULL argument). */
cuzk_status cuzk_circuit_shape(const cuzk_circuit* circuit, cuzk_shape* out, char* err, size_t err_len);

/** Releases a circuit (NULL is allowed). Pending proofs started with it keep what they need: it may be
 *  freed before they are finalized. */
void cuzk_circuit_free(cuzk_circuit* circuit);

/** Which device a backend computes on. */
typedef enum cuzk_backend_kind {
  CUZK_BACKEND_AUTO = 0, /**< the GPU `device` when this library has CUDA and a GPU is visible, else the CPU */
  CUZK_BACKEND_CPU = 1,  /**< the host CPU: multithreaded NTT and Pippenger MSM */
  CUZK_BACKEND_GPU = 2   /**< one CUDA device (CUDA builds only) */
} cuzk_backend_kind;

/** Creates a backend of `kind`, a cuzk_backend_kind (an int, so that any value a C caller passes is
 *  defined behaviour and an unknown one is an error). `device` is the CUDA device ordinal (GPU and AUTO; ignored for the CPU);
 *  `threads` bounds the CPU threads (the CPU backend's pool, or the GPU backend's host work such as
 *  copying witnesses; 0 = all hardware threads). The GPU backend keeps each key's points (and the
 *  circuit's compact rows) resident on the device after first use, within the device's memory.
 *  On success *out owns the backend; release it with cuzk_backend_free after every proof using it is
 *  finalized or freed.
 *  Errors: CUZK_INVALID_ARGUMENT (NULL out, unknown kind, negative device, a device ordinal past the
 *  visible GPUs), CUZK_CUDA (GPU asked of a library built without CUDA, no visible GPU, or a CUDA failure;
 *  the message says which). */
cuzk_status cuzk_backend_new(int kind, int device, unsigned threads, cuzk_backend** out, char* err,
                             size_t err_len);

/** What `backend` is: *kind (CUZK_BACKEND_CPU or CUZK_BACKEND_GPU; never AUTO) when kind is not NULL, and
 *  its name ("cpu", "cuda:0 (<GPU name>)") as a NUL-terminated string truncated to name_len bytes when name
 *  is not NULL. Errors: CUZK_INVALID_ARGUMENT (NULL backend). */
cuzk_status cuzk_backend_info(const cuzk_backend* backend, cuzk_backend_kind* kind, char* name, size_t name_len,
                              char* err, size_t err_len);

/** Releases a backend (NULL is allowed). No proof may be in flight on it (started and neither finalized
 *  nor freed). */
void cuzk_backend_free(cuzk_backend* backend);

/** Proves one witness synchronously and verifies the proof before returning it.
 *  witness: n_values · CUZK_FR_BYTES bytes, inputs ‖ aux (see the file comment), n_values = n_vars.
 *  r, s: the blinding scalars, CUZK_FR_BYTES each (canonical LE), or NULL for fresh random ones from the
 *  OS CSPRNG (each independently). Fixed r and s give byte-identical proofs (tests); never reuse them in
 *  production.
 *  proof_out: CUZK_PROOF_BYTES bytes, written on success only.
 *  public_out: NULL, or n_public · CUZK_FR_BYTES bytes that receive the public inputs without ONE
 *  (witness values 1..n_inputs − 1, canonical LE): what cuzk_verify takes.
 *  Errors: CUZK_INVALID_ARGUMENT (NULL circuit/backend/witness/proof_out, n_values ≠ n_vars,
 *  witness[0] ≠ 1), CUZK_INVALID_ENCODING (a value, r or s ≥ r: its index named), CUZK_UNSATISFIED (the
 *  witness does not satisfy the circuit: the proof does not verify; nothing is written), CUZK_CUDA. */
cuzk_status cuzk_prove(const cuzk_circuit* circuit, cuzk_backend* backend, const uint8_t* witness,
                       size_t n_values, const uint8_t* r, const uint8_t* s, uint8_t* proof_out,
                       uint8_t* public_out, char* err, size_t err_len);

/** Starts proving `partitions` (≥ 1) witnesses of `circuit` on `backend` and returns once the backend's
 *  device work is queued or done (the CPU backend does all of it here), so the caller can make the next
 *  witnesses meanwhile. Every witness is checked before anything starts.
 *  witnesses: `partitions` pointers, each to n_values · CUZK_FR_BYTES bytes as in cuzk_prove; the bytes
 *  are copied: the caller may reuse them when this returns.
 *  r, s: NULL (fresh random scalars per partition), or partitions · CUZK_FR_BYTES bytes: one scalar per
 *  partition, in order (each independently NULL or not).
 *  On success *out owns the pending proofs: pass it to cuzk_prove_finalize, or release it with
 *  cuzk_pending_free. On failure *out is NULL and nothing is pending.
 *  Errors: as cuzk_prove (a witness's index in `witnesses` is named: "partition 1: witness[7] …"), and
 *  CUZK_INVALID_ARGUMENT for partitions = 0 or a NULL witness pointer. */
cuzk_status cuzk_prove_start(const cuzk_circuit* circuit, cuzk_backend* backend, const uint8_t* const* witnesses,
                             size_t partitions, size_t n_values, const uint8_t* r, const uint8_t* s,
                             cuzk_pending** out, char* err, size_t err_len);

/** The number of partitions of `pending` in *partitions. Errors: CUZK_INVALID_ARGUMENT (NULL argument). */
cuzk_status cuzk_pending_partitions(const cuzk_pending* pending, size_t* partitions, char* err, size_t err_len);

/** Waits for the backend, finishes every partition's proof and verifies it, then writes the proofs,
 *  concatenated in partition order, into proofs_out (partitions · CUZK_PROOF_BYTES bytes; proofs_len must
 *  be that size). Nothing is written unless every proof verifies. `pending` is consumed and freed in every
 *  case, success or error (do not use or free it afterwards); NULL gives CUZK_INVALID_ARGUMENT.
 *  Errors: CUZK_INVALID_ARGUMENT (NULL argument, wrong proofs_len), CUZK_UNSATISFIED (a witness does not
 *  satisfy the circuit: "partition k: …"), CUZK_CUDA. */
cuzk_status cuzk_prove_finalize(cuzk_pending* pending, uint8_t* proofs_out, size_t proofs_len, char* err,
                                size_t err_len);

/** Releases pending proofs that will not be finalized (NULL is allowed); waits for backend work that still
 *  reads their buffers. */
void cuzk_pending_free(cuzk_pending* pending);

/** Verifies a proof against `circuit`'s verifying key: public_inputs is n_public · CUZK_FR_BYTES bytes
 *  (canonical LE, without ONE; n_public must equal the circuit's), proof is CUZK_PROOF_BYTES bytes.
 *  *valid is set to 1 for a valid proof, 0 for an invalid one (status CUZK_OK either way).
 *  Errors: CUZK_INVALID_ARGUMENT (NULL argument, wrong n_public), CUZK_INVALID_ENCODING (a public input
 *  ≥ r, or proof bytes that do not decode: bad flags, not on the curve or in the subgroup, infinity). */
cuzk_status cuzk_verify(const cuzk_circuit* circuit, const uint8_t* public_inputs, size_t n_public,
                        const uint8_t* proof, int* valid, char* err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_CUZK_H */
