import { execFile } from "node:child_process";
import { chownSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const BIN = "/usr/lib/postgresql/15/bin";

/**
 * A PostgreSQL 15 cluster of the test's own (initdb into a temp dir, pg_ctl on a free loopback
 * port), so a test can stop and start "the database" without touching the machine's shared server.
 * initdb refuses to run as root: then every command runs as the `postgres` OS user (runuser).
 */
export class ThrowawayPostgres {
  readonly dir = mkdtempSync(path.join(tmpdir(), "rpcpulse-pg-"));
  private readonly data = path.join(this.dir, "data");
  private readonly asRoot = process.getuid?.() === 0;
  private started = false;

  constructor(readonly port: number) {
    if (this.asRoot) {
      const { uid, gid } = postgresUser();
      chownSync(this.dir, uid, gid);
    }
  }

  /** postgresql://postgres@127.0.0.1:<port>/<database> */
  url(database = "postgres"): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${database}`;
  }

  private exec(command: string, args: string[]) {
    const file = path.join(BIN, command);
    return this.asRoot
      ? run("runuser", ["-u", "postgres", "--", file, ...args], { cwd: this.dir })
      : run(file, args, { cwd: this.dir });
  }

  async init(): Promise<void> {
    await this.exec("initdb", ["-D", this.data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  }

  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
    await this.exec("pg_ctl", ["-D", this.data, "-o", options, "-l", path.join(this.dir, "log"), "-w", "start"]);
    this.started = true;
  }

  /** Fast shutdown: sessions are terminated, in-flight statements fail (as in a real restart). */
  async stop(): Promise<void> {
    if (!this.started) return;
    await this.exec("pg_ctl", ["-D", this.data, "-m", "fast", "-w", "stop"]);
    this.started = false;
  }

  async destroy(): Promise<void> {
    await this.stop().catch(() =>
      this.exec("pg_ctl", ["-D", this.data, "-m", "immediate", "stop"]).catch(() => undefined),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function postgresUser(): { uid: number; gid: number } {
  // /etc/passwd lines are "name:x:uid:gid:...".
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("postgres:"));
  const [, , uid, gid] = line?.split(":") ?? [];
  if (!uid || !gid) throw new Error("no postgres OS user to run the throwaway cluster as");
  return { uid: Number(uid), gid: Number(gid) };
}
