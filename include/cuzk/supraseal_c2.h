/* SupraSeal C2's C ABI, as libcuzk_supraseal.so exports it: the types and functions that Filecoin's Rust
 * `supraseal-c2` crate declares (with the split start/finalize API of the filecoin-project/curio fork),
 * so that the library links in place of SupraSeal's without touching the Rust code.
 * Source of the layouts: docs/SUPRASEAL_ABI.md (shared docs), REFERENCE.md §1 and §6.
 *
 * Conventions:
 *  - every function that can fail returns a RustError by value: code 0 and message NULL on success;
 *    otherwise code is a cuzk error category (1 invalid argument, 2 invalid encoding, 3 invalid file,
 *    4 I/O, 5 unsatisfied witness, 6 CUDA, 7 internal; the values of include/cuzk/cuzk.h) and message
 *    a malloc'ed (strdup) NUL-terminated text that the caller releases with free();
 *  - no C++ exception and no abort crosses the interface: bad shapes, NULL pointers, unreadable files
 *    and device failures all come back as a RustError;
 *  - scalars (fr_t) and point coordinates are little-endian 64-bit limbs in Montgomery form (blst's
 *    blst_fr, blst_fp: R = 2^256 for Fr, 2^384 for Fp); the point at infinity is all zeros. */
#ifndef CUZK_SUPRASEAL_C2_H
#define CUZK_SUPRASEAL_C2_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A scalar of BLS12-381's Fr: 4 little-endian u64 limbs, Montgomery form (blst_fr). 32 bytes. */
typedef struct fr_t {
  uint64_t l[4];
} fr_t;

/** An element of Fp: 6 little-endian u64 limbs, Montgomery form (blst_fp). 48 bytes. */
typedef struct supraseal_fp_t {
  uint64_t l[6];
} supraseal_fp_t;

/** An element of Fp2 = Fp[u]/(u² + 1): c0 + c1·u (blst_fp2). 96 bytes. */
typedef struct supraseal_fp2_t {
  supraseal_fp_t c0, c1;
} supraseal_fp2_t;

/** An affine point of G1 (blst_p1_affine): x, y; infinity is all zeros. 96 bytes. */
typedef struct supraseal_g1_affine_t {
  supraseal_fp_t x, y;
} supraseal_g1_affine_t;

/** An affine point of G2 (blst_p2_affine): x.c0, x.c1, y.c0, y.c1; infinity is all zeros. 192 bytes. */
typedef struct supraseal_g2_affine_t {
  supraseal_fp2_t x, y;
} supraseal_g2_affine_t;

/** A Groth16 proof as bellperson's Proof<Bls12> lies in memory: A, B, C affine. 384 bytes. */
typedef struct groth16_proof {
  supraseal_g1_affine_t a;
  supraseal_g2_affine_t b;
  supraseal_g1_affine_t c;
} groth16_proof;

/** sppark's error convention: code 0 = success; message NULL or strdup'ed (the caller frees it). */
typedef struct RustError {
  int code;
  char* message;
} RustError;

/** An opaque, reference-counted handle to a loaded parameter set (bellperson .params). ptr is NULL
 *  after drop_SRS. */
typedef struct SRS {
  const void* ptr;
} SRS;

/** One circuit (partition) to prove, as bellperson's synthesis leaves it. Density bitmaps are u64
 *  words, LSB first: bit i of word i/64 says whether variable i has a point in that query; *_bit_len
 *  is the number of variables (a_aux, b_aux: aux variables; b_inp: inputs) and *_popcount the number
 *  of set bits. a, b, c are the constraint evaluations, abc_size of them (at most the key's domain; the
 *  prover pads with zeros). inp_assignment_data holds the inputs, ONE first; aux_assignment_data the
 *  auxiliary variables. The prover copies everything it needs: the buffers may be freed as soon as the
 *  call returns. */
typedef struct Assignment {
  const uint64_t* a_aux_density;
  size_t a_aux_bit_len;
  size_t a_aux_popcount;
  const uint64_t* b_inp_density;
  size_t b_inp_bit_len;
  size_t b_inp_popcount;
  const uint64_t* b_aux_density;
  size_t b_aux_bit_len;
  size_t b_aux_popcount;
  const fr_t* a;
  const fr_t* b;
  const fr_t* c;
  size_t abc_size;
  const fr_t* inp_assignment_data;
  size_t inp_assignment_size;
  const fr_t* aux_assignment_data;
  size_t aux_assignment_size;
} Assignment;

/** Loads the bellperson .params file at srs_path (REFERENCE.md §6; points subgroup-checked) into *ret.
 *  With cache, the parameters stay loaded for reuse: a later create_SRS of the same path returns
 *  another reference to them without reading the file, and on a CUDA build they are uploaded to every
 *  GPU now and kept resident there, until evict_SRS. Errors: NULL arguments (1), an unreadable file
 *  (4), a malformed one (3, naming the point and offset), a device failure while uploading (6). */
RustError create_SRS(SRS* ret, const char* srs_path, bool cache);

/** Drops the cached copies of ref's parameters (the path cache and the GPU-resident points). The
 *  handle and its clones stay valid: the next proof streams or re-uploads the points. NULL is a no-op. */
void evict_SRS(const SRS* ref);

/** Releases the reference *ref and sets ref->ptr to NULL; the parameters are freed (and evicted from
 *  the GPUs) with the last reference, unless cached. NULL or an already dropped handle is a no-op. */
void drop_SRS(SRS* ref);

/** Another reference to rhs's parameters (released with drop_SRS); {NULL} when rhs is NULL or dropped. */
SRS clone_SRS(const SRS* rhs);

/** A new mutex (a C++ std::mutex) for callers whose GPU workers share one GPU; pass it as gpu_mtx. */
void* create_gpu_mutex(void);

/** Frees a mutex from create_gpu_mutex (NULL is a no-op). It must not be held. */
void destroy_gpu_mutex(void* mtx);

/** Proves num_circuits circuits with srs, circuit i blinded by r_s[i], s_s[i] (Montgomery form), and
 *  writes proof i to proofs[i]. gpu_index selects the GPU (0 … count − 1) on a CUDA build with a GPU;
 *  without one the CPU prover runs and gpu_index only has to be ≥ 0. The device part runs with gpu_mtx
 *  held (a mutex from create_gpu_mutex; NULL = the library's own mutex of that GPU). Every proof is
 *  checked with the pairing before it is written. Errors: NULL pointers, shape mismatches between an
 *  assignment and the parameters (|A| ≠ inputs + popcount(a_aux), popcounts disagreeing with the
 *  bitmaps, abc_size larger than the domain, …) (1, the message names the circuit and the field); a
 *  witness that does not satisfy the circuit (5); a device failure (6). proofs is written only on
 *  success. Equivalent to generate_groth16_proofs_start_c + finalize_groth16_proof_c. */
RustError generate_groth16_proofs_c(const Assignment provers[], size_t num_circuits, const fr_t r_s[],
                                    const fr_t s_s[], groth16_proof proofs[], SRS* srs, void* gpu_mtx,
                                    int gpu_index);

/** The first half of generate_groth16_proofs_c: copies the assignments, r_s and s_s, runs the device
 *  part under gpu_mtx and releases it, and returns in *pending_out a handle that owns everything the
 *  rest needs (including a reference to the parameters: srs may be dropped meanwhile). Finish it with
 *  finalize_groth16_proof_c or free it with destroy_pending_proof; handles are independent and may be
 *  finished in any order, from any thread. *pending_out is NULL on failure (same errors as
 *  generate_groth16_proofs_c, except the witness check, which finalize makes). */
RustError generate_groth16_proofs_start_c(const Assignment provers[], size_t num_circuits, const fr_t r_s[],
                                          const fr_t s_s[], SRS* srs, void* gpu_mtx, int gpu_index,
                                          void** pending_out);

/** Waits for the rest of the work of handle (e.g. the B MSM on G2 on CPU threads), runs the epilogue,
 *  verifies and writes the handle's proofs to proofs[0 … num_circuits − 1], and frees the handle,
 *  whatever the outcome. Errors: a NULL argument (1; a NULL proofs still frees the handle), an
 *  unsatisfied witness (5), a device failure (6). */
RustError finalize_groth16_proof_c(void* handle, groth16_proof proofs[]);

/** Frees a pending handle without finishing it (waits for work that still reads its buffers). NULL is
 *  a no-op. */
void destroy_pending_proof(void* handle);

#ifdef __cplusplus
}
#endif

#endif /* CUZK_SUPRASEAL_C2_H */
