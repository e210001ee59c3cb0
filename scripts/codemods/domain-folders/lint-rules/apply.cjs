// Applies the issue-15 domain-boundary rules to a repository (idempotent): the rules into .dependency-cruiser.cjs,
// the planted violations and controls into scripts/lint-fixtures/boundaries, the expectations into
// scripts/lint-rules.test.ts. Returns the files it changed.
const fs = require("node:fs");
const path = require("node:path");

const EXPECTED = [
  "services-domain-reaches-own-db-domain: packages/services/src/status/reaches-advisor-db.ts",
  "services-root-reaches-orgs: packages/services/src/root-reaches-fleet.ts",
  "web-feature-reaches-own-domain: apps/web/src/features/status/reaches-advisor-service.ts",
  "web-feature-reaches-own-domain: apps/web/src/features/status/reaches-fleet-feature.ts",
];

function listFiles(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

function applyRules({ repo, rulesDir, dryRun, problems, log }) {
  const changed = [];
  const write = (rel, text) => {
    const file = path.join(repo, rel);
    if (fs.existsSync(file) && fs.readFileSync(file, "utf8") === text) return;
    changed.push(rel);
    if (dryRun) return;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };

  // .dependency-cruiser.cjs
  const cruiserRel = ".dependency-cruiser.cjs";
  let cruiser = fs.readFileSync(path.join(repo, cruiserRel), "utf8");
  if (!cruiser.includes("SERVICES_DB_CROSS_DOMAIN")) {
    const block = fs.readFileSync(path.join(rulesDir, "rules.cjs.txt"), "utf8");
    const exportsAt = cruiser.indexOf("module.exports = {");
    const optionsAt = cruiser.search(/\n  \],\n  options: \{/);
    if (exportsAt < 0 || optionsAt < 0)
      problems.push(`${cruiserRel}: cannot find module.exports / the end of forbidden`);
    else {
      cruiser = cruiser.slice(0, optionsAt) + "\n    ...domainRules," + cruiser.slice(optionsAt);
      cruiser = cruiser.slice(0, exportsAt) + block.trimStart() + "\n" + cruiser.slice(exportsAt);
      write(cruiserRel, cruiser);
    }
  }

  // fixtures
  const fixtures = path.join(rulesDir, "fixtures");
  for (const file of listFiles(fixtures)) {
    const rel = path.join("scripts/lint-fixtures/boundaries", path.relative(fixtures, file)).split(path.sep).join("/");
    write(rel, fs.readFileSync(file, "utf8"));
  }

  // expectations
  const testRel = "scripts/lint-rules.test.ts";
  let test = fs.readFileSync(path.join(repo, testRel), "utf8");
  const m = /assert\.deepEqual\(found, \[\n([\s\S]*?)\n    \]\);/.exec(test);
  if (!m) problems.push(`${testRel}: cannot find the expected violations list`);
  else {
    const lines = m[1]
      .split("\n")
      .map((l) => l.trim().replace(/,$/, ""))
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const all = [...new Set([...lines, ...EXPECTED])].sort();
    if (all.length !== lines.length) {
      const body = all.map((l) => `      ${JSON.stringify(l)},`).join("\n");
      test = test.slice(0, m.index) + `assert.deepEqual(found, [\n${body}\n    ]);` + test.slice(m.index + m[0].length);
    }
    const note =
      "//  - issue 15's domain rules: services/<d> reaches db/<d> and db's sql entry, web features/<d> its own domain,\n" +
      "//    each with a short documented cross-domain list (services-domain-reaches-own-db-domain,\n" +
      "//    services-root-reaches-orgs, web-feature-reaches-own-domain).\n";
    const anchor = "//  - eslint (eslint.config.mjs)";
    if (!test.includes("issue 15's domain rules") && test.includes(anchor)) test = test.replace(anchor, note + anchor);
    write(testRel, test);
  }
  log(`lint rules: ${changed.length ? `${changed.length} files written` : "already applied"}`);
  return dryRun ? [] : changed;
}

module.exports = { applyRules };
