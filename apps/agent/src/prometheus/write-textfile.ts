import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Write a node_exporter textfile-collector file atomically: a temporary file in the same
 * directory (node_exporter only reads `*.prom`, so the `.tmp` name is never collected), fsync'd,
 * then renamed over the target, then the directory fsync'd so the rename survives a crash.
 * A reader sees the old file or the new one, never a partial one.
 */
export function writeTextfileAtomically(path: string, content: string): void {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.tmp`);
  const fd = openSync(tmp, "w", 0o644);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw error;
  }
  closeSync(fd);
  renameSync(tmp, path);
  try {
    const dirFd = openSync(dir, "r");
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // some filesystems refuse fsync on a directory; the rename itself is still atomic
  }
}
