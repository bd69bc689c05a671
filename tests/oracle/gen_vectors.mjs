// gen_vectors.mjs — independent BLS12-381 test-vector oracle for cuzk.
//
// Usage:  node gen_vectors.mjs OUT.json        (normally OUT = ../vectors/noble.json)
//
// Produces one deterministic JSON file of known-answer vectors computed with
// @noble/curves (pinned 2.4.0) as the reference implementation:
//   fp, fr            — add/sub/mul/sqr/neg/inv/legendre/sqrt/pow, random + edge cases
//   fp2, fp6, fp12    — tower arithmetic, inverses, Frobenius maps, conjugation, Fp2 sqrt
//   fp12_final_exp    — noble's finalExponentiate on random Fp12 elements
//   fr_roots          — 2^k-th roots of unity  g^((r-1)/2^k), k = 1..32, for g = 7 and g = 5
//   g1, g2            — scalar multiples, add/dbl/neg/sub, zcash compressed/uncompressed encodings
//   g1_gen, g2_gen    — generators
//   pairing           — full pairing e(P,Q) and the Miller-loop value before final exponentiation
//   bad_encodings     — byte strings that noble's Point.fromHex rejects (each one verified here)
//
// Conventions worth knowing (verified by self-checks below):
//   * Fp12.finalExponentiate(f) = f^(3·(p^12-1)/r) — the CUBE of the textbook reduced pairing
//     (Hayashida–Hayasaka–Teruya hard part, as in arkworks/gnark). "pairing[].e" and
//     "fp12_final_exp[].fe" use this convention.
//   * "pairing[].ml" = bls12_381.pairing(P, Q, false): noble's Miller-loop value, already
//     conjugated (x < 0). It depends on noble's line scaling; only finalExp(ml) is canonical.
//   * sqrt values are whatever root noble returns; consumers should accept either sign.
//
// Format: every integer is lowercase big-endian hex without 0x, fixed width (Fp 96 chars,
// Fr 64 chars), canonical (not Montgomery). Fp2 = [c0,c1] (c0 + c1·u, u² = -1);
// Fp6 = [c0,c1,c2] over Fp2 (v³ = u+1); Fp12 = [c0,c1] over Fp6 (w² = v). Affine points
// are {"x","y"} or the string "inf".
//
// All "random" inputs come from a seeded splitmix64 generator (seed 0xC0FFEE), so the
// output is byte-identical on every run. All the mathematics is done by noble; this
// script only draws inputs, calls noble, checks noble against itself and formats JSON.

import { writeFileSync } from 'node:fs';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { FpLegendre } from '@noble/curves/abstract/modular.js';

const { Fp, Fp2, Fp6, Fp12, Fr } = bls12_381.fields;
const G1 = bls12_381.G1.Point;
const G2 = bls12_381.G2.Point;
const P_MOD = Fp.ORDER;
const R_MOD = Fr.ORDER;

function check(cond, msg) {
  if (!cond) throw new Error('self-check failed: ' + msg);
}

// ---------------------------------------------------------------- deterministic PRNG
const M64 = (1n << 64n) - 1n;
let prngState = 0xc0ffeen;
function next64() {
  prngState = (prngState + 0x9e3779b97f4a7c15n) & M64;
  let z = prngState;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
  return z ^ (z >> 31n);
}
function randBits(nbits) {
  let v = 0n;
  for (let i = 0; i < Math.ceil(nbits / 64); i++) v = (v << 64n) | next64();
  return v & ((1n << BigInt(nbits)) - 1n);
}
// 64 extra bits before reduction keep the bias negligible.
const randFp = () => Fp.create(randBits(448));
const randFr = () => Fr.create(randBits(320));
const randFrNonZero = () => {
  for (;;) {
    const k = randFr();
    if (k !== 0n) return k;
  }
};
const randExp = () => randBits(256); // an Fr-width (256-bit) exponent, not reduced
const randFp2 = () => Fp2.create({ c0: randFp(), c1: randFp() });
const randFp6 = () => Fp6.create({ c0: randFp2(), c1: randFp2(), c2: randFp2() });
const randFp12 = () => Fp12.create({ c0: randFp6(), c1: randFp6() });

// ---------------------------------------------------------------- formatting
const hexN = (v, chars) => {
  check(typeof v === 'bigint' && v >= 0n, 'hexN: non-negative bigint');
  const s = v.toString(16);
  check(s.length <= chars, 'hexN: value too wide');
  return s.padStart(chars, '0');
};
const hFp = (v) => hexN(v, 96);
const hFr = (v) => hexN(v, 64);
const hFp2 = (a) => [hFp(a.c0), hFp(a.c1)];
const hFp6 = (a) => [hFp2(a.c0), hFp2(a.c1), hFp2(a.c2)];
const hFp12 = (a) => [hFp6(a.c0), hFp6(a.c1)];
const hG1 = (P) => {
  if (P.is0()) return 'inf';
  const { x, y } = P.toAffine();
  return { x: hFp(x), y: hFp(y) };
};
const hG2 = (P) => {
  if (P.is0()) return 'inf';
  const { x, y } = P.toAffine();
  return { x: hFp2(x), y: hFp2(y) };
};
const bytesHex = (u8) => Buffer.from(u8).toString('hex');

const tryOr = (fn, fallback) => {
  try {
    return fn();
  } catch {
    return fallback;
  }
};

// ---------------------------------------------------------------- prime fields (Fp, Fr)
function primeFieldCase(F, hex, a, b, e) {
  const leg = FpLegendre(F, a);
  let sqrt = null;
  if (leg !== -1) {
    sqrt = F.sqrt(a);
    check(F.eql(F.sqr(sqrt), a), 'sqrt squares back');
  } else {
    check(tryOr(() => F.sqrt(a), 'threw') === 'threw', 'sqrt of non-residue must fail');
  }
  const inv = F.is0(a) ? null : F.inv(a);
  if (inv !== null) check(F.eql(F.mul(a, inv), F.ONE), 'inv');
  return {
    a: hex(a),
    b: hex(b),
    add: hex(F.add(a, b)),
    sub: hex(F.sub(a, b)),
    mul: hex(F.mul(a, b)),
    sqr: hex(F.sqr(a)),
    neg: hex(F.neg(a)),
    inv: inv === null ? null : hex(inv),
    legendre: leg,
    sqrt: sqrt === null ? null : hex(sqrt),
    e: hFr(e),
    pow: hex(F.pow(a, e)),
  };
}

function primeFieldCases(F, hex, edges, nRandom) {
  const out = [];
  let i = 0;
  const edgeExps = [0n, 1n, 2n, R_MOD - 1n];
  for (const a of edges)
    for (const b of edges) {
      const e = i < edgeExps.length ? edgeExps[i] : randExp();
      out.push(primeFieldCase(F, hex, a, b, e));
      i++;
    }
  for (let j = 0; j < nRandom; j++) {
    const a = F.create(randBits(F === Fp ? 448 : 320));
    const b = F.create(randBits(F === Fp ? 448 : 320));
    out.push(primeFieldCase(F, hex, a, b, randExp()));
  }
  return out;
}

// ---------------------------------------------------------------- extension fields
const fp2Conj = (a) => Fp2.create({ c0: a.c0, c1: Fp.neg(a.c1) });

function fp2Case(a, b) {
  let sqrt = null;
  try {
    sqrt = Fp2.sqrt(a);
    check(Fp2.eql(Fp2.sqr(sqrt), a), 'fp2 sqrt squares back');
  } catch (err) {
    // noble throws for non-squares; confirm a really is a non-square: a^((p²-1)/2) = -1
    check(Fp2.eql(Fp2.pow(a, (Fp2.ORDER - 1n) / 2n), Fp2.neg(Fp2.ONE)), 'fp2 non-square');
  }
  const frob1 = Fp2.frobeniusMap(a, 1);
  check(Fp2.eql(frob1, Fp2.pow(a, P_MOD)), 'fp2 frob1 = a^p');
  return {
    a: hFp2(a),
    b: hFp2(b),
    add: hFp2(Fp2.add(a, b)),
    sub: hFp2(Fp2.sub(a, b)),
    mul: hFp2(Fp2.mul(a, b)),
    sqr: hFp2(Fp2.sqr(a)),
    neg: hFp2(Fp2.neg(a)),
    conj: hFp2(fp2Conj(a)),
    inv: Fp2.is0(a) ? null : hFp2(Fp2.inv(a)),
    frob1: hFp2(frob1),
    sqrt: sqrt === null ? null : hFp2(sqrt),
  };
}

function fp6Case(a, b) {
  const inv = Fp6.inv(a);
  check(Fp6.eql(Fp6.mul(a, inv), Fp6.ONE), 'fp6 inv');
  const f1 = Fp6.frobeniusMap(a, 1);
  check(Fp6.eql(f1, Fp6.pow(a, P_MOD)), 'fp6 frob1 = a^p');
  return {
    a: hFp6(a),
    b: hFp6(b),
    add: hFp6(Fp6.add(a, b)),
    sub: hFp6(Fp6.sub(a, b)),
    mul: hFp6(Fp6.mul(a, b)),
    sqr: hFp6(Fp6.sqr(a)),
    inv: hFp6(inv),
    frob1: hFp6(f1),
    frob2: hFp6(Fp6.frobeniusMap(a, 2)),
    frob3: hFp6(Fp6.frobeniusMap(a, 3)),
  };
}

function fp12Case(a, b) {
  const inv = Fp12.inv(a);
  check(Fp12.eql(Fp12.mul(a, inv), Fp12.ONE), 'fp12 inv');
  const f1 = Fp12.frobeniusMap(a, 1);
  check(Fp12.eql(f1, Fp12.pow(a, P_MOD)), 'fp12 frob1 = a^p');
  const f6 = Fp12.frobeniusMap(a, 6);
  check(Fp12.eql(f6, Fp12.conjugate(a)), 'fp12 frob6 = conj');
  return {
    a: hFp12(a),
    b: hFp12(b),
    add: hFp12(Fp12.add(a, b)),
    sub: hFp12(Fp12.sub(a, b)),
    mul: hFp12(Fp12.mul(a, b)),
    sqr: hFp12(Fp12.sqr(a)),
    inv: hFp12(inv),
    frob1: hFp12(f1),
    frob2: hFp12(Fp12.frobeniusMap(a, 2)),
    frob3: hFp12(Fp12.frobeniusMap(a, 3)),
    frob6: hFp12(f6),
    conj: hFp12(Fp12.conjugate(a)),
  };
}

// ---------------------------------------------------------------- groups
function groupCase(Pt, hPt, k, P, Q) {
  if (k !== null && k !== 0n) check(Pt.BASE.multiply(k).equals(P), 'multiply == multiplyUnsafe');
  const Pc = P.toHex(true);
  const Pu = P.toHex(false);
  check(Pt.fromHex(Pc).equals(P) && Pt.fromHex(Pu).equals(P), 'encoding round trip');
  const add = P.add(Q);
  const sub = P.subtract(Q);
  check(sub.add(Q).equals(P), 'sub');
  return {
    k: hFr(k),
    P: hPt(P),
    Pc,
    Pu,
    Q: hPt(Q),
    add: hPt(add),
    dbl: hPt(P.double()),
    neg: hPt(P.negate()),
    sub: hPt(sub),
  };
}

function groupCases(Pt, hPt) {
  const B = Pt.BASE;
  const out = [];
  const ks = [0n, 1n, 2n, R_MOD - 1n, 3n, (R_MOD - 1n) / 2n];
  while (ks.length < 17) ks.push(randFrNonZero());
  for (const k of ks) {
    const P = B.multiplyUnsafe(k);
    const Q = B.multiplyUnsafe(randFrNonZero());
    out.push(groupCase(Pt, hPt, k, P, Q));
  }
  // Q = P (add must fall through to doubling), Q = -P (result infinity), Q = infinity
  {
    const k = randFrNonZero();
    const P = B.multiplyUnsafe(k);
    out.push(groupCase(Pt, hPt, k, P, P));
    const c = groupCase(Pt, hPt, k, P, P.negate());
    check(c.add === 'inf', 'P + (-P) = inf');
    out.push(c);
    out.push(groupCase(Pt, hPt, k, P, Pt.ZERO));
  }
  return out;
}

const genEntry = (Pt, hPt) => ({ ...hPt(Pt.BASE), c: Pt.BASE.toHex(true), u: Pt.BASE.toHex(false) });

// ---------------------------------------------------------------- pairing
function pairingCase(P, Q) {
  const e = bls12_381.pairing(P, Q); // with final exponentiation
  const ml = bls12_381.pairing(P, Q, false); // Miller loop only (incl. conjugation for x < 0)
  check(Fp12.eql(Fp12.finalExponentiate(ml), e), 'finalExp(ml) == e');
  return { P: hG1(P), Q: hG2(Q), e: hFp12(e), ml: hFp12(ml) };
}

// ---------------------------------------------------------------- bad encodings
const numBE = (v, len) => {
  const out = new Uint8Array(len);
  for (let i = len - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  check(v === 0n, 'numBE overflow');
  return out;
};
const cat = (...parts) => {
  const n = parts.reduce((s, p) => s + p.length, 0);
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};
// zcash/blst flag bits live in the top 3 bits of byte 0
const F_COMP = 0x80, F_INF = 0x40, F_SORT = 0x20;
const withFlags = (bytes, flags) => {
  const b = Uint8Array.from(bytes);
  b[0] |= flags;
  return b;
};
const largerY = (y) => y > (P_MOD - 1n) / 2n; // "lexicographically largest" per zcash format
const enc1 = (x) => numBE(x, 48);
const enc2 = (x) => cat(numBE(x.c1, 48), numBE(x.c0, 48)); // c1 first, as in zcash format
const sortBitG2 = (y) => (y.c1 !== 0n ? largerY(y.c1) : largerY(y.c0));
const B1 = 4n;
const B2 = Fp2.create({ c0: 4n, c1: 4n });
const rhs1 = (x) => Fp.add(Fp.mul(Fp.sqr(x), x), B1);
const rhs2 = (x) => Fp2.add(Fp2.mul(Fp2.sqr(x), x), B2);

function collectBadEncodings() {
  const out = [];
  const seen = new Set();
  const add = (group, bytes, why, extra = {}) => {
    const hex = bytesHex(bytes);
    const Pt = group === 'g1' ? G1 : G2;
    let rejected = false;
    let msg = '';
    try {
      Pt.fromHex(hex);
    } catch (err) {
      rejected = true;
      msg = String(err && err.message);
    }
    if (!rejected) {
      process.stderr.write(`note: noble ACCEPTED ${group} "${why}" — not recorded\n`);
      return;
    }
    if (extra.on_curve) check(/subgroup/.test(msg), `${why}: rejected for subgroup reason (got "${msg}")`);
    const key = group + ':' + hex;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ group, hex, why, ...extra });
  };

  // A valid G1 point whose x (and y) is small enough that x + p still fits in 381 bits.
  const LIM = (1n << 381n) - P_MOD;
  let Psmall = null;
  while (Psmall === null) {
    const P = G1.BASE.multiplyUnsafe(randFrNonZero());
    const { x, y } = P.toAffine();
    if (x < LIM && y < LIM) Psmall = P;
  }
  const P1 = G1.BASE.multiplyUnsafe(randFrNonZero());
  const a1 = P1.toAffine();
  const c1 = P1.toBytes(true);
  const u1 = P1.toBytes(false);
  const { x: sx, y: sy } = Psmall.toAffine();
  const sflag = largerY(sy) ? F_SORT : 0;

  // --- G1: flags
  add('g1', Uint8Array.from(c1).map((b, i) => (i === 0 ? b & ~F_COMP : b)), 'compression flag unset on a 48-byte string');
  add('g1', withFlags(numBE(1n, 48), F_COMP | F_INF), 'compressed infinity flag with non-zero payload');
  add('g1', withFlags(enc1(a1.x), F_COMP | F_INF), 'compressed infinity flag on a valid x');
  add('g1', withFlags(new Uint8Array(48), F_COMP | F_INF | F_SORT), 'compressed infinity with sort bit set');
  add('g1', withFlags(cat(new Uint8Array(95), Uint8Array.of(1)), F_INF), 'uncompressed infinity flag with non-zero payload');
  add('g1', withFlags(new Uint8Array(96), F_INF | F_SORT), 'uncompressed infinity with sort bit set');
  add('g1', withFlags(u1, F_SORT), 'uncompressed valid point with sort bit set');
  add('g1', withFlags(u1, F_COMP), 'compression flag set on a 96-byte string');
  add('g1', new Uint8Array(96), 'uncompressed all-zero (0,0) without infinity flag');
  add('g1', withFlags(new Uint8Array(48), F_INF), 'infinity flag without compression flag, 48 bytes');
  // --- G1: non-canonical coordinates
  add('g1', withFlags(enc1(P_MOD), F_COMP), 'compressed x = p (non-canonical encoding of x = 0)');
  add('g1', withFlags(enc1(sx + P_MOD), F_COMP | sflag), 'compressed x + p of a valid point (x >= p)');
  add('g1', cat(enc1(sx + P_MOD), enc1(sy)), 'uncompressed x + p of a valid point (x >= p)');
  add('g1', cat(enc1(sx), enc1(sy + P_MOD)), 'uncompressed y + p of a valid point (y >= p)');
  // --- G1: not on curve
  {
    let x = randFp();
    while (FpLegendre(Fp, rhs1(x)) !== -1) x = randFp();
    add('g1', withFlags(enc1(x), F_COMP), 'compressed x with x^3+4 a non-square (no y)');
    add('g1', withFlags(enc1(x), F_COMP | F_SORT), 'compressed x with x^3+4 a non-square, sort bit set');
  }
  add('g1', cat(enc1(a1.x), enc1(Fp.add(a1.y, 1n))), 'uncompressed (x, y+1) of a valid point: off curve');
  add('g1', cat(enc1(a1.x), enc1(0n)), 'uncompressed (x, 0): off curve');
  // --- G1: on curve, not in the r-order subgroup
  for (let n = 0; n < 2; n++) {
    let x = n === 0 ? 0n : randFp(); // x = 0 gives (0, ±2)
    while (FpLegendre(Fp, rhs1(x)) !== 1) x = randFp();
    const y = Fp.sqrt(rhs1(x));
    check(Fp.eql(Fp.sqr(y), rhs1(x)), 'off-subgroup point on curve');
    const Pbad = G1.fromAffine({ x, y });
    check(!Pbad.isTorsionFree(), 'point is outside the r-order subgroup');
    const tag = n === 0 ? ' (x = 0)' : '';
    add('g1', withFlags(enc1(x), F_COMP | (largerY(y) ? F_SORT : 0)), 'compressed point on curve but not in G1 subgroup' + tag, { on_curve: true });
    add('g1', cat(enc1(x), enc1(y)), 'uncompressed point on curve but not in G1 subgroup' + tag, { on_curve: true });
  }
  // --- G1: wrong lengths
  add('g1', c1.subarray(0, 47), 'compressed, truncated to 47 bytes');
  add('g1', cat(c1, Uint8Array.of(0)), 'compressed, 49 bytes');
  add('g1', u1.subarray(0, 95), 'uncompressed, truncated to 95 bytes');
  add('g1', cat(u1, Uint8Array.of(0)), 'uncompressed, 97 bytes');
  add('g1', Uint8Array.of(0), 'single zero byte (SEC1 infinity)');

  // --- G2
  let Q2small = null;
  while (Q2small === null) {
    const Q = G2.BASE.multiplyUnsafe(randFrNonZero());
    const { x, y } = Q.toAffine();
    if (x.c1 < LIM && y.c1 < LIM) Q2small = Q;
  }
  const Q2 = G2.BASE.multiplyUnsafe(randFrNonZero());
  const a2 = Q2.toAffine();
  const c2 = Q2.toBytes(true);
  const u2 = Q2.toBytes(false);
  const { x: tx, y: ty } = Q2small.toAffine();
  const tflag = sortBitG2(ty) ? F_SORT : 0;

  add('g2', Uint8Array.from(c2).map((b, i) => (i === 0 ? b & ~F_COMP : b)), 'compression flag unset on a 96-byte string');
  add('g2', withFlags(cat(new Uint8Array(95), Uint8Array.of(1)), F_COMP | F_INF), 'compressed infinity flag with non-zero payload');
  add('g2', withFlags(new Uint8Array(96), F_COMP | F_INF | F_SORT), 'compressed infinity with sort bit set');
  add('g2', withFlags(new Uint8Array(192), F_INF | F_SORT), 'uncompressed infinity with sort bit set');
  add('g2', withFlags(cat(new Uint8Array(191), Uint8Array.of(1)), F_INF), 'uncompressed infinity flag with non-zero payload');
  add('g2', withFlags(u2, F_COMP), 'compression flag set on a 192-byte string');
  add('g2', new Uint8Array(192), 'uncompressed all-zero (0,0) without infinity flag');
  add('g2', withFlags(cat(numBE(tx.c1 + P_MOD, 48), numBE(tx.c0, 48)), F_COMP | tflag), 'compressed x.c1 + p (x.c1 >= p)');
  add('g2', withFlags(cat(numBE(tx.c1, 48), numBE(tx.c0 + P_MOD, 48)), F_COMP | tflag), 'compressed x.c0 + p (x.c0 >= p)');
  add('g2', cat(enc2(tx), numBE(ty.c1, 48), numBE(ty.c0 + P_MOD, 48)), 'uncompressed y.c0 + p (y.c0 >= p)');
  add('g2', cat(enc2(a2.x), enc2(Fp2.add(a2.y, Fp2.ONE))), 'uncompressed (x, y+1) of a valid point: off curve');
  {
    let x = randFp2();
    while (tryOr(() => Fp2.sqrt(rhs2(x)), null) !== null) x = randFp2();
    add('g2', withFlags(enc2(x), F_COMP), 'compressed x with x^3+4(u+1) a non-square (no y)');
  }
  {
    let y = null;
    let x = null;
    while (y === null) {
      x = randFp2();
      y = tryOr(() => Fp2.sqrt(rhs2(x)), null);
    }
    check(Fp2.eql(Fp2.sqr(y), rhs2(x)), 'G2 off-subgroup point on curve');
    const Qbad = G2.fromAffine({ x, y });
    check(!Qbad.isTorsionFree(), 'G2 point is outside the r-order subgroup');
    add('g2', withFlags(enc2(x), F_COMP | (sortBitG2(y) ? F_SORT : 0)), 'compressed point on curve but not in G2 subgroup', { on_curve: true });
    add('g2', cat(enc2(x), enc2(y)), 'uncompressed point on curve but not in G2 subgroup', { on_curve: true });
  }
  add('g2', c2.subarray(0, 95), 'compressed, truncated to 95 bytes');
  add('g2', u2.subarray(0, 191), 'uncompressed, 191 bytes');
  add('g2', c1, 'a valid compressed G1 encoding (48 bytes) given to G2');
  return out;
}

// ---------------------------------------------------------------- main
function main() {
  const outPath = process.argv[2];
  if (!outPath) {
    process.stderr.write('usage: node gen_vectors.mjs OUT.json\n');
    process.exit(2);
  }
  const doc = {};

  const fpEdges = [0n, 1n, 2n, P_MOD - 1n, (P_MOD - 1n) / 2n, (P_MOD + 1n) / 2n];
  doc.fp = primeFieldCases(Fp, hFp, fpEdges, 40);
  const frEdges = [0n, 1n, 2n, R_MOD - 1n, (R_MOD - 1n) / 2n];
  doc.fr = primeFieldCases(Fr, hFr, frEdges, 40);

  {
    const U = Fp2.create({ c0: 0n, c1: 1n });
    const edges = [Fp2.ZERO, Fp2.ONE, U, Fp2.neg(Fp2.ONE)];
    const cases = [];
    for (const a of edges) for (const b of edges) cases.push(fp2Case(a, b));
    for (let i = 0; i < 20; i++) cases.push(fp2Case(randFp2(), randFp2()));
    doc.fp2 = cases;
  }
  doc.fp6 = Array.from({ length: 10 }, () => fp6Case(randFp6(), randFp6()));
  doc.fp12 = Array.from({ length: 10 }, () => fp12Case(randFp12(), randFp12()));
  doc.fp12_final_exp = Array.from({ length: 3 }, () => {
    const a = randFp12();
    const fe = Fp12.finalExponentiate(a);
    check(Fp12.eql(fe, Fp12.pow(a, (3n * (P_MOD ** 12n - 1n)) / R_MOD)), 'finalExp = a^(3(p^12-1)/r)');
    return { a: hFp12(a), fe: hFp12(fe) };
  });

  const roots = (g) => {
    const out = [];
    for (let k = 1; k <= 32; k++) out.push(hFr(Fr.pow(g, (R_MOD - 1n) / (1n << BigInt(k)))));
    return out;
  };
  doc.fr_roots = { gen7: roots(7n), gen5: roots(5n) };

  doc.g1 = groupCases(G1, hG1);
  doc.g2 = groupCases(G2, hG2);
  doc.g1_gen = genEntry(G1, hG1);
  doc.g2_gen = genEntry(G2, hG2);

  {
    const a = randFrNonZero();
    doc.pairing = [
      pairingCase(G1.BASE, G2.BASE),
      pairingCase(G1.BASE.multiplyUnsafe(a), G2.BASE),
      pairingCase(G1.BASE, G2.BASE.multiplyUnsafe(a)), // same e as the previous case
      pairingCase(G1.BASE.multiplyUnsafe(randFrNonZero()), G2.BASE.multiplyUnsafe(randFrNonZero())),
      pairingCase(G1.BASE.multiplyUnsafe(randFrNonZero()), G2.BASE.multiplyUnsafe(randFrNonZero())),
    ];
    check(doc.pairing[1].e.join() === doc.pairing[2].e.join(), 'bilinearity e(aP,Q) = e(P,aQ)');
  }

  doc.bad_encodings = collectBadEncodings();

  // One case per line: compact yet diff-friendly.
  const parts = Object.entries(doc).map(([k, v]) => {
    if (Array.isArray(v)) return JSON.stringify(k) + ': [\n' + v.map((c) => JSON.stringify(c)).join(',\n') + '\n]';
    return JSON.stringify(k) + ': ' + JSON.stringify(v);
  });
  writeFileSync(outPath, '{\n' + parts.join(',\n') + '\n}\n');
}

main();
