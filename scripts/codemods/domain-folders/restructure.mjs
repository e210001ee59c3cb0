#!/usr/bin/env node
// Issue 15 codemod: domain folders in every layer (packages/db, packages/services, apps/web).
//
//   node scripts/codemods/domain-folders/restructure.mjs <repo-dir> [--dry-run]
//
// 1. Reads mapping.json (beside this script): file/folder moves, folders that must end empty, and the
//    packages whose root barrel (src/index.ts) becomes one package entry per domain folder.
// 2. Builds one TypeScript program over the repository (typescript from <repo>/node_modules) and
//    - resolves every name imported from a package root barrel (`@rpcpulse/db`, `@rpcpulse/services`)
//      or from an in-package barrel (`../nodes/index.js`) to the leaf file that provides it, and splits the
//      import per new entry (other packages) or per leaf / domain index (same package); `import type` and
//      inline `type` specifiers are kept;
//    - rewrites every relative, `@/` and CSS import whose importer or target moves.
// 3. `git mv`s the files, `git rm`s the dissolved barrels and the root index.ts, writes one index.ts per
//    domain folder (the same export statements the root barrel had, so entries export what the root did),
//    and rewrites package.json `exports` (root "." removed, "./<domain>" added, moved targets updated).
// 4. Rewrites repository-relative paths of moved files in code/config files (not *.md: those are listed).
// 5. Applies the domain-boundary lint rules (lint-rules/ beside this script): .dependency-cruiser.cjs rules,
//    fixtures under scripts/lint-fixtures/boundaries, expectations in scripts/lint-rules.test.ts.
// 6. Runs prettier on the files it changed.
// Re-running on a tree where it was applied only re-applies the (idempotent) lint step and reports.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const toolsDir = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const dryRun = args.includes("--dry-run");
const repo = path.resolve(args.find((a) => !a.startsWith("--")) ?? ".");
const mapping = JSON.parse(fs.readFileSync(path.join(toolsDir, "mapping.json"), "utf8"));
const require = createRequire(path.join(repo, "package.json"));
const ts = require("typescript");

const problems = [];
const log = (...m) => console.log("[restructure]", ...m);
const rel = (abs) => path.relative(repo, abs).split(path.sep).join("/");
const abs = (r) => path.join(repo, r);
const git = (...a) => execFileSync("git", a, { cwd: repo, encoding: "utf8", maxBuffer: 64 << 20 });

const tracked = git("ls-files", "-z").split("\0").filter(Boolean);
const trackedSet = new Set(tracked);

// ---------------------------------------------------------------------------------------------------
// 1. The move plan, file by file.
// ---------------------------------------------------------------------------------------------------
const packages = Object.entries(mapping.packages).map(([name, dir]) => ({ name, dir, src: `${dir}/src` }));
const packageOf = (r) => packages.find((p) => r.startsWith(`${p.src}/`));
/** A domain-level barrel: packages/<p>/src/<dir>/index.ts made of export-from statements only. */
function isBarrelFile(r) {
  const p = packageOf(r);
  if (!p || path.posix.basename(r) !== "index.ts" || !fs.existsSync(abs(r))) return false;
  const sf = ts.createSourceFile(r, fs.readFileSync(abs(r), "utf8"), ts.ScriptTarget.Latest, true);
  return sf.statements.length > 0 && sf.statements.every((s) => ts.isExportDeclaration(s) && s.moduleSpecifier);
}
const isDomainBarrel = (r) => {
  const p = packageOf(r);
  return !!p && r.slice(p.src.length + 1).split("/").length === 2 && isBarrelFile(r);
};

const moveOf = new Map(); // old rel -> new rel
const deleted = new Set(); // old rel of barrels that go away
for (const [from, to] of mapping.moves) {
  const sources = from.endsWith("/") ? tracked.filter((f) => f.startsWith(from)) : trackedSet.has(from) ? [from] : [];
  for (const source of sources) {
    const target = from.endsWith("/") ? to + source.slice(from.length) : to;
    if (isDomainBarrel(source)) {
      deleted.add(source);
      continue;
    }
    if (moveOf.has(source)) problems.push(`${source} is moved twice by mapping.json`);
    moveOf.set(source, target);
  }
}
const targets = new Map();
for (const [s, t] of moveOf) {
  if (targets.has(t)) problems.push(`${s} and ${targets.get(t)} both move to ${t}`);
  targets.set(t, s);
  if (trackedSet.has(t) && !moveOf.has(t)) problems.push(`${s} -> ${t}: the target exists already`);
}
for (const dir of mapping.dissolved) {
  for (const f of tracked) if (f.startsWith(dir) && !moveOf.has(f) && isDomainBarrel(f)) deleted.add(f);
  const left = tracked.filter((f) => f.startsWith(dir) && !moveOf.has(f) && !deleted.has(f));
  for (const f of left) problems.push(`${f}: in a dissolved folder but not mapped (add it to mapping.json)`);
}
const rootBarrels = packages.map((p) => `${p.src}/index.ts`).filter((r) => trackedSet.has(r));
const alreadyApplied = moveOf.size === 0 && rootBarrels.length === 0;
if (problems.length) fail();
const newPath = (r) => moveOf.get(r) ?? r;

if (alreadyApplied) {
  log("moves and barrel split already applied (no mapped source and no root barrel left)");
} else {
  if (rootBarrels.length !== packages.length) {
    problems.push(`expected a root barrel in each of ${packages.map((p) => p.src).join(", ")}`);
    fail();
  }
  restructure();
}
applyLintRules();
if (problems.length) fail();
log(dryRun ? "dry run: nothing written" : "done");

function fail() {
  for (const p of problems) console.error("[restructure] ERROR", p);
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------------
// 2-4. Imports, moves, entries, paths.
// ---------------------------------------------------------------------------------------------------
function restructure() {
  const codeExt = /\.(ts|tsx|mts|cts)$/;
  const skip = (f) => /(^|\/)(node_modules|generated|\.next|dist)\//.test(f) || f.startsWith("scripts/lint-fixtures/");
  const codeFiles = tracked.filter((f) => codeExt.test(f) && !skip(f));
  const options = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.ReactJSX,
    resolveJsonModule: true,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    baseUrl: repo,
    paths: { "@/*": ["apps/web/src/*"] },
  };
  log(`building a program over ${codeFiles.length} files`);
  const program = ts.createProgram(codeFiles.map(abs), options);
  const checker = program.getTypeChecker();
  const host = ts.createCompilerHost(options);
  const sourceOf = (r) => program.getSourceFile(abs(r));

  /** Resolve a module specifier written in file `fromRel` to a repository-relative path (or null). */
  function resolveSpec(spec, fromRel) {
    const p = packages.find((pk) => spec === pk.name);
    if (p) return `${p.src}/index.ts`;
    const own = spec.startsWith(".") || spec.startsWith("@/");
    const res = ts.resolveModuleName(spec, abs(fromRel), options, host).resolvedModule;
    if (res && !res.isExternalLibraryImport) {
      const r = rel(fs.realpathSync(res.resolvedFileName));
      if (!r.startsWith("..") && !r.includes("node_modules/")) return r;
    }
    if (!own) return null;
    // Not TypeScript (CSS, JSON assets): a plain path.
    const base = spec.startsWith("@/")
      ? abs(`apps/web/src/${spec.slice(2)}`)
      : path.resolve(path.dirname(abs(fromRel)), spec);
    if (fs.existsSync(base) && fs.statSync(base).isFile()) return rel(base);
    problems.push(`${fromRel}: cannot resolve ${spec}`);
    return null;
  }

  // ---- barrels: leaves in order with their export clause, and name -> leaf ----
  const barrelCache = new Map();
  function walkBarrel(barrel, clause = "*", out = []) {
    const sf = sourceOf(barrel);
    for (const st of sf.statements) {
      const spec = st.moduleSpecifier.text;
      const target = resolveSpec(spec, barrel);
      if (!target) continue;
      let c = clause;
      if (st.exportClause) {
        const names = st.exportClause.elements.map((e) => e.name.text);
        if (st.exportClause.elements.some((e) => e.propertyName && e.propertyName.text !== e.name.text))
          problems.push(`${barrel}: renaming re-export of ${spec} is not supported`);
        c = clause === "*" ? names : clause.filter((n) => names.includes(n));
      }
      if (isBarrelFile(target) && packageOf(target)) walkBarrel(target, c, out);
      else out.push({ leaf: target, clause: c, typeOnly: st.isTypeOnly });
    }
    return out;
  }
  function barrelInfo(barrel) {
    if (barrelCache.has(barrel)) return barrelCache.get(barrel);
    const leaves = walkBarrel(barrel);
    const names = new Map();
    for (const { leaf, clause } of leaves) {
      const sym = checker.getSymbolAtLocation(sourceOf(leaf));
      const exported = clause === "*" ? (sym ? checker.getExportsOfModule(sym).map((s) => s.name) : []) : clause;
      for (const n of exported) if (!names.has(n) && n !== "default") names.set(n, leaf);
    }
    const info = { leaves, names };
    barrelCache.set(barrel, info);
    return info;
  }

  /** Domain of a (new) path inside a package: first folder under src, or the root file's base name. */
  function domainOf(newRel) {
    const p = packageOf(newRel);
    if (!p) return null;
    const parts = newRel.slice(p.src.length + 1).split("/");
    return parts.length > 1 ? parts[0] : parts[0].replace(/\.tsx?$/, "");
  }
  /** Barrels that are rewritten: root barrels, deleted ones, and domain barrels (regenerated). */
  const isSplitBarrel = (r) => rootBarrels.includes(r) || deleted.has(r) || isDomainBarrel(r);

  // ---- new entries per package ----
  const entryLeaves = new Map(); // pkg name -> Map(domain -> [{leaf, clause, typeOnly}])
  for (const p of packages) {
    const byDomain = new Map();
    for (const l of barrelInfo(`${p.src}/index.ts`).leaves) {
      const d = domainOf(newPath(l.leaf));
      if (!byDomain.has(d)) byDomain.set(d, []);
      byDomain.get(d).push(l);
    }
    entryLeaves.set(p.name, byDomain);
  }
  const isRootFileDomain = (p, d) =>
    !fs.existsSync(abs(`${p.src}/${d}`)) && ![...moveOf.values()].some((t) => t.startsWith(`${p.src}/${d}/`));

  function specFor(fromNew, toNew, originalSpec) {
    if (originalSpec.startsWith("@/") && toNew.startsWith("apps/web/src/")) {
      return "@/" + styled(toNew.slice("apps/web/src/".length), originalSpec);
    }
    let r = path.posix.relative(path.posix.dirname(fromNew), toNew);
    if (!r.startsWith(".")) r = `./${r}`;
    return styled(r, originalSpec);
  }
  function styled(p, originalSpec) {
    if (!/\.(ts|tsx|mts)$/.test(p) || /\.d\.ts$/.test(p)) return p; // CSS and other assets keep their name
    if (/\.(js|jsx|mjs)$/.test(originalSpec)) return p.replace(/\.tsx?$/, ".js").replace(/\.mts$/, ".mjs");
    if (/\.(ts|tsx)$/.test(originalSpec)) return p;
    // Extensionless (web): drop the extension, and /index when the original named a folder.
    const noExt = p.replace(/\.(ts|tsx)$/, "");
    return originalSpec.endsWith("/index") || !noExt.endsWith("/index") ? noExt : noExt.slice(0, -"/index".length);
  }
  const q = (s) => JSON.stringify(s);

  // ---- rewrite each file's imports ----
  const newContent = new Map(); // new rel -> text
  for (const fileRel of codeFiles) {
    if (deleted.has(fileRel) || rootBarrels.includes(fileRel)) continue;
    const sf = sourceOf(fileRel);
    if (!sf) continue;
    const fromNew = newPath(fileRel);
    const fromPkg = packageOf(fromNew);
    const edits = [];
    const visit = (node) => {
      let specNode = null;
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      )
        specNode = node.moduleSpecifier;
      else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      )
        specNode = node.arguments[0];
      else if (
        ts.isImportTypeNode(node) &&
        ts.isLiteralTypeNode(node.argument) &&
        ts.isStringLiteral(node.argument.literal)
      )
        specNode = node.argument.literal;
      else if (ts.isExternalModuleReference?.(node) && ts.isStringLiteral(node.expression)) specNode = node.expression;
      if (specNode) handle(node, specNode);
      ts.forEachChild(node, visit);
    };
    const handle = (node, specNode) => {
      const spec = specNode.text;
      const ownish = spec.startsWith(".") || spec.startsWith("@/") || packages.some((p) => spec === p.name);
      if (!ownish) return;
      const target = resolveSpec(spec, fileRel);
      if (!target) return;
      const toPkg = packageOf(target);
      const split =
        isSplitBarrel(target) &&
        !(
          isDomainBarrel(target) &&
          !deleted.has(target) &&
          domainOf(newPath(target)) !== domainOf(fromNew) &&
          fromPkg === toPkg
        );
      if (split && (ts.isImportDeclaration(node) || ts.isExportDeclaration(node))) {
        edits.push(splitDeclaration(node, target, fileRel, fromNew));
        return;
      }
      if (split) {
        problems.push(`${fileRel}: dynamic import or import type of barrel ${spec}: rewrite by hand`);
        return;
      }
      if (!(moveOf.has(target) || moveOf.has(fileRel))) return;
      if (packages.some((p) => spec === p.name)) return;
      let next;
      if (!moveOf.has(target)) {
        // Only the importer moves: keep the specifier's own file name (index.js of a generated index.d.ts).
        if (spec.startsWith("@/")) return;
        const named = path.posix.normalize(path.posix.join(path.posix.dirname(fileRel), spec));
        next = path.posix.relative(path.posix.dirname(fromNew), named);
        if (!next.startsWith(".")) next = `./${next}`;
      } else next = specFor(fromNew, newPath(target), spec);
      if (next !== spec) edits.push({ start: specNode.getStart(sf) + 1, end: specNode.getEnd() - 1, text: next });
    };
    visit(sf);
    let text = sf.getFullText();
    for (const e of edits.filter(Boolean).sort((a, b) => b.start - a.start))
      text = text.slice(0, e.start) + e.text + text.slice(e.end);
    if (edits.length || moveOf.has(fileRel)) newContent.set(fromNew, text);

    function splitDeclaration(node, barrel, fileRel, fromNew) {
      const info = barrelInfo(barrel);
      const isImport = ts.isImportDeclaration(node);
      const clause = isImport ? node.importClause : node;
      const bindings = isImport ? clause?.namedBindings : node.exportClause;
      if (
        !clause ||
        (isImport && clause.name) ||
        !bindings ||
        !(ts.isNamedImports(bindings) || ts.isNamedExports(bindings))
      ) {
        problems.push(
          `${fileRel}: ${node.getText(sf).slice(0, 80)}: only named imports of a barrel are split; rewrite by hand`,
        );
        return null;
      }
      const groups = new Map();
      for (const el of bindings.elements) {
        const name = (el.propertyName ?? el.name).text;
        const leaf = info.names.get(name);
        if (!leaf) {
          problems.push(`${fileRel}: ${name} is not exported by ${barrel}`);
          return null;
        }
        const leafNew = newPath(leaf);
        const leafPkg = packageOf(leafNew);
        let spec;
        if (leafPkg && leafPkg === fromPkg) {
          const d = domainOf(leafNew);
          const sameDomain = d === domainOf(fromNew) || isRootFileDomain(leafPkg, d);
          spec = specFor(fromNew, sameDomain ? leafNew : `${leafPkg.src}/${d}/index.ts`, ".js");
        } else {
          spec = `${leafPkg.name}/${domainOf(leafNew)}`;
        }
        if (!groups.has(spec)) groups.set(spec, []);
        groups.get(spec).push(el.getText(sf));
      }
      const typeOnly = isImport ? clause.isTypeOnly : node.isTypeOnly;
      const kw = isImport ? "import" : "export";
      const lines = [...groups].map(
        ([spec, els]) => `${kw} ${typeOnly ? "type " : ""}{ ${els.join(", ")} } from ${q(spec)};`,
      );
      return { start: node.getStart(sf), end: node.getEnd(), text: lines.join("\n") };
    }
  }
  if (problems.length) fail();

  // ---- domain index files and package.json exports ----
  const indexFiles = new Map();
  const pkgJsonEdits = new Map();
  for (const p of packages) {
    const byDomain = entryLeaves.get(p.name);
    const pj = JSON.parse(fs.readFileSync(abs(`${p.dir}/package.json`), "utf8"));
    const exportsOld = pj.exports ?? {};
    const exportsNew = {};
    for (const [k, v] of Object.entries(exportsOld)) {
      if (k === ".") continue;
      const target = `${p.dir}/${v.replace(/^\.\//, "")}`;
      exportsNew[k] = `./${path.posix.relative(p.dir, newPath(target))}`;
    }
    const domains = [...byDomain.keys()].sort();
    for (const d of domains) {
      if (isRootFileDomain(p, d)) {
        const [only] = byDomain.get(d);
        exportsNew[`./${d}`] = `./${path.posix.relative(p.dir, newPath(only.leaf))}`;
        continue;
      }
      const indexRel = `${p.src}/${d}/index.ts`;
      const lines = byDomain.get(d).map(({ leaf, clause, typeOnly }) => {
        const spec = specFor(indexRel, newPath(leaf), ".js");
        const t = typeOnly ? "type " : "";
        return clause === "*"
          ? `export ${t}* from ${q(spec)};`
          : `export ${t}{ ${clause.join(", ")} } from ${q(spec)};`;
      });
      indexFiles.set(indexRel, lines.join("\n") + "\n");
      if (exportsNew[`./${d}`]) problems.push(`${p.name}: entry ./${d} exists already`);
      exportsNew[`./${d}`] = `./src/${d}/index.ts`;
    }
    pj.exports = exportsNew;
    pkgJsonEdits.set(`${p.dir}/package.json`, pj);
    log(`${p.name} entries: ${Object.keys(exportsNew).join(" ")}`);
  }
  if (problems.length) fail();

  // ---- path strings in other files (code and config; docs are listed) ----
  const pathPairs = [...moveOf].map(([o, n]) => [o, n]).sort((a, b) => b[0].length - a[0].length);
  const folderPairs = mapping.moves.filter(([f]) => f.endsWith("/"));
  const textFiles = tracked.filter((f) => !skip(f) && /\.(ts|tsx|mjs|cjs|js|json|ya?ml|sh|md)$/.test(f));
  const docHits = [];
  const textEdits = new Map();
  for (const f of textFiles) {
    const fNew = newPath(f);
    let text = newContent.get(fNew) ?? (fs.existsSync(abs(f)) ? fs.readFileSync(abs(f), "utf8") : null);
    if (text == null) continue;
    const before = text;
    const oldRefs = [
      ...pathPairs.map(([o]) => o),
      ...folderPairs.map(([o]) => o),
      ...mapping.dissolved,
      ...rootBarrels,
      ...deleted,
    ];
    if (f.endsWith(".md")) {
      for (const o of new Set(oldRefs)) {
        const stem = o.replace(/\.ts$/, "");
        if (text.includes(stem)) docHits.push(`${f}: mentions ${o}`);
      }
      continue;
    }
    for (const [o, n] of pathPairs) {
      text = text.split(o).join(n);
      const oStem = o.replace(/\.tsx?$/, "");
      const nStem = n.replace(/\.tsx?$/, "");
      text = text.replace(new RegExp(`${escapeRe(oStem)}(?=["'\`.])`, "g"), nStem);
    }
    // folder-level mentions (comments): a folder moved as a whole names its new folder
    for (const [o, n] of folderPairs)
      text = text.replace(new RegExp(`${escapeRe(o.slice(0, -1))}(?![\\w-])`, "g"), n.slice(0, -1));
    // package-relative script paths (package.json: "tsx src/x.ts")
    if (path.posix.basename(f) === "package.json") {
      const dir = path.posix.dirname(f);
      for (const [o, n] of pathPairs)
        if (o.startsWith(`${dir}/`)) text = text.split(o.slice(dir.length + 1)).join(n.slice(dir.length + 1));
    }
    if (text !== before) textEdits.set(fNew, text);
    else
      for (const o of new Set(oldRefs)) if (text.includes(o)) docHits.push(`${f}: still mentions ${o} (check by hand)`);
  }

  if (dryRun) {
    log(
      `would move ${moveOf.size} files, delete ${deleted.size + rootBarrels.length} barrels, rewrite ${newContent.size} files`,
    );
    for (const h of docHits) log("doc:", h);
    return;
  }

  // ---- write ----
  for (const [o, n] of moveOf) {
    fs.mkdirSync(path.dirname(abs(n)), { recursive: true });
    git("mv", o, n);
  }
  for (const r of [...deleted, ...rootBarrels]) git("rm", "-q", r);
  // git leaves the emptied folders behind
  for (const dir of new Set([...mapping.dissolved, ...mapping.moves.map(([f]) => f).filter((f) => f.endsWith("/"))]))
    removeEmptyDirs(abs(dir));
  const changed = new Set();
  for (const [r, text] of [...newContent, ...textEdits]) {
    if (fs.readFileSync(abs(r), "utf8") !== text) fs.writeFileSync(abs(r), text);
    changed.add(r);
  }
  for (const [r, text] of indexFiles) {
    fs.mkdirSync(path.dirname(abs(r)), { recursive: true });
    fs.writeFileSync(abs(r), text);
    changed.add(r);
  }
  for (const [r, pj] of pkgJsonEdits) {
    fs.writeFileSync(abs(r), JSON.stringify(pj, null, 2) + "\n");
    changed.add(r);
  }
  prettier([...changed].filter((r) => fs.existsSync(abs(r))));
  git("add", "-A", "--", ...new Set([...changed].map((r) => path.posix.dirname(r))));
  fs.writeFileSync(path.join(toolsDir, "last-run-docs.txt"), docHits.join("\n") + "\n");
  log(`moved ${moveOf.size} files, removed ${deleted.size + rootBarrels.length} barrels, wrote ${changed.size} files`);
  log(`${docHits.length} mentions of old paths outside code: see ${path.join(toolsDir, "last-run-docs.txt")}`);
}

function removeEmptyDirs(dir) {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) return;
  for (const e of fs.readdirSync(dir)) removeEmptyDirs(path.join(dir, e));
  if (fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
}

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function prettier(files) {
  if (!files.length || dryRun) return;
  const bin = path.join(repo, "node_modules/prettier/bin/prettier.cjs");
  for (let i = 0; i < files.length; i += 200)
    execFileSync(process.execPath, [bin, "--write", "--log-level", "warn", ...files.slice(i, i + 200)], {
      cwd: repo,
      stdio: "inherit",
    });
}

// ---------------------------------------------------------------------------------------------------
// 5. Lint rules (idempotent).
// ---------------------------------------------------------------------------------------------------
function applyLintRules() {
  const rulesDir = path.join(toolsDir, "lint-rules");
  if (!fs.existsSync(rulesDir)) return;
  const { applyRules } = require(path.join(rulesDir, "apply.cjs"));
  const changed = applyRules({ repo, rulesDir, dryRun, problems, log });
  prettier(changed);
  if (changed.length && !dryRun) git("add", "--", ...changed);
}
