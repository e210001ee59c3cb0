/** Package boundaries of RPC Pulse (see AGENTS.md): checked in CI by `npm run lint`. */
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
      name: "sql-only-in-db",
      severity: "error",
      comment: "Only packages/db talks to Prisma or SQL.",
      from: { pathNot: "^packages/db/" },
      to: { path: "node_modules/(pg|@prisma/client|@prisma/adapter-pg)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(\\.next|dist|generated|node_modules)/" },
    tsPreCompilationDeps: true,
    combinedDependencies: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
      mainFields: ["main", "types"],
    },
  },
};
