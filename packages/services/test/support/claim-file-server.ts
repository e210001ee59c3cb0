import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A local HTTPS server standing in for public endpoints that serve (or do not serve) their claim file
 * at /.well-known/rpcpulse-claim. Its throwaway certificate (openssl CLI) names every host in `hosts`;
 * the test's SSRF-safe client trusts it (`ca`) and resolves those names to 127.0.0.1.
 */
export interface ClaimFileServer {
  port: number;
  /** PEM of the server's self-signed certificate, for the client's `ca`. */
  cert: string;
  /** What each host answers at /.well-known/rpcpulse-claim; unknown hosts answer 404. */
  files: Map<string, { status: number; body: string; headers?: Record<string, string> }>;
  /** "host path" of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

function makeCertificate(hosts: readonly string[]): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "claim-tls-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "1",
        "-subj",
        `/CN=${hosts[0] ?? "localhost"}`,
        "-addext",
        `subjectAltName=${hosts.map((h) => `DNS:${h}`).join(",")}`,
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startClaimFileServer(hosts: readonly string[]): Promise<ClaimFileServer> {
  const { key, cert } = makeCertificate(hosts);
  const files: ClaimFileServer["files"] = new Map();
  const requests: string[] = [];
  const server: Server = createServer({ key, cert }, (req, res) => {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    requests.push(`${host} ${req.url ?? ""}`);
    const file = req.url === "/.well-known/rpcpulse-claim" ? files.get(host) : undefined;
    if (!file) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    res.writeHead(file.status, { "content-type": "text/plain", ...file.headers }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cert,
    files,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
