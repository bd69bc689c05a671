// verify_bellperson.mjs — checks bellperson-format Groth16 proofs with @noble/curves (an oracle
// independent of cuzk's own pairing and decoders).
//
// Usage:  node verify_bellperson.mjs <circuit.vk> <public.json> <proofs.bin>
//
//   circuit.vk   bellperson's VerifyingKey::write: α₁ (96 B), β₁ (96), β₂ (192), γ₂ (192), δ₁ (96),
//                δ₂ (192), u32 big-endian count, ic points (96 B each); uncompressed zcash points.
//   public.json  the public inputs (decimal strings, ONE not included): either one list, for a single
//                proof, or a list of lists, one per partition in partition order.
//   proofs.bin   192-byte proofs (A 48 ‖ B 96 ‖ C 48, compressed zcash points) concatenated in
//                partition order.
//
// Each proof must satisfy e(A, B) = e(α₁, β₂)·e(vk_x, γ₂)·e(C, δ₂), vk_x = IC₀ + Σ inputᵢ·ICᵢ.
// Exit status: 0 all proofs valid; 1 a proof is invalid or malformed (a point that does not decode,
// off the curve, outside the subgroup, or ∞); 2 bad usage or an unreadable/malformed vk or public.json.

import { readFileSync } from 'node:fs';
import { bls12_381 } from '@noble/curves/bls12-381.js';

const G1 = bls12_381.G1.Point;
const G2 = bls12_381.G2.Point;
const { Fp12, Fr } = bls12_381.fields;

class Malformed extends Error {}

/** Parses a bellperson .vk; throws Malformed naming the problem. */
export function parseVk(bytes) {
  let off = 0;
  const take = (n, what) => {
    if (off + n > bytes.length) throw new Malformed(`vk truncated reading ${what} at byte ${off}`);
    const b = bytes.subarray(off, off + n);
    off += n;
    return b;
  };
  const g1 = (what) => G1.fromBytes(take(96, what));
  const g2 = (what) => G2.fromBytes(take(192, what));
  const vk = { alpha1: g1('alpha_g1'), beta1: g1('beta_g1'), beta2: g2('beta_g2'), gamma2: g2('gamma_g2'),
               delta1: g1('delta_g1'), delta2: g2('delta_g2') };
  const c = take(4, 'the ic count');
  const n = ((c[0] << 24) | (c[1] << 16) | (c[2] << 8) | c[3]) >>> 0;
  vk.ic = [];
  for (let i = 0; i < n; i++) {
    const p = g1(`ic[${i}]`);
    if (p.equals(G1.ZERO)) throw new Malformed(`ic[${i}] is the point at infinity`);
    vk.ic.push(p);
  }
  if (off !== bytes.length) throw new Malformed(`${bytes.length - off} trailing bytes after ic`);
  if (n === 0) throw new Malformed('ic is empty');
  return vk;
}

/** Decodes one 192-byte proof (throws on a malformed point or ∞). */
export function parseProof(bytes) {
  const a = G1.fromBytes(bytes.subarray(0, 48));
  const b = G2.fromBytes(bytes.subarray(48, 144));
  const c = G1.fromBytes(bytes.subarray(144, 192));
  for (const p of [a, b, c]) if (p.is0()) throw new Error('point at infinity');
  return { a, b, c };
}

/** The pairing check for one proof; inputs are BigInts (ONE not included). */
export function verifyOne(vk, inputs, proof) {
  if (inputs.length + 1 !== vk.ic.length) return false;
  let vkx = vk.ic[0];
  inputs.forEach((s, i) => {
    if (s >= Fr.ORDER) throw new Error(`public input ${s} is not below r`);
    if (s !== 0n) vkx = vkx.add(vk.ic[i + 1].multiply(s));
  });
  const f = bls12_381.pairingBatch([
    { g1: proof.a.negate(), g2: proof.b },
    { g1: vk.alpha1, g2: vk.beta2 },
    { g1: vkx, g2: vk.gamma2 },
    { g1: proof.c, g2: vk.delta2 },
  ]);
  return Fp12.eql(f, Fp12.ONE);
}

function main(argv) {
  if (argv.length !== 3) {
    console.error('usage: node verify_bellperson.mjs <circuit.vk> <public.json> <proofs.bin>');
    return 2;
  }
  let vk, lists, proofBytes;
  try {
    vk = parseVk(readFileSync(argv[0]));
    const pub = JSON.parse(readFileSync(argv[1], 'utf8'));
    if (!Array.isArray(pub)) throw new Malformed('public.json is not a JSON array');
    lists = pub.length > 0 && Array.isArray(pub[0]) ? pub : [pub];
    lists = lists.map((l) => l.map((s) => {
      if (typeof s !== 'string' || !/^[0-9]+$/.test(s)) throw new Malformed(`bad public input ${JSON.stringify(s)}`);
      return BigInt(s);
    }));
    proofBytes = readFileSync(argv[2]);
  } catch (e) {
    console.error(`error: ${e.message}`);
    return 2;
  }
  if (proofBytes.length === 0 || proofBytes.length % 192 !== 0 || proofBytes.length / 192 !== lists.length) {
    console.error(`invalid: ${proofBytes.length} proof bytes for ${lists.length} list(s) of public inputs`);
    return 1;
  }
  for (let i = 0; i < lists.length; i++) {
    let ok;
    try {
      ok = verifyOne(vk, lists[i], parseProof(proofBytes.subarray(192 * i, 192 * (i + 1))));
    } catch (e) {
      console.error(`invalid: proof ${i}: ${e.message}`);
      return 1;
    }
    if (!ok) {
      console.error(`invalid: proof ${i} fails the pairing check`);
      return 1;
    }
  }
  console.log(`valid: ${lists.length} proof(s)`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(main(process.argv.slice(2)));
