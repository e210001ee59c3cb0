import { statfsSync } from "node:fs";
import type { DiskInfo } from "@rpcpulse/domain";
import { errorMessage } from "./proc-files.js";

/** statfs of each configured data directory and /dev/shm (hived's shared_memory.bin often lives there). */
export function collectDisks(paths: readonly string[]): DiskInfo[] {
  return paths.slice(0, 32).map((path) => {
    try {
      const s = statfsSync(path);
      return {
        path,
        totalBytes: s.blocks * s.bsize,
        freeBytes: s.bfree * s.bsize,
        availableBytes: s.bavail * s.bsize,
        inodesTotal: s.files,
        inodesFree: s.ffree,
        error: null,
      };
    } catch (error) {
      return {
        path,
        totalBytes: null,
        freeBytes: null,
        availableBytes: null,
        inodesTotal: null,
        inodesFree: null,
        error: errorMessage(error),
      };
    }
  });
}
