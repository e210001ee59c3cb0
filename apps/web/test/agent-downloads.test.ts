import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import {
  contentTypeOf,
  readChecksums,
  resolveDownloadsDir,
  serveDownload,
  serveInstallScript,
} from "../src/features/fleet/agent-downloads.js";
import { buildInstallCommand, shellQuote, toInstanceName } from "../src/features/fleet/install-command.js";

const root = mkdtempSync(path.join(tmpdir(), "rpcpulse-downloads-"));
const dir = path.join(root, "dist");
mkdirSync(dir);
after(() => rmSync(root, { recursive: true, force: true }));

const files: Record<string, Buffer> = {
  "rpcpulse-agent-0.1.0-linux-x64": Buffer.from("\x7fELF pretend binary"),
  "rpcpulse-agent-0.1.0-linux-x64.gz": Buffer.from([0x1f, 0x8b, 1, 2, 3]),
  "rpcpulse-agent_0.1.0_amd64.deb": Buffer.from("!<arch>\n"),
  "rpcpulse-agent.mjs": Buffer.from("#!/usr/bin/env node\n"),
  "rpcpulse-agent@.service": Buffer.from("[Unit]\n"),
  "install.sh": Buffer.from("#!/bin/sh\nBASE_URL='__RPCPULSE_BASE_URL__'\necho \"$BASE_URL\"\n"),
};
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
for (const [name, body] of Object.entries(files)) writeFileSync(path.join(dir, name), body);
writeFileSync(
  path.join(dir, "SHA256SUMS"),
  `${Object.entries(files)
    .map(([n, b]) => `${sha(b)}  ${n}`)
    .join("\n")}\n`,
);
// Present in the directory but not listed: never served.
writeFileSync(path.join(dir, ".release-stamp"), "secret-ish");
writeFileSync(path.join(root, "outside.txt"), "outside");

const get = (file: string, query = "", ifNoneMatch: string | null = null) =>
  serveDownload({ dir, file, url: `https://app.example/downloads/${encodeURIComponent(file)}${query}`, ifNoneMatch });

describe("GET /downloads/<file>", () => {
  test("serves listed files byte for byte with their type, checksum ETag and length", async () => {
    for (const [name, body] of Object.entries(files)) {
      const res = get(name);
      assert.equal(res.status, 200, name);
      assert.deepEqual(Buffer.from(await res.arrayBuffer()), body, name);
      assert.equal(res.headers.get("etag"), `"${sha(body)}"`);
      assert.equal(res.headers.get("content-length"), String(body.length));
      assert.equal(res.headers.get("content-type"), contentTypeOf(name));
      assert.equal(res.headers.get("x-content-type-options"), "nosniff");
    }
    assert.equal(contentTypeOf("rpcpulse-agent_0.1.0_amd64.deb"), "application/vnd.debian.binary-package");
    assert.equal(contentTypeOf("rpcpulse-agent-0.1.0-linux-x64.gz"), "application/gzip");
    assert.equal(contentTypeOf("rpcpulse-agent-0.1.0-linux-x64"), "application/octet-stream");
    assert.match(contentTypeOf("SHA256SUMS"), /^text\/plain/);
  });

  test("versioned names and content-addressed requests are cached for a year; the rest for 5 minutes", () => {
    assert.match(get("rpcpulse-agent-0.1.0-linux-x64.gz").headers.get("cache-control")!, /max-age=31536000, immutable/);
    assert.match(get("SHA256SUMS").headers.get("cache-control")!, /max-age=300/);
    assert.match(get("rpcpulse-agent.mjs").headers.get("cache-control")!, /max-age=300/);
    const mjsSha = sha(files["rpcpulse-agent.mjs"]!);
    assert.match(get("rpcpulse-agent.mjs", `?sha256=${mjsSha}`).headers.get("cache-control")!, /immutable/);
  });

  test("unknown names, unlisted files and traversal attempts answer 404", async () => {
    for (const name of [
      "nope",
      ".release-stamp",
      "../outside.txt",
      "..",
      ".",
      "%2e%2e%2foutside.txt",
      "dist/../outside.txt",
      "/etc/passwd",
      "rpcpulse-agent.mjs\0",
      "a".repeat(200),
    ]) {
      const res = get(name);
      assert.equal(res.status, 404, name);
      assert.equal(res.headers.get("cache-control"), "no-store");
      assert.doesNotMatch(await res.text(), /outside/);
    }
  });

  test("a checksum of another build answers 404 (a cache never pairs old bytes with new sums); ETag gives 304", () => {
    assert.equal(get("rpcpulse-agent-0.1.0-linux-x64", `?sha256=${"0".repeat(64)}`).status, 404);
    assert.equal(get("rpcpulse-agent-0.1.0-linux-x64", "?sha256=not-hex").status, 404);
    const etag = `"${sha(files["rpcpulse-agent-0.1.0-linux-x64"]!)}"`;
    assert.equal(get("rpcpulse-agent-0.1.0-linux-x64", "", etag).status, 304);
  });

  test("without a build (no SHA256SUMS) everything is 404 with the command that builds it", async () => {
    const empty = mkdtempSync(path.join(root, "empty-"));
    const res = serveDownload({ dir: empty, file: "SHA256SUMS", url: "https://app.example/downloads/SHA256SUMS" });
    assert.equal(res.status, 404);
    assert.match(await res.text(), /npm run build -w @rpcpulse\/agent/);
    assert.equal(readChecksums(empty), null);
  });

  test("the downloads directory: AGENT_DOWNLOADS_DIR, else apps/agent/dist from the repository root or apps/web", () => {
    assert.equal(resolveDownloadsDir("/srv/agent"), "/srv/agent");
    const repo = mkdtempSync(path.join(root, "repo-"));
    mkdirSync(path.join(repo, "apps/agent/dist"), { recursive: true });
    writeFileSync(path.join(repo, "apps/agent/dist/SHA256SUMS"), "");
    assert.equal(resolveDownloadsDir(undefined, repo), path.join(repo, "apps/agent/dist"));
    assert.equal(
      resolveDownloadsDir(undefined, path.join(repo, "apps/web")),
      path.join(repo, "apps/web/../agent/dist"),
    );
  });
});

describe("GET /install.sh and the Add node command", () => {
  test("the script gets this app's URL as its download base", async () => {
    const res = serveInstallScript({ dir, baseUrl: "https://pulse.example.org/" });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type")!, /^text\/plain/);
    const text = await res.text();
    assert.match(text, /^BASE_URL='https:\/\/pulse\.example\.org'$/m);
    assert.doesNotMatch(text, /__RPCPULSE_BASE_URL__/);
    assert.throws(() => serveInstallScript({ dir, baseUrl: "https://x.example/'; rm -rf /" }));
  });

  test("one line: curl the app's install.sh into sh with the token, the instance name and the config", () => {
    const line = buildInstallCommand({
      appBaseUrl: "https://pulse.example.org",
      ingestUrl: "https://ingest.example.org/v1/ingest",
      token: "rpa_0123456789abcdef_secret",
      nodeId: "6f1c",
      nodeName: "Hive API #1",
      apiFamily: "hive",
      localRpcUrl: "http://127.0.0.1:8091",
    });
    assert.equal(
      line,
      "curl -fsSL 'https://pulse.example.org/install.sh' | sudo sh -s -- --token 'rpa_0123456789abcdef_secret' " +
        `--name 'hive-api-1' --config ${shellQuote(
          '{"family":"hive","rpcUrl":"http://127.0.0.1:8091","ingestUrl":"https://ingest.example.org/v1/ingest","nodeId":"6f1c"}',
        )}`,
    );
    assert.equal(toInstanceName("--Geth (main)--"), "geth-main");
    assert.equal(toInstanceName("日本"), "node");
    assert.equal(shellQuote("it's"), `'it'\\''s'`);
  });
});
