// Node single executable application: the agent bundled as one CommonJS file (SEA mains are CJS),
// turned into a preparation blob by the runtime itself, and injected into a copy of the official
// binary with postject. The blob holds only the script (no V8 code cache or snapshot, which are
// tied to one CPU architecture), so one blob serves x64 and arm64.
import { execFile } from "node:child_process";
import { copyFileSync, chmodSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
/** The fuse Node looks for to know a blob was injected (documented in Node's single-executable-applications). */
export const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

export async function bundleForSea(entry, outfile) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node22",
    minify: true,
    keepNames: true,
    sourcemap: false,
    legalComments: "none",
    logLevel: "warning",
  });
}

/** Write the SEA preparation blob of `main` with a runtime that runs on this machine. */
export async function makeSeaBlob(runtime, main, blob) {
  const config = join(dirname(blob), "sea-config.json");
  writeFileSync(
    config,
    JSON.stringify({
      main,
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: false,
    }),
  );
  await run(runtime, ["--experimental-sea-config", config]);
}

/** Copy `runtime` to `out` and inject the blob (postject's CLI; its LIEF warnings are kept out of the log). */
export async function injectSea(runtime, blob, out) {
  copyFileSync(runtime, out);
  chmodSync(out, 0o755);
  const cli = join(dirname(require.resolve("postject")), "cli.js");
  try {
    await run(process.execPath, [cli, out, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE], {
      maxBuffer: 16 << 20,
    });
  } catch (error) {
    throw new Error(`postject failed for ${out}: ${error.stderr || error.message}`);
  }
}
