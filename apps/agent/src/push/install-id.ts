import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileDurable } from "./spool.js";

/**
 * This install's random id, kept in the state directory next to the batch sequence (`install-id`)
 * and sent with every batch (wire `installId`). The server de-duplicates batches per (node,
 * install id, batchSeq): a reinstalled agent (state directory lost, numbering back at 1) gets a
 * new id, so its new batches are never taken for replays of the old install's.
 */
const INSTALL_ID = /^[A-Za-z0-9_-]{16,64}$/;

export function readOrCreateInstallId(stateDir: string): string {
  const file = join(stateDir, "install-id");
  try {
    const existing = readFileSync(file, "utf8").trim();
    if (INSTALL_ID.test(existing)) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  // Missing or unreadable: a new id (as after a reinstall), written durably before first use.
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const id = randomBytes(16).toString("base64url");
  writeFileDurable(file, `${id}\n`);
  return id;
}
