// One lint setup for the whole repository (flat config). Type-aware rules are left to `tsc`
// so lint stays fast on a 2-core machine.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** The file-size cap (AGENTS.md: files under ~400 lines), counted without blank and comment lines. */
export const MAX_LINES = 400;

/**
 * The files allowed over MAX_LINES, each with a ceiling of its own (it may not grow past it) and the
 * reason it earns its size. scripts/lint-rules.test.ts fails on an entry that is no longer over the cap.
 */
export const FILE_SIZE_ALLOW_LIST = {
  "bench/fleet-load.ts": {
    max: 440,
    reason: "a stand-alone benchmark: agent simulator, process orchestration and report read top to bottom in one run",
  },
  "packages/services/test/advisor.int.test.ts": {
    max: 445,
    reason: "one seeded node and sample history shared by the suggestion lifecycle, verification and export scenarios",
  },
  "packages/services/test/alerting.int.test.ts": {
    max: 450,
    reason:
      "one before() with PostgreSQL, Redis and five local receivers (SMTP, webhook, Slack, Telegram) for six scenarios",
  },
  "packages/services/test/status-pages.int.test.ts": {
    max: 430,
    reason: "one before() with seeded telemetry, probes and the delivery queue for six scenarios of a page's life",
  },
};

const maxLines = (max) => ["error", { max, skipBlankLines: true, skipComments: true }];

/**
 * A Prisma model, $transaction or $queryRaw reached through a variable or property named `prisma`
 * (`prisma.node.findMany`, `deps.prisma.$transaction`): only packages/db does that. Passing the client
 * on (`deps.prisma`) and closing it (`$connect`/`$disconnect`) are fine.
 */
const PRISMA_CALL = [
  "MemberExpression[object.name='prisma'][property.name!=/^[$](dis)?connect$/]",
  "MemberExpression[object.property.name='prisma'][property.name!=/^[$](dis)?connect$/]",
].join(", ");

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/.next/**",
      "**/dist/**",
      "**/generated/**",
      "**/next-env.d.ts",
      "**/playwright-report/**",
      "**/test-results/**",
      "var/**",
      // One-off codemods kept only until they are applied (scripts/codemods/*/README.md), then deleted.
      "scripts/codemods/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,mts,cts,js,mjs,cjs}"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        fetch: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
      },
    },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration through the app's validated src/env.ts." },
      ],
      "max-lines": maxLines(MAX_LINES),
    },
  },
  {
    // The validated env modules, CLI entry scripts, benchmarks and CI helpers are where the environment is read.
    files: [
      "**/src/env.ts",
      "scripts/**",
      "bench/**",
      ".ci/**",
      "e2e/**",
      // Tests set up the environment of the child processes they start.
      "**/test/**",
      "**/playwright.config.ts",
      "**/next.config.ts",
      "prisma.config.ts",
    ],
    rules: { "no-restricted-properties": "off" },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { module: "writable", require: "readonly" } },
  },
  ...Object.entries(FILE_SIZE_ALLOW_LIST).map(([file, { max }]) => ({
    files: [file],
    rules: { "max-lines": maxLines(max) },
  })),
  {
    // AGENTS.md: only packages/db talks to Prisma or SQL (the SQL side is dependency-cruiser's sql-only-in-db).
    files: ["apps/*/src/**", "packages/*/src/**", "scripts/**"],
    ignores: ["packages/db/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: PRISMA_CALL,
          message: "Only packages/db queries Prisma: call (or add) a named, typed function of @rpcpulse/db instead.",
        },
      ],
    },
  },
);
