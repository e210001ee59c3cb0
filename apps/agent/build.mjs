// Bundle the agent into one executable ESM file (no native modules): dist/rpcpulse-agent.mjs.
import { chmodSync } from "node:fs";
import { build } from "esbuild";

const outfile = new URL("./dist/rpcpulse-agent.mjs", import.meta.url).pathname;
await build({
  entryPoints: [new URL("./src/cli.ts", import.meta.url).pathname],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  minify: true,
  keepNames: true,
  sourcemap: false,
  legalComments: "none",
  // CommonJS dependencies (pino) call require() for node builtins; give the ESM bundle one.
  banner: {
    js: '#!/usr/bin/env node\nimport { createRequire as __rpcpulseCreateRequire } from "node:module";\nconst require = __rpcpulseCreateRequire(import.meta.url);',
  },
  logLevel: "warning",
});
chmodSync(outfile, 0o755);
console.log(`built ${outfile}`);
