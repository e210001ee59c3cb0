import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { z } from "zod";
import { AppError, databaseEnv, parseEnv, secretsEnv } from "../src/index.js";

const shape = { ...databaseEnv, ...secretsEnv, PORT: z.coerce.number().int().min(1).default(3000) };

function withSecretsDir(run: (dir: string) => void): void {
  const dir = mkdtempSync(path.join(tmpdir(), "rpcpulse-env-files-"));
  try {
    run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function configError(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof AppError && error.code === "CONFIG", `expected a CONFIG AppError, got ${String(error)}`);
    return error;
  }
  assert.fail("expected parseEnv to throw");
}

test("X_FILE supplies X from the file's trimmed content (Docker secrets end in a newline)", () => {
  withSecretsDir((dir) => {
    const key = path.join(dir, "secrets_key");
    const url = path.join(dir, "database_url");
    writeFileSync(key, "k".repeat(40) + "\n");
    writeFileSync(url, "  postgresql://app:s3cret@db:5432/rpcpulse\r\n");
    const env = parseEnv(shape, { SECRETS_ENCRYPTION_KEY_FILE: key, DATABASE_URL_FILE: url, PORT: "8080" });
    assert.equal(env.SECRETS_ENCRYPTION_KEY, "k".repeat(40));
    assert.equal(env.DATABASE_URL, "postgresql://app:s3cret@db:5432/rpcpulse");
    assert.equal(env.PORT, 8080);
  });
});

test("the file's value is validated like the variable itself", () => {
  withSecretsDir((dir) => {
    const key = path.join(dir, "short");
    writeFileSync(key, "too-short\n");
    const error = configError(() => parseEnv(shape, { SECRETS_ENCRYPTION_KEY_FILE: key }));
    assert.match(error.message, /SECRETS_ENCRYPTION_KEY: must be at least 32 characters/);
    assert.doesNotMatch(error.message, /too-short/, "the value never appears in the message");
  });
});

test("setting both X and X_FILE is refused, naming both", () => {
  withSecretsDir((dir) => {
    const key = path.join(dir, "key");
    writeFileSync(key, "k".repeat(40));
    const error = configError(() =>
      parseEnv(shape, { SECRETS_ENCRYPTION_KEY: "v".repeat(40), SECRETS_ENCRYPTION_KEY_FILE: key }),
    );
    assert.match(error.message, /both SECRETS_ENCRYPTION_KEY and SECRETS_ENCRYPTION_KEY_FILE are set/);
  });
});

test("a missing or empty file is an error that names the variable and the path", () => {
  withSecretsDir((dir) => {
    const missing = path.join(dir, "nope");
    const empty = path.join(dir, "empty");
    writeFileSync(empty, " \n");
    const error = configError(() =>
      parseEnv(shape, { SECRETS_ENCRYPTION_KEY_FILE: missing, DATABASE_URL_FILE: empty }),
    );
    assert.match(error.message, new RegExp(`SECRETS_ENCRYPTION_KEY_FILE: cannot read ${missing} \\(ENOENT\\)`));
    assert.match(error.message, new RegExp(`DATABASE_URL_FILE: ${empty} is empty`));
    assert.deepEqual(error.details, { variables: ["DATABASE_URL_FILE", "SECRETS_ENCRYPTION_KEY_FILE"] });
  });
});

test("an empty X_FILE is ignored, and a schema that declares X_FILE itself keeps it as a plain variable", () => {
  const own = { TOKEN: z.string().optional(), TOKEN_FILE: z.string().optional() };
  assert.deepEqual(parseEnv(own, { TOKEN_FILE: "/etc/agent/token" }), { TOKEN_FILE: "/etc/agent/token" });
  assert.equal(
    parseEnv(shape, { DATABASE_URL_FILE: "" }).DATABASE_URL,
    "postgresql://postgres@127.0.0.1:5432/rpcpulse",
  );
});
