#!/usr/bin/env node
// Completes Next's standalone output (apps/web/.next/standalone) so `node apps/web/server.js` inside it
// serves everything, as apps/web/Dockerfile and scripts/e2e.sh run it. Run by `npm run build -w @rpcpulse/web`.
//
// - .next/static and public/ are not part of the standalone output (Next expects a CDN or a copy).
// - Prisma's generated client is bundled into the server chunks, where it has no __dirname of its own,
//   so it looks for its files under process.cwd() + "packages/db/src/generated/client". server.js
//   changes into its own folder (standalone/apps/web) first, and the query compiler (WebAssembly) is
//   read from the file system, not traced: both files go there.
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const webDir = path.join(repoRoot, "apps/web");
const serverDir = path.join(webDir, ".next/standalone/apps/web");
const PRISMA_FILES = ["schema.prisma", "query_compiler_bg.wasm"];

if (!existsSync(path.join(serverDir, "server.js"))) {
  process.stderr.write(`${path.relative(repoRoot, serverDir)}/server.js is missing: run next build first\n`);
  process.exit(1);
}

function replaceDir(from, to) {
  rmSync(to, { recursive: true, force: true });
  if (existsSync(from)) cpSync(from, to, { recursive: true });
}

replaceDir(path.join(webDir, ".next/static"), path.join(serverDir, ".next/static"));
replaceDir(path.join(webDir, "public"), path.join(serverDir, "public"));

const prismaFrom = path.join(repoRoot, "packages/db/src/generated/client");
const prismaTo = path.join(serverDir, "packages/db/src/generated/client");
mkdirSync(prismaTo, { recursive: true });
for (const file of PRISMA_FILES) cpSync(path.join(prismaFrom, file), path.join(prismaTo, file));
process.stdout.write(`standalone server ready: ${path.relative(repoRoot, serverDir)}/server.js\n`);
