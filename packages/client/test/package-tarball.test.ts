import assert from "node:assert/strict";
import { execFile, fork } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { ManualClock, startSimnet, type Simnet } from "@rpcpulse/simnet";
import { rankedBody, startDirectoryFixture, type DirectoryFixture } from "./directory-fixture.js";
import { startRpcProxy, type RpcProxy } from "./rpc-proxy.js";
import { checkTarball } from "./tarball-checks.js";

/**
 * The package as a user meets it: build, `npm pack`, install the tarball into a fresh project outside the
 * monorepo beside viem, @hiveio/dhive and @polkadot/api from the registry, then run each integration
 * from that project (Node ESM, Node CommonJS, TypeScript declarations) against simnet and a directory
 * API served here, and an esbuild browser bundle of the installed package in Chromium.
 * Chromium missing is a failure, not a skip: CI installs it (.ci/run).
 */

const execFileP = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, "..");
const require = (await import("node:module")).createRequire(import.meta.url);
const CHROMIUM = "/usr/bin/chromium";
/** The same versions the monorepo tests with (its devDependencies), so npm's cache usually has them. */
const devDeps = (
  JSON.parse(await readFile(path.join(pkgDir, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  }
).devDependencies;
const PEER_INSTALLS = ["viem", "@hiveio/dhive", "@polkadot/api"].map((p) => `${p}@${devDeps[p]}`);

/** Children get a clean npm environment: no npm_* variables of the `npm test` that started us. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && k !== "INIT_CWD") env[k] = v;
  return { ...env, ...extra };
}

let work = "";
let app = "";
let tarball = "";
let packedFiles: string[] = [];
let simnet: Simnet;
let proxy: RpcProxy;
let api: DirectoryFixture;
let bundle = "";
let typecheck: Promise<{ stdout: string }> | undefined;
const cfg: { apiBase: string; urls: Record<string, string>; heads: Record<string, number> } = {
  apiBase: "",
  urls: {},
  heads: {},
};

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), "rpcpulse-client-pack-"));
  app = path.join(work, "app");
  simnet = await startSimnet(
    {
      seed: "client-tarball",
      nodes: [
        ...["e1", "e2", "b1", "b2"].map((name, i) => ({
          name,
          family: "ethereum" as const,
          network: name.startsWith("e") ? "ethereum-mainnet" : "ethereum-sepolia",
          port: 0,
          lagBlocks: i % 2,
        })),
        ...["h1", "h2", "h3"].map((name, i) => ({
          name,
          family: "hive" as const,
          network: "hive",
          port: 0,
          lagBlocks: i,
        })),
        ...["p1", "p2"].map((name, i) => ({
          name,
          family: "substrate" as const,
          network: "polkadot",
          port: 0,
          lagBlocks: i,
        })),
      ],
    },
    { clock: new ManualClock(Date.UTC(2026, 10, 22, 3, 0, 0)) },
  ); // heads only move when told to
  proxy = await startRpcProxy(
    (name) => simnet.nodes.find((n) => n.name === name)?.url,
    (req, res) => {
      const url = req.url ?? "/";
      if (url === "/bundle.js") {
        res.writeHead(200, { "content-type": "text/javascript" }).end(bundle);
        return true;
      }
      if (url === "/" || url.startsWith("/?")) {
        res.writeHead(200, { "content-type": "text/html" });
        res.end('<!doctype html><title>consumer</title><script type="module" src="/bundle.js"></script>');
        return true;
      }
      return false;
    },
  );
  const ethereum = (names: string[]) => names.map((n) => ({ name: n, url: proxy.urlOf(n) }));
  api = await startDirectoryFixture(
    {
      "ethereum-mainnet": rankedBody("ethereum-mainnet", ethereum(["e1", "e2"])),
      "ethereum-sepolia": { ...(rankedBody("ethereum-sepolia", ethereum(["b1", "b2"])) as object) },
      hive: rankedBody(
        "hive",
        ["h1", "h2"].map((n) => ({ name: n, url: simnet.node(n).url })),
      ),
      polkadot: rankedBody(
        "polkadot",
        ["p1", "p2"].map((n) => ({ name: n, url: simnet.node(n).url, wsUrl: simnet.node(n).wsUrl })),
      ),
    },
    { cacheControl: "no-store" },
  );
  cfg.apiBase = api.url;
  for (const n of simnet.nodes) {
    cfg.urls[n.name] = n.family === "ethereum" ? proxy.urlOf(n.name) : n.url;
    cfg.heads[n.name] = n.head();
  }
});

after(async () => {
  await api?.close();
  await proxy?.close();
  await simnet?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

test("npm pack: the tarball holds the build, README and package.json, and nothing else", async () => {
  await execFileP(process.execPath, [path.join(pkgDir, "scripts", "build.mjs")], { cwd: pkgDir, env: cleanEnv() });
  // The README's size table is the measured one (npm run size -w @rpcpulse/client -- --write after a change).
  await execFileP(process.execPath, [path.join(pkgDir, "scripts", "measure-size.mjs"), "--check"], {
    cwd: pkgDir,
    env: cleanEnv(),
  });
  const { stdout } = await execFileP("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], {
    cwd: pkgDir,
    env: cleanEnv(),
  });
  const [info] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
  tarball = path.join(work, info.filename);
  packedFiles = info.files.map((f) => f.path);
  const unpacked = path.join(work, "unpacked");
  await mkdir(unpacked);
  await execFileP("tar", ["-xzf", tarball, "-C", unpacked]);
  assert.deepEqual(await checkTarball(path.join(unpacked, "package"), packedFiles), []);
  for (const entry of ["dist/index.js", "dist/index.cjs", "dist/index.d.ts", "dist/viem.js", "dist/viem.d.cts"])
    assert.ok(packedFiles.includes(entry), `${entry} is packed`);
});

test("the tarball check catches source maps to missing files, tests, sources and outside imports", async () => {
  const bad = path.join(work, "bad");
  await mkdir(path.join(bad, "dist"), { recursive: true });
  await mkdir(path.join(bad, "test"), { recursive: true });
  await writeFile(path.join(bad, "package.json"), JSON.stringify({ name: "x", exports: "./dist/index.js" }));
  await writeFile(path.join(bad, "dist/index.js"), 'import "@rpcpulse/domain";\n//# sourceMappingURL=index.js.map\n');
  await writeFile(path.join(bad, "dist/index.js.map"), JSON.stringify({ version: 3, sources: ["../src/index.ts"] }));
  await writeFile(path.join(bad, "test/a.test.js"), "");
  const problems = await checkTarball(bad, ["package.json", "dist/index.js", "dist/index.js.map", "test/a.test.js"]);
  const text = problems.join("\n");
  assert.match(text, /maps to \.\.\/src\/index\.ts, which is not in the tarball/);
  assert.match(text, /test\/a\.test\.js: a test/);
  assert.match(text, /imports @rpcpulse\/domain/);
  assert.match(text, /sideEffects/);
});

test(
  "installs into a fresh project outside the monorepo beside viem, @hiveio/dhive and @polkadot/api",
  { timeout: 240_000 },
  async () => {
    assert.ok(tarball, "packed");
    await mkdir(app);
    await writeFile(
      path.join(app, "package.json"),
      JSON.stringify({ name: "rpcpulse-client-consumer", private: true, type: "module" }),
    );
    await execFileP(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", tarball, ...PEER_INSTALLS],
      { cwd: app, env: cleanEnv(), maxBuffer: 16 * 1024 * 1024, timeout: 230_000 },
    );
    const installed = JSON.parse(
      await readFile(path.join(app, "node_modules/@rpcpulse/client/package.json"), "utf8"),
    ) as { version: string };
    assert.equal(installed.version, "0.1.0");
    for (const file of [
      "node-consumer.mjs",
      "cjs-consumer.cjs",
      "browser-consumer.mjs",
      "types-consumer.ts",
      "types-consumer.cts",
    ])
      await copyFile(path.join(here, "consumer", file), path.join(app, file));
    // The declarations check (one tsc run, the slowest step) runs beside the next tests; the last test awaits it.
    await writeFile(
      path.join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          lib: ["es2022", "dom"],
          types: [],
          strict: true,
          skipLibCheck: true,
          noEmit: true,
        },
        files: ["types-consumer.ts", "types-consumer.cts"],
      }),
    );
    const tsc = require.resolve("typescript/bin/tsc");
    typecheck = execFileP(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: app, env: cleanEnv() }).catch(
      (error: { stdout?: string }) => ({ stdout: `tsc failed:\n${error.stdout ?? String(error)}` }),
    );
  },
);

test(
  "Node (ESM): the viem transport, the dhive address list and the WsProvider endpoints, as installed",
  { timeout: 60_000 },
  async () => {
    const child = fork(path.join(app, "node-consumer.mjs"), [], {
      cwd: app,
      env: cleanEnv({ RPCPULSE_CONSUMER: JSON.stringify(cfg) }),
      execArgv: [], // plain node, not this test's tsx loader
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    let output = "";
    child.stdout?.on("data", (d: Buffer) => (output += d));
    child.stderr?.on("data", (d: Buffer) => (output += d));
    let report: Record<string, unknown> | undefined;
    child.on(
      "message",
      (message: { op: string; node?: string; order?: string[]; report?: Record<string, unknown> }) => {
        void (async () => {
          if (message.op === "close") await simnet.node(message.node as string).close();
          if (message.op === "rerank-hive") {
            api.setBody(
              "hive",
              rankedBody(
                "hive",
                (message.order as string[]).map((n) => ({ name: n, url: simnet.node(n).url })),
              ),
            );
          }
          if (message.op === "done") report = message.report;
          child.send({ ok: true });
        })();
      },
    );
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    assert.equal(code, 0, `consumer failed:\n${output}`);
    assert.ok(report, "consumer reported");
    const resolved = report.resolved as { core: string; viem: string };
    assert.match(resolved.core, /\/app\/node_modules\/@rpcpulse\/client\/dist\/index\.js$/);
    assert.match(resolved.viem, /\/app\/node_modules\/@rpcpulse\/client\/dist\/viem\.js$/);
    assert.deepEqual(report.viem, { current: "e2", e1: "open" });
    assert.deepEqual(report.dhive, { address: [cfg.urls.h3, cfg.urls.h1, cfg.urls.h2] });
    assert.deepEqual(report.polkadot, { endpoint: simnet.node("p2").wsUrl, head: cfg.heads.p2, p1: "open" });
    const batched = proxy.posts.filter((p) => p.batch && p.node === "e1");
    assert.ok(
      batched.some((p) => p.calls === 2),
      "viem batched getBlockNumber + getChainId into one POST",
    );
  },
);

test("Node (CommonJS): require() of both entries loads the .cjs builds and works", { timeout: 30_000 }, async () => {
  const { stdout } = await execFileP(process.execPath, [path.join(app, "cjs-consumer.cjs")], {
    cwd: app,
    env: cleanEnv({ RPCPULSE_CONSUMER: JSON.stringify(cfg) }),
  });
  assert.deepEqual(JSON.parse(stdout), { head: cfg.heads.e2, current: "e2" }, "e1 was closed by the ESM run");
});

test(
  "browser: an esbuild bundle of the installed package runs in Chromium, batches, fails over, keeps the list",
  { timeout: 60_000 },
  async () => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing (apt-get install -y chromium; CI installs it in .ci/run)`);
    const result = await build({
      entryPoints: [path.join(app, "browser-consumer.mjs")],
      absWorkingDir: app,
      bundle: true,
      platform: "browser",
      format: "esm",
      target: "es2022",
      minify: true,
      write: false,
      logLevel: "silent",
    });
    bundle = result.outputFiles[0]?.text ?? "";
    assert.ok(bundle.length > 10_000);
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
      ],
    });
    try {
      const tab = await browser.newPage();
      const pageErrors: string[] = [];
      tab.on("pageerror", (e) => pageErrors.push(e.message));
      const pageUrl = `${proxy.origin}/?api=${encodeURIComponent(api.url)}`;
      await tab.goto(pageUrl);
      await tab.waitForFunction(() => typeof (window as { consumer?: unknown }).consumer === "object");
      const read = () =>
        tab.evaluate(() =>
          (window as unknown as { consumer: { read(): Promise<Record<string, unknown>> } }).consumer.read(),
        );
      const before = proxy.posts.length;
      assert.deepEqual(await read(), { head: cfg.heads.b1, chainId: 11155111, current: "b1", source: "api" });
      assert.ok(
        proxy.posts.slice(before).some((p) => p.node === "b1" && p.batch && p.calls === 2),
        "one batched POST from the page",
      );

      await simnet.node("b1").close();
      assert.deepEqual(await read(), { head: cfg.heads.b2, chainId: 11155111, current: "b2", source: "api" });

      // Reload with the directory down: the page starts from the list kept in localStorage.
      api.setBody("ethereum-sepolia", null);
      await tab.reload();
      await tab.waitForFunction(() => typeof (window as { consumer?: unknown }).consumer === "object");
      const afterReload = await read();
      assert.equal(afterReload.head, cfg.heads.b2);
      assert.equal(afterReload.source, "storage");
      assert.deepEqual(pageErrors, []);
    } finally {
      await browser.close();
    }
  },
);

test(
  "TypeScript (nodenext): the shipped declarations fit viem, dhive and @polkadot/api types",
  { timeout: 120_000 },
  async () => {
    assert.ok(typecheck, "installed");
    const { stdout } = await typecheck;
    assert.equal(stdout.trim(), "");
  },
);
