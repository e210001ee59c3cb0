#!/usr/bin/env node
// Production bundles of the Node services: one ESM file per entry, run with plain `node` (no tsx).
//
//   node scripts/bundle-server.mjs --out <dir> name=path/to/entry.ts [name=...] [--migrations]
//
// Paths are relative to the current directory (the app's folder when run by `npm run build`).
// - The workspace TypeScript packages (@rpcpulse/*) and the npm dependencies are bundled in, so an
//   image needs no node_modules. Optional native add-ons the dependencies probe for (pg-native,
//   msgpackr-extract) stay external: their require is inside a try, and the JS fallback is used.
// - Prisma's generated client is CommonJS that finds its query compiler (WebAssembly) next to itself
//   through __dirname, so it is not bundled: it is copied to <out>/prisma-client and imported from there.
// - --migrations copies prisma/migrations to <out>/migrations (the migrate runner reads MIGRATIONS_DIR).
// Writes <out>/bundle-manifest.json: each bundle's size and the externals it imports.
import { cpSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PRISMA_CLIENT_DIR = path.join(repoRoot, "packages/db/src/generated/client");
/** Files of the generated client Node loads (no .d.ts, no edge/wasm-worker variants). */
const PRISMA_CLIENT_FILES = [
  "package.json",
  "index.js",
  "schema.prisma",
  "query_compiler_bg.js",
  "query_compiler_bg.wasm",
  "runtime/client.js",
];
const OPTIONAL_NATIVE = ["pg-native", "msgpackr-extract"];

// Bundled CommonJS dependencies call require() for Node built-ins and read __dirname/__filename.
const BANNER = [
  'import { createRequire as __rpcpulseCreateRequire } from "node:module";',
  'import { fileURLToPath as __rpcpulseFileURLToPath } from "node:url";',
  'import { dirname as __rpcpulseDirname } from "node:path";',
  "const require = __rpcpulseCreateRequire(import.meta.url);",
  "const __filename = __rpcpulseFileURLToPath(import.meta.url);",
  "const __dirname = __rpcpulseDirname(__filename);",
].join("\n");

function parseArgs(argv) {
  const entries = {};
  let out = "dist";
  let migrations = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--out") out = argv[++i];
    else if (arg === "--migrations") migrations = true;
    else if (/^[a-z0-9-]+=.+\.ts$/.test(arg)) {
      const [name, entry] = arg.split("=");
      entries[name] = path.resolve(entry);
    } else throw new Error(`unknown argument ${arg} (expected --out DIR, --migrations or name=entry.ts)`);
  }
  if (Object.keys(entries).length === 0) throw new Error("no entry given (name=path/to/entry.ts)");
  return { entries, out: path.resolve(out), migrations };
}

/** Imports of the generated Prisma client resolve to the copy beside the bundle. */
const prismaClientExternal = {
  name: "prisma-client-external",
  setup(b) {
    b.onResolve({ filter: /generated\/client\/index\.js$/ }, () => ({
      path: "./prisma-client/index.js",
      external: true,
    }));
  },
};

const { entries, out, migrations } = parseArgs(process.argv.slice(2));
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const result = await build({
  entryPoints: entries,
  outdir: out,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // One file per entry: shared chunks would only save disk, and a single file is easier to reason about.
  splitting: false,
  sourcemap: "linked",
  sourcesContent: false,
  legalComments: "linked",
  metafile: true,
  logLevel: "warning",
  banner: { js: BANNER },
  external: OPTIONAL_NATIVE,
  // Workspace packages are TypeScript importing "./x.js" for "./x.ts" (AGENTS.md); esbuild maps that itself.
  plugins: [prismaClientExternal],
  define: { "process.env.NODE_ENV": "process.env.NODE_ENV" },
});

for (const file of PRISMA_CLIENT_FILES) {
  const target = path.join(out, "prisma-client", file);
  mkdirSync(path.dirname(target), { recursive: true });
  cpSync(path.join(PRISMA_CLIENT_DIR, file), target);
}
if (migrations) cpSync(path.join(repoRoot, "prisma/migrations"), path.join(out, "migrations"), { recursive: true });

const manifest = {};
for (const [file, info] of Object.entries(result.metafile.outputs)) {
  if (!file.endsWith(".mjs")) continue;
  const abs = path.resolve(file);
  manifest[path.relative(out, abs)] = {
    bytes: statSync(abs).size,
    // Not Node built-ins: the copied Prisma client and optional add-ons loaded inside a try.
    externals: [...new Set(info.imports.filter((i) => i.external).map((i) => i.path))]
      .filter((p) => !p.startsWith("node:") && !builtinModules.includes(p))
      .sort(),
  };
}
writeFileSync(path.join(out, "bundle-manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
for (const [name, info] of Object.entries(manifest)) {
  process.stdout.write(
    `${path.relative(process.cwd(), path.join(out, name))}: ${(info.bytes / 1024).toFixed(0)} KiB\n`,
  );
}
