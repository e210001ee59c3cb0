/**
 * Open-addressing hash table keyed by a fixed number of 32-bit words (a 128-bit address, or
 * address + port), with three uint32 counters per key. Lives in typed arrays so counting a
 * socket never allocates; it is cleared between scans and grows by doubling.
 */
export const COL_SOCKETS = 0;
export const COL_ESTABLISHED = 1;
export const COL_TIME_WAIT = 2;
const COLS = 3;

export class AddrTable {
  readonly keyWords: number;
  private capacity: number;
  private mask: number;
  private keys: Uint32Array;
  private values: Uint32Array;
  private used: Uint8Array;
  /** Slots in insertion order, so clearing and iterating cost O(entries), not O(capacity). */
  private slots: Uint32Array;
  size = 0;

  constructor(keyWords: number, initialCapacity = 1024) {
    this.keyWords = keyWords;
    this.capacity = 1 << Math.ceil(Math.log2(Math.max(16, initialCapacity)));
    this.mask = this.capacity - 1;
    this.keys = new Uint32Array(this.capacity * keyWords);
    this.values = new Uint32Array(this.capacity * COLS);
    this.used = new Uint8Array(this.capacity);
    this.slots = new Uint32Array(this.capacity);
  }

  clear(): void {
    for (let i = 0; i < this.size; i++) {
      const s = this.slots[i]!;
      this.used[s] = 0;
      this.values[s * COLS] = 0;
      this.values[s * COLS + 1] = 0;
      this.values[s * COLS + 2] = 0;
    }
    this.size = 0;
  }

  /** Find or insert the key held in `key[0..keyWords)`; returns its slot. */
  slotOf(key: Uint32Array): number {
    if ((this.size + 1) * 2 > this.capacity) this.grow();
    const kw = this.keyWords;
    let h = 0x811c9dc5;
    for (let w = 0; w < kw; w++) h = Math.imul(h ^ key[w]!, 0x01000193) ^ (h >>> 15);
    h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
    let s = (h ^ (h >>> 16)) & this.mask;
    for (;;) {
      if (this.used[s] === 0) {
        this.used[s] = 1;
        const base = s * kw;
        for (let w = 0; w < kw; w++) this.keys[base + w] = key[w]!;
        this.slots[this.size++] = s;
        return s;
      }
      const base = s * kw;
      let same = true;
      for (let w = 0; w < kw; w++) {
        if (this.keys[base + w] !== key[w]) {
          same = false;
          break;
        }
      }
      if (same) return s;
      s = (s + 1) & this.mask;
    }
  }

  add(slot: number, col: number, n = 1): void {
    this.values[slot * COLS + col]! += n;
  }

  value(slot: number, col: number): number {
    return this.values[slot * COLS + col]!;
  }

  keyWord(slot: number, w: number): number {
    return this.keys[slot * this.keyWords + w]!;
  }

  /** The i-th occupied slot (0 <= i < size). */
  slotAt(i: number): number {
    return this.slots[i]!;
  }

  private grow(): void {
    const old = { keys: this.keys, values: this.values, slots: this.slots, size: this.size, kw: this.keyWords };
    this.capacity *= 2;
    this.mask = this.capacity - 1;
    this.keys = new Uint32Array(this.capacity * this.keyWords);
    this.values = new Uint32Array(this.capacity * COLS);
    this.used = new Uint8Array(this.capacity);
    this.slots = new Uint32Array(this.capacity);
    this.size = 0;
    const key = new Uint32Array(this.keyWords);
    for (let i = 0; i < old.size; i++) {
      const s = old.slots[i]!;
      for (let w = 0; w < old.kw; w++) key[w] = old.keys[s * old.kw + w]!;
      const ns = this.slotOf(key);
      for (let c = 0; c < COLS; c++) this.values[ns * COLS + c] = old.values[s * COLS + c]!;
    }
  }
}

/** Format a 128-bit address (four network-order words) as text; IPv4-mapped becomes dotted IPv4. */
export function formatAddress(w0: number, w1: number, w2: number, w3: number): string {
  if (w0 === 0 && w1 === 0 && w2 === 0xffff) {
    return `${w3 >>> 24}.${(w3 >>> 16) & 255}.${(w3 >>> 8) & 255}.${w3 & 255}`;
  }
  const groups = [w0 >>> 16, w0 & 0xffff, w1 >>> 16, w1 & 0xffff, w2 >>> 16, w2 & 0xffff, w3 >>> 16, w3 & 0xffff];
  // RFC 5952: compress the longest run (>= 2) of zero groups, the first one on ties.
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestLen < 2) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLen).join(":")}`;
}
