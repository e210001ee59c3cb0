import { execFileSync, spawn } from "node:child_process";
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { REPO_ROOT } from "./processes.js";

export const AGENT_DIR = path.join(REPO_ROOT, "apps/agent");
export const DIST = path.join(AGENT_DIR, "dist");
export const VERSION = /RPCPULSE_VERSION = "([^"]+)"/.exec(
  readFileSync(path.join(REPO_ROOT, "packages/config/src/version.ts"), "utf8"),
)![1]!;
export const binName = (arch: "x64" | "arm64") => `rpcpulse-agent-${VERSION}-linux-${arch}`;

/** name -> sha256 from dist/SHA256SUMS. */
export function readSums(): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of readFileSync(path.join(DIST, "SHA256SUMS"), "utf8").trim().split("\n")) {
    const [hash, name] = line.split("  ");
    sums.set(name!, hash!);
  }
  return sums;
}

/**
 * The release files this test needs, built the way `npm run build -w @rpcpulse/agent` builds them
 * (bundle, SEA binaries, .deb, SHA256SUMS) when any is missing or stale; the build skips what is
 * up to date and caches the Node.js runtimes, so a second run costs seconds.
 */
export function ensureRelease(): void {
  execFileSync(process.execPath, ["build.mjs"], { cwd: AGENT_DIR, stdio: "pipe" });
  execFileSync(process.execPath, ["release/build-release.mjs"], { cwd: AGENT_DIR, stdio: "pipe", timeout: 900_000 });
  for (const f of ["SHA256SUMS", "install.sh", binName("x64"), `${binName("x64")}.gz`])
    if (!existsSync(path.join(DIST, f))) throw new Error(`release build left no ${f}`);
}

export interface DownloadServer {
  url: string;
  /** Requests seen (path with query). */
  requests: string[];
  close(): Promise<void>;
}

/**
 * What the web app serves (apps/web/src/features/fleet): /install.sh with this server's
 * URL as its base, and /downloads/<file> for the files in SHA256SUMS. `corrupt` names a file whose
 * bytes are altered in flight (one flipped byte), to prove the installer's checksum check.
 */
export async function startDownloadServer(options: { corrupt?: string } = {}): Promise<DownloadServer> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? "");
    const url = new URL(req.url ?? "/", "http://x");
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (url.pathname === "/install.sh") {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      res.end(readFileSync(path.join(DIST, "install.sh"), "utf8").replace("__RPCPULSE_BASE_URL__", base));
      return;
    }
    const name = decodeURIComponent(url.pathname.replace(/^\/downloads\//, ""));
    const sums = readSums();
    if (!url.pathname.startsWith("/downloads/") || (name !== "SHA256SUMS" && !sums.has(name))) {
      res.writeHead(404).end("not found\n");
      return;
    }
    const file = path.join(DIST, name);
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": statSync(file).size });
    if (options.corrupt === name) {
      const bytes = readFileSync(file);
      const at = bytes.length >> 1;
      bytes[at] = bytes[at]! ^ 0xff;
      res.end(bytes);
      return;
    }
    createReadStream(file).pipe(res);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run a command (async: the download server lives in this process), capturing its output. */
export function runCommand(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 300_000,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      env: { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", HOME: "/root", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The one line of the "Add node" page, against `server`: curl <app>/install.sh | sh -s -- <args>. */
export function runInstaller(server: DownloadServer, args: string[]): Promise<Run> {
  const quoted = args.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
  // bash only for pipefail (curl's failure counts); the installer itself runs under sh (dash on Debian).
  return runCommand("bash", ["-c", `set -o pipefail; curl -fsSL '${server.url}/install.sh' | sh -s -- ${quoted}`]);
}
