#!/usr/bin/env node
// Builds the publishable package into dist/ (npm run build -w @rpcpulse/client):
//   dist/<entry>.js   ESM bundle      dist/<entry>.d.ts   declarations (tsc --emitDeclarationOnly)
//   dist/<entry>.cjs  CommonJS bundle dist/<entry>.d.cts  the same declarations for require() consumers
// Entries: index (the dependency-free core) and viem (the viem transport). The viem entry imports the
// core entry instead of bundling a second copy of it, and peers (viem, dhive, polkadot) stay imports.
// No source maps are shipped: the sources are not in the tarball, so maps would point at missing files.
import { execFileSync } from "node:child_process";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const src = path.join(root, "src");
const dist = path.join(root, "dist");
const require = createRequire(import.meta.url);

/** Public entries: name -> source, and the source files each may bundle besides the core entry. */
export const ENTRIES = {
  index: { source: "src/index.ts", owns: null },
  viem: { source: "src/viem.ts", owns: /^(viem|adapters\/viem-transport)\.ts$/ },
};
export const PEERS = ["viem", "@hiveio/dhive", "@polkadot/api"];
export const TARGET = "es2022";

/** Non-core entries import the core as `./index.js` / `./index.cjs`, and may bundle only their own files. */
function coreAsImport(entry, extension) {
  return {
    name: "core-as-import",
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        const file = path.resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts"));
        if (file === path.join(src, "index.ts")) return { path: `./index${extension}`, external: true };
        const rel = path.relative(src, file).split(path.sep).join("/");
        if (!entry.owns.test(rel))
          return { errors: [{ text: `${rel} is core code: import it from "../index.js" so it is not bundled twice` }] };
        return undefined;
      });
    },
  };
}

export async function buildPackage({ quiet = false } = {}) {
  await rm(dist, { recursive: true, force: true });
  for (const [name, entry] of Object.entries(ENTRIES)) {
    for (const [format, extension] of [
      ["esm", ".js"],
      ["cjs", ".cjs"],
    ]) {
      await build({
        absWorkingDir: root,
        entryPoints: [entry.source],
        outfile: path.join(dist, `${name}${extension}`),
        bundle: true,
        format,
        platform: "neutral",
        target: TARGET,
        external: PEERS.flatMap((p) => [p, `${p}/*`]),
        plugins: entry.owns ? [coreAsImport(entry, extension)] : [],
        sourcemap: false,
        logLevel: "error",
      });
    }
  }
  execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
    cwd: root,
    stdio: "inherit",
  });
  // .d.cts twins: relative imports point at .cjs so a require() consumer's types stay CommonJS.
  const declarations = (await readdir(dist, { recursive: true })).filter((f) => f.endsWith(".d.ts"));
  for (const file of declarations) {
    const text = await readFile(path.join(dist, file), "utf8");
    const cts = text.replace(/(["'])(\.{1,2}\/[^"']+)\.js\1/g, "$1$2.cjs$1");
    await writeFile(path.join(dist, file.replace(/\.d\.ts$/, ".d.cts")), cts);
  }
  if (!quiet)
    console.log(
      `built ${Object.keys(ENTRIES).length} entries (ESM + CJS) and ${declarations.length} declarations into dist/`,
    );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildPackage();
