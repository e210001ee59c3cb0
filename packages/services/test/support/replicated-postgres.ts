/**
 * A real PostgreSQL primary and streaming replica on loopback for one test: initdb + pg_ctl for the
 * primary (wal_level=replica, replication trusted from 127.0.0.1), pg_basebackup -R for the replica,
 * a second postgres on another port. Run as the postgres user when the test runs as root (postgres
 * refuses root). Everything lives in one temp directory, removed by destroy().
 */
import { execFile } from "node:child_process";
import { appendFileSync, chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "@rpcpulse/db/testing";

const run = promisify(execFile);
const BIN = "/usr/lib/postgresql/15/bin";

export interface ReplicatedPostgres {
  primaryPort: number;
  replicaPort: number;
  /** postgres:// URL of database `name` on the primary / the replica. */
  primaryUrl(name?: string): string;
  replicaUrl(name?: string): string;
  /** Take the base backup and start the replica (after the databases the test needs exist, or not: they stream). */
  startReplica(): Promise<void>;
  /** Fast stop of the replica (immediate mode: like a crash). */
  stopReplica(): Promise<void>;
  destroy(): Promise<void>;
}

function asPostgres(file: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const root = process.getuid?.() === 0;
  return root
    ? run("runuser", ["-u", "postgres", "--", file, ...args], { timeout: 60_000 })
    : run(file, args, { timeout: 60_000 });
}

export function hasPostgresBinaries(): boolean {
  return existsSync(path.join(BIN, "initdb")) && existsSync(path.join(BIN, "pg_basebackup"));
}

export async function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), "rpcpulse-pgrepl-"));
  if (process.getuid?.() === 0) {
    const { uid, gid } = await run("id", ["-u", "postgres"]).then(async (u) => ({
      uid: Number(u.stdout.trim()),
      gid: Number((await run("id", ["-g", "postgres"])).stdout.trim()),
    }));
    chownSync(dir, uid, gid);
  }
  const primaryDir = path.join(dir, "primary");
  const replicaDir = path.join(dir, "replica");
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const serverOptions = (port: number) =>
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60 -c shared_buffers=32MB`;
  let primaryStarted = false;
  let replicaStarted = false;

  const stop = async (dataDir: string) => {
    await asPostgres(path.join(BIN, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "-w", "-t", "20", "stop"]).catch(
      () => undefined,
    );
  };
  const destroy = async () => {
    if (replicaStarted) await stop(replicaDir);
    if (primaryStarted) await stop(primaryDir);
    replicaStarted = primaryStarted = false;
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await asPostgres(path.join(BIN, "initdb"), ["-D", primaryDir, "-A", "trust", "-U", "postgres", "--no-sync"]);
    appendFileSync(path.join(primaryDir, "pg_hba.conf"), "\nhost replication all 127.0.0.1/32 trust\n");
    appendFileSync(path.join(primaryDir, "postgresql.conf"), "\nwal_level = replica\nmax_wal_senders = 4\n");
    await asPostgres(path.join(BIN, "pg_ctl"), [
      "-D",
      primaryDir,
      "-l",
      path.join(dir, "primary.log"),
      "-o",
      serverOptions(primaryPort),
      "-w",
      "-t",
      "30",
      "start",
    ]);
    primaryStarted = true;
  } catch (error) {
    await destroy();
    throw error;
  }

  const url = (port: number, name: string) => `postgresql://postgres@127.0.0.1:${port}/${name}`;
  return {
    primaryPort,
    replicaPort,
    primaryUrl: (name = "postgres") => url(primaryPort, name),
    replicaUrl: (name = "postgres") => url(replicaPort, name),
    async startReplica() {
      await asPostgres(path.join(BIN, "pg_basebackup"), [
        "-h",
        "127.0.0.1",
        "-p",
        String(primaryPort),
        "-U",
        "postgres",
        "-D",
        replicaDir,
        "-R",
        "-X",
        "stream",
        "--checkpoint=fast",
        "--no-sync",
      ]);
      await asPostgres(path.join(BIN, "pg_ctl"), [
        "-D",
        replicaDir,
        "-l",
        path.join(dir, "replica.log"),
        "-o",
        serverOptions(replicaPort),
        "-w",
        "-t",
        "30",
        "start",
      ]);
      replicaStarted = true;
    },
    async stopReplica() {
      await stop(replicaDir);
      replicaStarted = false;
    },
    destroy,
  };
}
