#!/usr/bin/env node
// Bundle size of each public entry as an app ships it: the built file (dist/, run the build first) bundled
// and minified by esbuild for the browser, peers left out, then gzip -9.
//   node scripts/measure-size.mjs           print the table
//   node scripts/measure-size.mjs --write   write it into README.md (between the size markers)
//   node scripts/measure-size.mjs --check   exit 1 when README.md's table is not the measured one
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import prettier from "prettier";
import { PEERS, TARGET } from "./build.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const START = "<!-- size:start (npm run size -w @rpcpulse/client -- --write) -->";
const END = "<!-- size:end -->";

/** What is measured: label, import, and whether the core entry counts in it. */
const ROWS = [
  {
    label: "`@rpcpulse/client`, every export (picker, failover, dhive/polkadot helpers)",
    code: 'export * from "./dist/index.js";',
  },
  {
    label: "`@rpcpulse/client/viem` alone (core imported, not counted)",
    code: 'export * from "./dist/viem.js";',
    external: ["./index.js"],
  },
  {
    label: "`rpcPulse` from `@rpcpulse/client/viem` with the core code it uses (viem not counted)",
    code: 'export * from "./dist/viem.js";',
  },
];

async function measure(row) {
  const result = await build({
    stdin: { contents: row.code, resolveDir: root, loader: "js" },
    absWorkingDir: root,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: TARGET,
    external: [...PEERS.flatMap((p) => [p, `${p}/*`]), ...(row.external ?? [])],
    write: false,
    logLevel: "error",
  });
  const bytes = result.outputFiles[0].contents;
  return { label: row.label, min: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

const kb = (n) => `${(n / 1024).toFixed(1)} kB`;

export async function measureSizes() {
  const rows = [];
  for (const row of ROWS) rows.push(await measure(row));
  return rows;
}

export function sizeTable(rows) {
  return [
    "| Entry | Minified | Minified + gzip |",
    "| ----- | -------: | --------------: |",
    ...rows.map((r) => `| ${r.label} | ${kb(r.min)} | ${kb(r.gzip)} |`),
  ].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const table = sizeTable(await measureSizes());
  const readmePath = path.join(root, "README.md");
  const readme = await readFile(readmePath, "utf8");
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if ((process.argv.includes("--write") || process.argv.includes("--check")) && (start < 0 || end < start)) {
    console.error(`README.md has no size markers (${START} ... ${END})`);
    process.exit(1);
  }
  // Formatted as the repository's prettier would, so `prettier --check` and `--check` here agree.
  const options = (await prettier.resolveConfig(readmePath)) ?? {};
  const updated = await prettier.format(
    `${readme.slice(0, start + START.length)}\n\n${table}\n\n${readme.slice(end)}`,
    {
      ...options,
      filepath: readmePath,
    },
  );
  if (process.argv.includes("--write")) {
    await writeFile(readmePath, updated);
    console.log(table);
  } else if (process.argv.includes("--check")) {
    if (updated !== readme) {
      console.error(`README.md's size table is out of date; measured:\n${table}`);
      process.exit(1);
    }
    console.log("README.md's size table matches the build");
  } else console.log(table);
}
