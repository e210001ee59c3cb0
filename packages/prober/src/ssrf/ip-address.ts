import { isIPv4, isIPv6 } from "node:net";

/** Parses a canonical dotted-quad IPv4 address (as `net.isIPv4` accepts it) into an unsigned 32-bit number. */
export function parseIPv4(text: string): number | null {
  if (!isIPv4(text)) return null;
  const parts = text.split(".");
  let value = 0;
  for (const part of parts) value = value * 256 + Number(part);
  return value >>> 0;
}

export function formatIPv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".");
}

/**
 * Parses an IPv6 address (with an optional zone id `%eth0` and an optional embedded dotted-quad tail)
 * into 16 bytes. Returns null for anything `net.isIPv6` rejects.
 */
export function parseIPv6(text: string): Uint8Array | null {
  const unzoned = text.includes("%") ? text.slice(0, text.indexOf("%")) : text;
  if (!isIPv6(unzoned)) return null;
  let head = unzoned;
  const tailWords: number[] = [];
  const lastColon = head.lastIndexOf(":");
  const tail = head.slice(lastColon + 1);
  if (tail.includes(".")) {
    const v4 = parseIPv4(tail);
    if (v4 === null) return null;
    tailWords.push(v4 >>> 16, v4 & 0xffff);
    head = head.slice(0, lastColon + 1) + "0"; // placeholder word, removed below
  }
  const [left = "", right] = head.split("::");
  const parseWords = (s: string): number[] => (s === "" ? [] : s.split(":").map((w) => parseInt(w, 16)));
  let leftWords = parseWords(left);
  let rightWords = right === undefined ? [] : parseWords(right);
  if (tailWords.length) {
    if (right === undefined) leftWords = leftWords.slice(0, -1);
    else rightWords = rightWords.slice(0, -1);
  }
  const fixed = [...leftWords, ...(right === undefined ? tailWords : [])];
  const end = right === undefined ? [] : [...rightWords, ...tailWords];
  const zeros = 8 - fixed.length - end.length;
  if (zeros < 0 || (right === undefined && zeros !== 0)) return null;
  const words = [...fixed, ...new Array<number>(zeros).fill(0), ...end];
  const bytes = new Uint8Array(16);
  words.forEach((w, i) => {
    bytes[i * 2] = (w >>> 8) & 255;
    bytes[i * 2 + 1] = w & 255;
  });
  return bytes;
}

export function formatIPv6(bytes: Uint8Array): string {
  const words: string[] = [];
  for (let i = 0; i < 16; i += 2) words.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  return words.join(":");
}

/** True when the first `bits` bits of `bytes` equal those of `prefix`. */
export function matchesPrefix(bytes: Uint8Array, prefix: Uint8Array, bits: number): boolean {
  for (let i = 0; i < 16 && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** The IPv4 address in bytes [offset, offset+4) of an IPv6 address. */
export function embeddedIPv4(bytes: Uint8Array, offset: number): number {
  return (
    (((bytes[offset] ?? 0) << 24) |
      ((bytes[offset + 1] ?? 0) << 16) |
      ((bytes[offset + 2] ?? 0) << 8) |
      (bytes[offset + 3] ?? 0)) >>>
    0
  );
}
