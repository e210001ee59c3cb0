import assert from "node:assert/strict";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import zlib from "node:zlib";
import { createSafeHttpClient, ProbeError, type Resolver } from "../src/index.js";
import { startCanary, startHttpServer, type Canary, type TestServer } from "./helpers/servers.js";
import { makeSelfSignedCert } from "./helpers/tls.js";

const isReason = (reason: string) => (e: unknown) => e instanceof ProbeError && e.reason === reason;

describe("safe HTTP client", () => {
  let canary: Canary;
  let stand: TestServer; // stands for a public host: 127.0.0.2 is exempted by allowAddresses
  const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });

  before(async () => {
    canary = await startCanary();
    stand = await startHttpServer((req, res) => {
      const u = new URL(req.url ?? "/", "http://x");
      const to = u.searchParams.get("to");
      if (u.pathname === "/redirect" && to) {
        res.writeHead(Number(u.searchParams.get("status") ?? 302), { location: to }).end();
      } else if (u.pathname === "/loop") {
        res.writeHead(302, { location: "/loop" }).end();
      } else if (u.pathname === "/bomb") {
        res.writeHead(200, { "content-encoding": "gzip", "content-type": "application/json" }).end(bomb);
      } else if (u.pathname === "/endless") {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        const chunk = Buffer.alloc(64 * 1024, 97);
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once("drain", pump);
        };
        pump();
      } else if (u.pathname === "/declared") {
        res.writeHead(200, { "content-length": String(10 * 1024 * 1024) });
        res.write("x");
      } else if (u.pathname === "/hang") {
        // never answers
      } else if (u.pathname === "/echo") {
        let body = "";
        req.on("data", (c: Buffer) => (body += c.toString()));
        req.on("end", () =>
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ method: req.method, body })),
        );
      } else {
        res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      }
    }, "127.0.0.2");
  });
  after(async () => {
    await stand.close();
    await canary.close();
  });

  const exemptClient = (resolver?: Resolver, extra: Record<string, unknown> = {}) =>
    createSafeHttpClient({
      allowAddresses: ["127.0.0.2"],
      allowedPorts: "any",
      timeoutMs: 3000,
      ...(resolver ? { resolver } : {}),
      ...extra,
    });

  it("defeats DNS rebinding: one resolution per connection, and that answer is what gets connected", async () => {
    let calls = 0;
    const rebinding: Resolver = async () => {
      calls++;
      return [{ address: calls === 1 ? "127.0.0.2" : "127.0.0.1", family: 4 }];
    };
    const client = exemptClient(rebinding);
    const first = await client.request(`http://rebind.attacker.example:${stand.port}/`);
    assert.equal(first.status, 200);
    assert.equal(first.remoteAddress, "127.0.0.2");
    assert.equal(calls, 1, "a validate-then-connect client would have resolved twice");
    // The zone now answers loopback: the next connection is refused at connect time.
    await assert.rejects(client.request(`http://rebind.attacker.example:${canary.port}/`), isReason("ssrf_blocked"));
    assert.equal(calls, 2);
    assert.equal(canary.connections(), 0);
  });

  it("re-validates every redirect hop (scheme, form, resolved address)", async () => {
    const resolver: Resolver = async (name) => [
      { address: name === "evil.attacker.example" ? "127.0.0.1" : "127.0.0.2", family: 4 },
    ];
    const client = exemptClient(resolver);
    const base = `http://good.example.com:${stand.port}/redirect`;
    const targets = [
      `http://127.0.0.1:${canary.port}/`,
      `http://[::1]:${canary.port}/`,
      `http://localhost:${canary.port}/`,
      `http://evil.attacker.example:${canary.port}/`,
      `http://2130706433:${canary.port}/`,
      `http://169.254.169.254/latest/meta-data/`,
      `http://metadata.google.internal/`,
    ];
    for (const to of targets) {
      for (const status of [301, 302, 307, 308]) {
        await assert.rejects(
          client.request(`${base}?status=${status}&to=${encodeURIComponent(to)}`),
          isReason("ssrf_blocked"),
          `${status} -> ${to}`,
        );
      }
    }
    for (const to of ["file:///etc/passwd", `gopher://127.0.0.1:${canary.port}/`, `ws://127.0.0.2:${stand.port}/`]) {
      await assert.rejects(client.request(`${base}?to=${encodeURIComponent(to)}`), isReason("bad_scheme"), to);
    }
    assert.equal(canary.connections(), 0);
    // An allowed redirect is followed, and a POST turned into GET on 303.
    const ok = await client.request(
      `${base}?status=303&to=${encodeURIComponent(`http://good.example.com:${stand.port}/echo`)}`,
      { method: "POST", body: "{}" },
    );
    assert.equal(JSON.parse(ok.body.toString()).method, "GET");
    assert.equal(ok.redirects.length, 1);
    // Redirect loops stop at maxRedirects.
    await assert.rejects(client.request(`http://good.example.com:${stand.port}/loop`), isReason("http"));
  });

  it("refuses a gzip bomb with bounded memory", async () => {
    const client = exemptClient(undefined, { maxResponseBytes: 256 * 1024 });
    global.gc?.();
    const before = process.memoryUsage();
    let peak = 0;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.rss - before.rss);
    }, 1);
    await assert.rejects(client.request(`http://127.0.0.2:${stand.port}/bomb`), isReason("too_large"));
    clearInterval(sampler);
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss - before.rss);
    // 64 MiB decompressed would show up as ~64 MiB of growth; the cap keeps it to a few chunks.
    assert.ok(peak < 24 * 1024 * 1024, `RSS grew ${(peak / 1048576).toFixed(1)} MiB`);
  });

  it("refuses endless and over-declared bodies, and stalls, in bounded time", async () => {
    const client = exemptClient(undefined, { maxResponseBytes: 128 * 1024, timeoutMs: 800 });
    await assert.rejects(client.request(`http://127.0.0.2:${stand.port}/endless`), isReason("too_large"));
    await assert.rejects(client.request(`http://127.0.0.2:${stand.port}/declared`), isReason("too_large"));
    const t0 = Date.now();
    await assert.rejects(client.request(`http://127.0.0.2:${stand.port}/hang`), isReason("timeout"));
    const took = Date.now() - t0;
    assert.ok(took >= 750 && took < 1500, `timeout took ${took} ms`);
  });

  it("allowPrivate reaches a loopback server and reports phases", async () => {
    const client = createSafeHttpClient({ allowPrivate: true });
    const res = await client.request(`http://localhost:${stand.port}/`, { timeoutMs: 1000 }).catch((e: unknown) => e);
    // localhost resolves to 127.0.0.1/::1 where nothing listens on that port: a connect error, not a block.
    assert.ok(res instanceof ProbeError && res.reason === "connect", String(res));
    const direct = await client.request(`http://127.0.0.2:${stand.port}/`);
    assert.equal(direct.status, 200);
    assert.deepEqual(JSON.parse(direct.body.toString()), { ok: true });
    const p = direct.phases;
    assert.equal(p.dnsMs, 0);
    assert.ok(p.connectMs > 0 && p.ttfbMs >= p.connectMs && p.totalMs >= p.ttfbMs, JSON.stringify(p));
    assert.notEqual(Math.round(p.totalMs * 1000) % 1000, 0, "sub-millisecond precision");
    // Without allowPrivate the same URL is refused.
    await assert.rejects(
      createSafeHttpClient({ allowedPorts: "any" }).request(`http://127.0.0.2:${stand.port}/`),
      isReason("ssrf_blocked"),
    );
  });

  it("measures TLS and classifies certificate failures as tls", async () => {
    const { key, cert } = makeSelfSignedCert();
    const server = https.createServer({ key, cert }, (_req, res) => res.writeHead(200).end("{}"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const port = (server.address() as AddressInfo).port;
    try {
      const resolver: Resolver = async () => [{ address: "127.0.0.1", family: 4 }];
      const trusting = createSafeHttpClient({ allowPrivate: true, ca: cert, resolver });
      const res = await trusting.request(`https://rpc.test:${port}/`);
      assert.equal(res.status, 200);
      assert.ok(res.phases.tlsMs > 0 && res.phases.dnsMs > 0, JSON.stringify(res.phases));
      const strict = createSafeHttpClient({ allowPrivate: true, resolver });
      await assert.rejects(strict.request(`https://rpc.test:${port}/`), isReason("tls"));
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

it("toProbeError keeps the reason of a ProbeError from another copy of the module", async () => {
  const { toProbeError } = await import("../src/index.js");
  const foreign = Object.assign(new Error("address 127.0.0.1 is loopback"), {
    name: "ProbeError",
    reason: "ssrf_blocked",
  });
  assert.equal(toProbeError(foreign).reason, "ssrf_blocked");
  const bogus = Object.assign(new Error("x"), { name: "ProbeError", reason: "made-up" });
  assert.notEqual(toProbeError(bogus).reason, "made-up");
});
