// test_verify_bellperson.mjs — makes a bellperson .vk and valid zcash-encoded proofs from known
// scalars with @noble/curves, then checks verify_bellperson.mjs on them.
//
// Usage:  node test_verify_bellperson.mjs OUT_DIR [--compare REF_DIR]
//
// With α, β, γ, δ, the IC scalars icᵢ and public inputs known, a valid proof is A = a·G1, B = b·G2,
// C = (a·b − α·β − γ·Σ inputᵢ·icᵢ)/δ · G1 (input₀ = ONE), for any a, b: then
// e(A, B) = e(α₁, β₂)·e(vk_x, γ₂)·e(C, δ₂). Writes OUT_DIR/circuit.vk, proofs.bin (two partitions) and
// public.json (a list per partition), expects verify_bellperson.mjs to exit 0 on them and 1 on a
// flipped sign bit, a flipped x bit, a changed public input and swapped partitions. With --compare,
// the three files must equal those in REF_DIR (tests/vectors/bellperson, which the C++ suite reads):
// the committed copies can never drift from what noble makes. Everything is deterministic
// (splitmix64, seed 0xB311).

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bls12_381 } from '@noble/curves/bls12-381.js';

const here = dirname(fileURLToPath(import.meta.url));
const G1 = bls12_381.G1.Point.BASE;
const G2 = bls12_381.G2.Point.BASE;
const { Fr } = bls12_381.fields;

const M64 = (1n << 64n) - 1n;
let state = 0xb311n;
function next64() {
  state = (state + 0x9e3779b97f4a7c15n) & M64;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return z ^ (z >> 31n);
}
/** A non-zero scalar below r. */
function scalar() {
  let v = 0n;
  for (let i = 0; i < 4; i++) v = (v << 64n) | next64();
  return Fr.create(v) || 1n;
}

const [outDir, flag, refDir] = process.argv.slice(2);
if (!outDir || (flag && (flag !== '--compare' || !refDir))) {
  console.error('usage: node test_verify_bellperson.mjs OUT_DIR [--compare REF_DIR]');
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });

// Key from known toxic waste: two public inputs (ic has three points, ONE first).
const [alpha, beta, gamma, delta] = [scalar(), scalar(), scalar(), scalar()];
const ic = [scalar(), scalar(), scalar()];
const be32 = (n) => Uint8Array.of(n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
const vk = Buffer.concat([
  G1.multiply(alpha).toBytes(false), G1.multiply(beta).toBytes(false), G2.multiply(beta).toBytes(false),
  G2.multiply(gamma).toBytes(false), G1.multiply(delta).toBytes(false), G2.multiply(delta).toBytes(false),
  be32(ic.length), ...ic.map((s) => G1.multiply(s).toBytes(false)),
]);

const partitions = [[scalar(), 0n], [1n, scalar()]];
const proofs = partitions.map((inputs) => {
  const [a, b] = [scalar(), scalar()];
  const x = Fr.add(ic[0], inputs.reduce((acc, s, i) => Fr.add(acc, Fr.mul(s, ic[i + 1])), 0n));
  const c = Fr.div(Fr.sub(Fr.sub(Fr.mul(a, b), Fr.mul(alpha, beta)), Fr.mul(gamma, x)), delta);
  return Buffer.concat([G1.multiply(a).toBytes(true), G2.multiply(b).toBytes(true), G1.multiply(c).toBytes(true)]);
});
const pub = JSON.stringify(partitions.map((l) => l.map((s) => s.toString()))) + '\n';

const files = { 'circuit.vk': vk, 'proofs.bin': Buffer.concat(proofs), 'public.json': Buffer.from(pub) };
for (const [name, data] of Object.entries(files)) writeFileSync(join(outDir, name), data);

let failures = 0;
function expect(what, cond) {
  if (!cond) {
    console.error(`FAIL: ${what}`);
    failures++;
  }
}
/** Exit status of verify_bellperson.mjs on (vk, public, proofs) given as bytes. */
function verify(name, vkBytes, pubText, proofBytes) {
  const d = join(outDir, name);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'circuit.vk'), vkBytes);
  writeFileSync(join(d, 'public.json'), pubText);
  writeFileSync(join(d, 'proofs.bin'), proofBytes);
  try {
    execFileSync(process.execPath, [join(here, 'verify_bellperson.mjs'), join(d, 'circuit.vk'),
      join(d, 'public.json'), join(d, 'proofs.bin')], { stdio: 'pipe' });
    return 0;
  } catch (e) {
    return e.status;
  }
}

const all = files['proofs.bin'];
expect('valid proofs accepted', verify('valid', vk, pub, all) === 0);
expect('one partition, flat public list', verify('single', vk, JSON.stringify(partitions[1].map(String)),
  all.subarray(192, 384)) === 0);
const flipped = (byte, mask) => {
  const b = Buffer.from(all);
  b[byte] ^= mask;
  return b;
};
expect('sign bit of A flipped (−A) rejected', verify('sign', vk, pub, flipped(0, 0x20)) === 1);
expect('x bit of C in partition 1 flipped rejected', verify('xbit', vk, pub, flipped(192 + 144 + 47, 0x01)) === 1);
const otherPub = JSON.stringify([[partitions[0][0].toString(), '1'], partitions[1].map(String)]);
expect('changed public input rejected', verify('pub', vk, otherPub, all) === 1);
expect('swapped partitions rejected', verify('swap', vk, pub, Buffer.concat([proofs[1], proofs[0]])) === 1);
expect('bad usage exits 2', verify('badvk', vk.subarray(0, 100), pub, all) === 2);

if (flag === '--compare') {
  for (const [name, data] of Object.entries(files))
    expect(`${name} equals ${join(refDir, name)}`, Buffer.compare(readFileSync(join(refDir, name)), data) === 0);
}
if (failures) process.exit(1);
console.log('ok: verify_bellperson.mjs accepts the valid proofs and rejects every altered one');
