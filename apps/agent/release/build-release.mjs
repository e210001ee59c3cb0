// The agent's downloads, next to dist/rpcpulse-agent.mjs (built first by build.mjs):
//   rpcpulse-agent-<version>-linux-{x64,arm64}      self-contained binaries (Node.js SEA, no Node needed)
//   rpcpulse-agent-<version>-linux-{x64,arm64}.gz   the same, compressed (what install.sh downloads)
//   rpcpulse-agent_<version>_{amd64,arm64}.deb      Debian packages (dpkg-deb)
//   install.sh, rpcpulse-agent@.service, node-LICENSE.txt, SHA256SUMS (sha256sum -c format)
// The web app serves dist/ at /downloads/<file> and /install.sh. Usage:
//   node release/build-release.mjs [--arch x64,arm64] [--no-deb] [--force]
// Nothing heavy is redone when its inputs (bundle, runtime, unit, installer, these scripts) are unchanged.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { createGzip } from "node:zlib";
import { buildDeb, debFileName } from "./deb.mjs";
import { ensureNodeRuntime, NODE_RUNTIME_VERSION, NODE_RUNTIMES } from "./node-runtime.mjs";
import { bundleForSea, injectSea, makeSeaBlob } from "./sea.mjs";

const HERE = new URL(".", import.meta.url).pathname;
const AGENT = join(HERE, "..");
const DIST = join(AGENT, "dist");
const REPO = join(AGENT, "../..");
const CACHE = join(REPO, "node_modules/.cache/rpcpulse-agent-release");
const VERSION = /RPCPULSE_VERSION = "([^"]+)"/.exec(
  readFileSync(join(REPO, "packages/config/src/version.ts"), "utf8"),
)[1];

const { values } = parseArgs({
  options: {
    arch: { type: "string", default: "x64,arm64" },
    "no-deb": { type: "boolean", default: false },
    force: { type: "boolean", default: false },
  },
});
const arches = values.arch.split(",").map((a) => a.trim());
for (const a of arches) if (!NODE_RUNTIMES[a]) throw new Error(`--arch: unknown ${a} (x64, arm64)`);
const hostArch = process.arch === "x64" || process.arch === "arm64" ? process.arch : null;
if (!hostArch) throw new Error(`building the SEA needs an x64 or arm64 build host (this is ${process.arch})`);
const hasDpkgDeb = spawnSync("dpkg-deb", ["--version"], { stdio: "ignore" }).status === 0;
const withDeb = !values["no-deb"] && hasDpkgDeb;
if (!values["no-deb"] && !hasDpkgDeb) console.warn("release: dpkg-deb not found (apt-get install dpkg): no .deb built");

const started = Date.now();
mkdirSync(CACHE, { recursive: true });
const mjs = join(DIST, "rpcpulse-agent.mjs");
if (!existsSync(mjs)) throw new Error(`${mjs} missing: run node build.mjs first (npm run build does both)`);

const seaMain = join(CACHE, "rpcpulse-agent.cjs");
await bundleForSea(join(AGENT, "src/cli.ts"), seaMain);
const unitText = readFileSync(join(AGENT, "packaging/rpcpulse-agent@.service"), "utf8");
const installer = readFileSync(join(AGENT, "packaging/install.sh"), "utf8");

const binName = (arch) => `rpcpulse-agent-${VERSION}-linux-${arch}`;
const expected = [
  ...arches.flatMap((a) => [binName(a), `${binName(a)}.gz`, ...(withDeb ? [debFileName(VERSION, a)] : [])]),
  "node-LICENSE.txt",
];
const inputs = createHash("sha256");
for (const part of [
  readFileSync(seaMain),
  NODE_RUNTIME_VERSION,
  JSON.stringify(NODE_RUNTIMES),
  unitText,
  VERSION,
  ...["build-release.mjs", "sea.mjs", "deb.mjs", "node-runtime.mjs"].map((f) => readFileSync(join(HERE, f))),
  expected.join(","),
])
  inputs.update(part);
const stampFile = join(DIST, ".release-stamp");
const stamp = inputs.digest("hex");
const upToDate =
  !values.force &&
  existsSync(stampFile) &&
  readFileSync(stampFile, "utf8") === stamp &&
  expected.every((f) => existsSync(join(DIST, f)));

if (!upToDate) {
  rmSync(stampFile, { force: true });
  const runtimes = Object.fromEntries(arches.concat(hostArch).map((a) => [a, ensureNodeRuntime(a, CACHE)]));
  const blob = join(CACHE, "sea-prep.blob");
  await makeSeaBlob(runtimes[hostArch].node, seaMain, blob);
  await Promise.all(
    arches.map(async (arch) => {
      const out = join(DIST, binName(arch));
      await injectSea(runtimes[arch].node, blob, out);
      await pipeline(createReadStream(out), createGzip({ level: 6 }), createWriteStream(`${out}.gz`));
      if (withDeb)
        await buildDeb({
          arch,
          version: VERSION,
          binary: out,
          unitText,
          nodeLicense: readFileSync(runtimes[arch].license, "utf8"),
          nodeVersion: NODE_RUNTIME_VERSION,
          workDir: CACHE,
          outDir: DIST,
        });
    }),
  );
  copyFileSync(runtimes[hostArch].license, join(DIST, "node-LICENSE.txt"));
  // The host's binary must run and say its version: a broken injection fails the build here.
  if (arches.includes(hostArch)) {
    const said = execFileSync(join(DIST, binName(hostArch)), ["version"], { encoding: "utf8" }).trim();
    if (said !== VERSION) throw new Error(`${binName(hostArch)} version printed ${JSON.stringify(said)}`);
  }
}
writeFileSync(join(DIST, "install.sh"), installer, { mode: 0o755 });
writeFileSync(join(DIST, "rpcpulse-agent@.service"), unitText);

// Old versions' files go; SHA256SUMS lists exactly what is served.
const served = new Set([...expected, "rpcpulse-agent.mjs", "install.sh", "rpcpulse-agent@.service"]);
for (const f of readdirSync(DIST))
  if (/^rpcpulse-agent[-_].*(linux|amd64|arm64)/.test(f) && !served.has(f)) rmSync(join(DIST, f), { force: true });

async function sha256(file) {
  const h = createHash("sha256");
  await pipeline(createReadStream(file), h);
  return h.digest("hex");
}
const names = [...served].sort();
const sums = await Promise.all(names.map(async (f) => `${await sha256(join(DIST, f))}  ${f}`));
writeFileSync(join(DIST, "SHA256SUMS"), `${sums.join("\n")}\n`);
writeFileSync(stampFile, stamp);

const mb = (n) => `${(n / 1048576).toFixed(1)} MB`;
for (const line of sums) {
  const [hash, name] = line.split("  ");
  console.log(`  ${name.padEnd(40)} ${mb(statSync(join(DIST, name)).size).padStart(9)}  ${hash}`);
}
console.log(
  `release ${VERSION} (Node.js ${NODE_RUNTIME_VERSION} SEA, ${arches.join("+")}${withDeb ? ", .deb" : ""}) ${
    upToDate ? "up to date" : "built"
  } in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
