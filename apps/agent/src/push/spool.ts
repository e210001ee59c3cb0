import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";

/**
 * On-disk queue of gzip'd batches, one file per batch named by its batchSeq, replayed oldest
 * first. Every write is "write temp file, fsync, rename, fsync directory", so once enqueue()
 * returns the batch survives kill -9 and power loss. Bounded by total size and age: the oldest
 * batches are dropped first and counted.
 */
export interface SpoolOptions {
  dir: string;
  maxBytes: number;
  maxAgeMs: number;
}

export interface SpoolEntry {
  seq: number;
  path: string;
  bytes: number;
  mtimeMs: number;
}

const NAME = /^(\d{16})\.json\.gz$/;

function fsyncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Durable small-file write: temp file + fsync + rename + fsync of the directory. */
export function writeFileDurable(path: string, data: Buffer | string): void {
  const dir = join(path, "..");
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, "w", 0o600);
  try {
    const buf = typeof data === "string" ? Buffer.from(data) : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  fsyncDir(dir);
}

export class Spool {
  private entries: SpoolEntry[] = [];
  /** Batches dropped by the size/age bounds since start. */
  dropped = 0;
  private readonly seqFile: string;
  private lastSeq = 0;

  constructor(private readonly options: SpoolOptions) {
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    this.seqFile = join(options.dir, "..", "batch-seq");
    for (const name of readdirSync(options.dir)) {
      const m = NAME.exec(name);
      if (!m) {
        if (name.includes(".tmp-")) unlinkSync(join(options.dir, name)); // never renamed: not flushed
        continue;
      }
      const path = join(options.dir, name);
      const st = statSync(path);
      this.entries.push({ seq: Number(m[1]), path, bytes: st.size, mtimeMs: st.mtimeMs });
    }
    this.entries.sort((a, b) => a.seq - b.seq);
    let persisted = 0;
    try {
      persisted = Number.parseInt(readFileSync(this.seqFile, "utf8").trim(), 10) || 0;
    } catch {
      persisted = 0;
    }
    this.lastSeq = Math.max(persisted, this.entries.at(-1)?.seq ?? 0);
  }

  /** Reserve the next batchSeq; persisted before the batch is written, so a number is never reused. */
  nextSeq(): number {
    this.lastSeq += 1;
    writeFileDurable(this.seqFile, `${this.lastSeq}\n`);
    return this.lastSeq;
  }

  enqueue(seq: number, gz: Buffer, nowMs = Date.now()): void {
    const path = join(this.options.dir, `${String(seq).padStart(16, "0")}.json.gz`);
    writeFileDurable(path, gz);
    this.entries.push({ seq, path, bytes: gz.length, mtimeMs: nowMs });
    this.entries.sort((a, b) => a.seq - b.seq);
    this.enforceBounds(nowMs);
  }

  /** Drop the oldest entries beyond the age or size bound; returns how many were dropped. */
  enforceBounds(nowMs = Date.now()): number {
    let dropped = 0;
    let total = this.totalBytes();
    while (this.entries.length > 0) {
      const oldest = this.entries[0]!;
      const tooOld = nowMs - oldest.mtimeMs > this.options.maxAgeMs;
      if (!tooOld && total <= this.options.maxBytes) break;
      this.remove(oldest.seq);
      total -= oldest.bytes;
      dropped++;
    }
    this.dropped += dropped;
    return dropped;
  }

  oldest(): SpoolEntry | undefined {
    return this.entries[0];
  }

  read(entry: SpoolEntry): Buffer {
    return readFileSync(entry.path);
  }

  remove(seq: number): void {
    const i = this.entries.findIndex((e) => e.seq === seq);
    if (i < 0) return;
    const [entry] = this.entries.splice(i, 1);
    try {
      unlinkSync(entry!.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }

  get size(): number {
    return this.entries.length;
  }

  totalBytes(): number {
    return this.entries.reduce((n, e) => n + e.bytes, 0);
  }
}
