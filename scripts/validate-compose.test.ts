// Proves scripts/validate-compose.ts accepts the real docker-compose.yml and rejects broken copies,
// and that the grafana-role step's SQL gives a read-only, allow-listed role on a real PostgreSQL.
// Run by `npm run validate:compose` (node --import tsx --test).
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { findVariables, interpolate, validateCompose } from "./validate-compose.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const composeText = readFileSync(path.join(root, "docker-compose.yml"), "utf8");
const envExampleText = readFileSync(path.join(root, ".env.example"), "utf8");

function problemsAfter(edit: (text: string) => string, env = envExampleText): string[] {
  const broken = edit(composeText);
  assert.notEqual(broken, composeText, "the edit must change the file");
  return validateCompose({ composeText: broken, envExampleText: env, projectDir: root });
}

function expectProblem(problems: string[], pattern: RegExp): void {
  assert.ok(
    problems.some((p) => pattern.test(p)),
    `expected a problem matching ${pattern}, got:\n  ${problems.join("\n  ")}`,
  );
}

describe("validate-compose", () => {
  it("accepts the repository's docker-compose.yml", () => {
    assert.deepEqual(validateCompose({ composeText, envExampleText, projectDir: root }), []);
  });

  it("rejects invalid YAML", () => {
    expectProblem(
      problemsAfter((t) => t.replace("services:\n", "services:\n  - [oops\n")),
      /^YAML/,
    );
  });

  it("rejects what the Compose Specification forbids (unknown key, bad depends_on condition)", () => {
    expectProblem(
      problemsAfter((t) => t.replace("    stop_grace_period: 30s", "    stop_grace_periode: 30s")),
      /schema: \/services\/worker .*\(stop_grace_periode\)/,
    );
    expectProblem(
      problemsAfter((t) => t.replace("condition: service_completed_successfully", "condition: service_finished")),
      /schema: \/services\/grafana-role\/depends_on\/migrate\/condition must be equal to one of the allowed values/,
    );
  });

  it("rejects a long-running service without a healthcheck", () => {
    const withoutWorkerHealthcheck = (t: string) =>
      t.replace(/(\n {2}worker:[\s\S]*?)\n {4}healthcheck:\n(?: {6}.*\n| {8}.*\n)+/, "$1\n");
    expectProblem(problemsAfter(withoutWorkerHealthcheck), /services\.worker has no healthcheck/);
  });

  it("rejects a host-published database port", () => {
    expectProblem(
      problemsAfter((t) =>
        t.replace("    volumes:\n      - pgdata:", '    ports:\n      - "5432:5432"\n    volumes:\n      - pgdata:'),
      ),
      /services\.timescaledb publishes a host port/,
    );
  });

  it("rejects unpinned images, including through a variable default", () => {
    expectProblem(
      problemsAfter((t) => t.replace("image: redis:7.4.2-bookworm", "image: redis:latest")),
      /services\.redis\.image "redis:latest" is not pinned/,
    );
    expectProblem(
      problemsAfter((t) => t.replace("image: grafana/grafana-oss:11.6.0", "image: grafana/grafana-oss")),
      /services\.grafana\.image .* has no tag/,
    );
    expectProblem(
      problemsAfter((t) => t.replace("${RPCPULSE_VERSION:-0.1.0}", "${RPCPULSE_VERSION:-latest}")),
      /rpcpulse\/worker:latest" is not pinned/,
    );
  });

  it("rejects depends_on without the right condition", () => {
    expectProblem(
      problemsAfter((t) => t.replace(/(\n {2}web:[\s\S]*?redis:\n\s+condition: )service_healthy/, "$1service_started")),
      /services\.web\.depends_on\.redis: condition must be service_healthy \(is service_started\)/,
    );
    expectProblem(
      problemsAfter((t) =>
        t.replace(/(\n {2}worker:[\s\S]*?migrate:\n\s+condition: )service_completed_successfully/, "$1service_healthy"),
      ),
      /services\.worker\.depends_on\.migrate: condition must be service_completed_successfully/,
    );
    expectProblem(
      problemsAfter((t) =>
        t.replace(
          "      migrate:\n        condition: service_completed_successfully\n      redis:",
          "      migrat:\n        condition: service_completed_successfully\n      redis:",
        ),
      ),
      /depends_on\.migrat: no such service/,
    );
  });

  it("rejects a secret in the environment instead of a Docker secret, and a *_FILE not granted", () => {
    expectProblem(
      problemsAfter(
        (t) =>
          t.replace(
            "GF_SECURITY_ADMIN_PASSWORD__FILE: /run/secrets/grafana_admin_password",
            "GF_SECURITY_ADMIN_PASSWORD: ${GRAFANA_ADMIN_PASSWORD:?set it}",
          ),
        `${envExampleText}\nGRAFANA_ADMIN_PASSWORD=\n`,
      ),
      /services\.grafana\.environment\.GF_SECURITY_ADMIN_PASSWORD: a secret value in the environment; pass a Docker secret/,
    );
    expectProblem(
      problemsAfter((t) =>
        t.replace(/(\n {2}worker:[\s\S]*?secrets:\n {6}- database_url\n) {6}- secrets_encryption_key\n/, "$1"),
      ),
      /services\.worker\.environment\.SECRETS_ENCRYPTION_KEY_FILE reads secret secrets_encryption_key, which the service is not granted/,
    );
    expectProblem(
      problemsAfter((t) =>
        t.replace("    file: ${SECRETS_DIR:-./secrets}/database_url", "    environment: DATABASE_URL"),
      ),
      /secrets\.database_url must come from a file/,
    );
  });

  it("leaves WORKER_ID unset, so each scaled worker replica names itself <container id>:<pid>", () => {
    const worker = /\n {2}worker:\n([\s\S]*?)\n {2}\S/.exec(composeText)?.[1] ?? "";
    assert.match(worker, /WORKER_HEALTH_PORT/, "found the worker service");
    assert.doesNotMatch(worker, /^\s+WORKER_ID:/m);
    assert.doesNotMatch(worker, /container_name:/, "a container_name would make --scale impossible");
  });

  it("rejects an app service whose root filesystem is writable", () => {
    expectProblem(
      problemsAfter((t) =>
        t.replace(
          "x-app-hardening: &app-hardening\n  read_only: true",
          "x-app-hardening: &app-hardening\n  read_only: false",
        ),
      ),
      /services\.worker is built from this repository but its root filesystem is writable/,
    );
  });

  it("rejects a variable missing from .env.example and a writable provisioning mount", () => {
    expectProblem(
      problemsAfter((t) => t.replace("LOG_LEVEL: ${LOG_LEVEL:-info}", "LOG_LEVEL: ${WORKER_LOG_LEVEL:-info}")),
      /WORKER_LOG_LEVEL is used .* not documented in \.env\.example/,
    );
    expectProblem(
      problemsAfter((t) =>
        t.replace(
          "./infra/grafana/provisioning:/etc/grafana/provisioning:ro",
          "./infra/grafana/provisioning:/etc/grafana/provisioning",
        ),
      ),
      /bind mount \.\/infra\/grafana\/provisioning must be read-only/,
    );
  });

  it("exits non-zero on a broken copy when run as a command", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "rpcpulse-compose-"));
    try {
      const broken = path.join(dir, "docker-compose.yml");
      writeFileSync(broken, composeText.replace("image: redis:7.4.2-bookworm", "image: redis"));
      writeFileSync(path.join(dir, ".env.example"), envExampleText);
      const run = spawnSync(
        process.execPath,
        ["--import", "tsx", path.join(root, "scripts/validate-compose.ts"), broken],
        { encoding: "utf8" },
      );
      assert.equal(run.status, 1);
      assert.match(run.stderr, /services\.redis\.image "redis" has no tag/);
      const ok = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts/validate-compose.ts")], {
        encoding: "utf8",
        cwd: root,
      });
      assert.equal(ok.status, 0, ok.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("interpolates like Compose", () => {
    const problems: string[] = [];
    assert.equal(interpolate("a=${A:-x} b=${B-y} c=$$C d=${D:?need D}", { A: "", B: "" }, problems), "a=x b= c=$C d=");
    assert.deepEqual(problems, ["required variable D is not set: need D"]);
    assert.deepEqual(
      findVariables("${A:-${B}} $$C $D").map((u) => u.name),
      ["A", "B", "D"],
    );
  });
});

describe("grafana read-only role SQL (infra/postgres/grafana-readonly-role.sql)", () => {
  const psql = (db: string, ...args: string[]) =>
    execFileSync(
      "psql",
      ["-h", "127.0.0.1", "-U", "postgres", "-d", db, "--no-psqlrc", "-qAt", "--set=ON_ERROR_STOP=1", ...args],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );

  it("creates rpcpulse_grafana idempotently: reads allow-listed tables only, cannot write", () => {
    const db = `rpcpulse_t_${randomBytes(6).toString("hex")}`;
    const roleExisted =
      psql("postgres", "-c", "SELECT count(*) FROM pg_roles WHERE rolname = 'rpcpulse_grafana'").trim() === "1";
    psql("postgres", "-c", `CREATE DATABASE ${db}`);
    try {
      psql(
        db,
        "-c",
        "CREATE TABLE users (id int); CREATE TABLE nodes (id int); INSERT INTO nodes VALUES (1); INSERT INTO users VALUES (1)",
      );
      const sqlFile = path.join(root, "infra/postgres/grafana-readonly-role.sql");
      for (let run = 0; run < 2; run += 1) psql(db, "--set=grafana_password=a-long-enough-password", "--file", sqlFile);
      const asGrafana = (sql: string) =>
        spawnSync("psql", ["-h", "127.0.0.1", "-U", "rpcpulse_grafana", "-d", db, "--no-psqlrc", "-qAt", "-c", sql], {
          encoding: "utf8",
        });
      assert.equal(asGrafana("SELECT count(*) FROM nodes").stdout.trim(), "1");
      assert.match(asGrafana("SELECT * FROM users").stderr, /permission denied for table users/);
      assert.match(asGrafana("CREATE TABLE t (i int)").stderr, /read-only transaction/);
      const short = spawnSync(
        "psql",
        [
          "-h",
          "127.0.0.1",
          "-U",
          "postgres",
          "-d",
          db,
          "--no-psqlrc",
          "-q",
          "--set=ON_ERROR_STOP=1",
          "--set=grafana_password=short",
          "--file",
          sqlFile,
        ],
        { encoding: "utf8" },
      );
      assert.notEqual(short.status, 0);
      assert.match(short.stderr, /GRAFANA_DB_PASSWORD must be at least 16 characters/);
    } finally {
      psql("postgres", "-c", `DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      if (!roleExisted) psql("postgres", "-c", "DROP ROLE IF EXISTS rpcpulse_grafana");
    }
  });
});

describe("Caddyfile (infra/caddy/Caddyfile), adapted by a real caddy", () => {
  it("serves APP_DOMAIN over HTTPS: /v1/ingest* to the ingest service, the rest to web, at their compose ports", () => {
    const adapted = spawnSync(
      "caddy",
      ["adapt", "--config", path.join(root, "infra/caddy/Caddyfile"), "--adapter", "caddyfile", "--validate"],
      { encoding: "utf8", env: { ...process.env, APP_DOMAIN: "pulse.example.org" } },
    );
    assert.equal(adapted.error, undefined, "caddy is not installed (Debian: apt-get install caddy; .ci/run does it)");
    assert.equal(adapted.status, 0, adapted.stderr);
    const config = JSON.parse(adapted.stdout);
    const server = Object.values(config.apps.http.servers)[0] as { listen: string[]; routes: unknown[] };
    assert.deepEqual(server.listen, [":443"], "HTTPS with automatic certificates (HTTP redirects to it)");
    const text = JSON.stringify(server.routes);
    assert.match(text, /"host":\["pulse\.example\.org"\]/);
    // Each handle block: its path matcher and the upstream it dials.
    const upstreams = [...text.matchAll(/"dial":"([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(upstreams, ["ingest:3003", "web:3000"]);
    assert.match(text, /"dial":"ingest:3003"}\]}\]}\]}\],"match":\[{"path":\["\/v1\/ingest\*"\]}\]/);
    // The compose services listen where Caddy dials.
    assert.match(composeText, /\n {2}ingest:[\s\S]*?INGEST_PORT: "3003"/);
    assert.match(composeText, /\n {2}web:[\s\S]*?PORT: "3000"/);
    assert.match(composeText, /INGEST_PUBLIC_URL: https:\/\/\$\{APP_DOMAIN:\?[^}]*\}\/v1\/ingest/);
  });
});
