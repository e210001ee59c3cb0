import { createHash } from "node:crypto";

/** A seeded pseudo-random source (mulberry32); same seed, same sequence. */
export interface Random {
  next(): number;
  int(maxExclusive: number): number;
}

export function createRandom(seed: string): Random {
  let state = createHash("sha256").update(seed).digest().readUInt32BE(0);
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (maxExclusive) => Math.floor(next() * maxExclusive) };
}

/** SHA-256 of the joined parts: the one source of every deterministic byte simnet makes up. */
export function digestParts(...parts: Array<string | number>): Buffer {
  return createHash("sha256").update(parts.join("|")).digest();
}

/** `bytes` deterministic bytes (any length) derived from the parts. */
export function deriveBytes(bytes: number, ...parts: Array<string | number>): Buffer {
  const chunks: Buffer[] = [];
  for (let i = 0; chunks.length * 32 < bytes; i += 1) chunks.push(digestParts(...parts, `#${i}`));
  return Buffer.concat(chunks).subarray(0, bytes);
}

export function deriveHex(bytes: number, ...parts: Array<string | number>): string {
  return `0x${deriveBytes(bytes, ...parts).toString("hex")}`;
}

/** A deterministic integer in [0, maxExclusive) derived from the parts. */
export function deriveInt(maxExclusive: number, ...parts: Array<string | number>): number {
  return digestParts(...parts).readUInt32BE(0) % maxExclusive;
}
