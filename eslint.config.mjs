// One lint setup for the whole repository (flat config). Type-aware rules are left to `tsc`
// so lint stays fast on a 2-core machine.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

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
      "max-lines": ["warn", { max: 400, skipBlankLines: true, skipComments: true }],
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
  {
    files: ["**/test/**", "e2e/**", "bench/**"],
    rules: { "max-lines": "off" },
  },
);
