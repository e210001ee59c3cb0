import { readFile } from "node:fs/promises";
import path from "node:path";

/**
 * What a published tarball of @rpcpulse/client may hold, checked on its unpacked `package/` folder:
 * only the build, README, LICENSE and package.json; no tests and no TypeScript sources; source maps (if
 * any) only to files that are in the tarball; no import of anything outside the package except the
 * optional peers; a package.json without workspace links. Returns the problems found (empty = fine).
 */

export const PEERS = ["viem", "@hiveio/dhive", "@polkadot/api"];
const ALLOWED_TOP = /^(package\.json|README\.md|LICENSE(\.md|\.txt)?)$/;
const ALLOWED_DIST = /^dist\/[a-z0-9/-]+\.(js|cjs|d\.ts|d\.cts|js\.map|cjs\.map)$/;
const CODE = /\.(js|cjs|d\.ts|d\.cts)$/;

function specifiersOf(text: string): string[] {
  const out: string[] = [];
  const patterns = [
    /\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) out.push(m[1] as string);
  return out;
}

function isPeer(specifier: string): boolean {
  return PEERS.some((p) => specifier === p || specifier.startsWith(`${p}/`));
}

/** Resolve a relative specifier of a built file the way Node/TypeScript would, within the tarball. */
function resolvesInside(from: string, specifier: string, files: ReadonlySet<string>): boolean {
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  if (target.startsWith("../")) return false;
  const candidates = [target];
  if (/\.d\.c?ts$/.test(from)) candidates.push(target.replace(/\.js$/, ".d.ts"), target.replace(/\.cjs$/, ".d.cts"));
  return candidates.some((c) => files.has(c));
}

export async function checkTarball(dir: string, fileList: readonly string[]): Promise<string[]> {
  const problems: string[] = [];
  const files = new Set(fileList.map((f) => f.split(path.sep).join("/")));
  for (const file of files) {
    if (!ALLOWED_TOP.test(file) && !ALLOWED_DIST.test(file)) problems.push(`${file}: not part of the build`);
    if (/(^|\/)(test|tests|__tests__)\/|\.test\.|\.spec\./.test(file)) problems.push(`${file}: a test`);
    if (/(^|\/)src\//.test(file)) problems.push(`${file}: source, not build`);
  }

  for (const file of files) {
    const text = await readFile(path.join(dir, file), "utf8");
    if (/\/work\/|\/home\/|\/root\/|[A-Z]:\\\\/.test(text))
      problems.push(`${file}: carries an absolute path of the build machine`);
    if (file.endsWith(".map")) {
      let map: { sources?: unknown; sourceRoot?: unknown };
      try {
        map = JSON.parse(text) as typeof map;
      } catch {
        problems.push(`${file}: not a JSON source map`);
        continue;
      }
      const root = typeof map.sourceRoot === "string" ? map.sourceRoot : "";
      for (const source of Array.isArray(map.sources) ? map.sources : []) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), root, String(source)));
        if (!files.has(target)) problems.push(`${file}: maps to ${String(source)}, which is not in the tarball`);
      }
      continue;
    }
    if (!CODE.test(file)) continue;
    for (const m of text.matchAll(/[#@]\s*sourceMappingURL=(\S+)/g)) {
      const url = m[1] as string;
      if (url.startsWith("data:")) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), url));
      if (!files.has(target)) problems.push(`${file}: sourceMappingURL ${url} is not in the tarball`);
    }
    for (const specifier of specifiersOf(text)) {
      if (specifier.startsWith(".")) {
        if (!resolvesInside(file, specifier, files)) problems.push(`${file}: imports ${specifier}, not in the tarball`);
      } else if (specifier.startsWith("node:")) {
        problems.push(`${file}: imports ${specifier} (the package must stay browser-safe)`);
      } else if (!isPeer(specifier)) {
        problems.push(`${file}: imports ${specifier}, which is neither in the package nor an optional peer`);
      }
    }
  }

  const pkg = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")) as Record<string, unknown>;
  if (pkg.private === true) problems.push("package.json: private");
  if (pkg.sideEffects !== false) problems.push("package.json: sideEffects is not false");
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
    for (const [name, spec] of Object.entries((pkg[field] as Record<string, string> | undefined) ?? {})) {
      if (name.startsWith("@rpcpulse/")) problems.push(`package.json: ${field} names the workspace package ${name}`);
      if (/^(workspace:|file:|link:|\.)/.test(spec)) problems.push(`package.json: ${field}.${name} is ${spec}`);
    }
  }
  const targets: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") targets.push(value);
    else if (value && typeof value === "object") for (const v of Object.values(value)) walk(v);
  };
  walk(pkg.exports);
  walk(pkg.main);
  walk(pkg.module);
  walk(pkg.types);
  if (targets.length === 0) problems.push("package.json: no exports");
  for (const target of targets) {
    const file = path.posix.normalize(target);
    if (!files.has(file)) problems.push(`package.json: points at ${target}, which is not in the tarball`);
  }
  return problems;
}
