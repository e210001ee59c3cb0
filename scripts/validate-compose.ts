/**
 * Validates docker-compose.yml without a Docker engine:
 *  1. YAML parses (merge keys on, as Compose does);
 *  2. after Compose-style interpolation with .env.example, the model validates against the
 *     Compose Specification JSON schema vendored in infra/compose-spec.schema.json;
 *  3. RPC Pulse invariants: healthchecks, depends_on conditions, no published data ports, pinned
 *     images, required (not baked) secrets, documented variables, existing build/mount paths,
 *     non-root images.
 * Usage: tsx scripts/validate-compose.ts [path/to/docker-compose.yml]   (exit 1 on any problem)
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { parseDocument } from "yaml";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SCHEMA_FILE = path.join(repoRoot, "infra", "compose-spec.schema.json");

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

export interface ComposeInput {
  composeText: string;
  envExampleText: string;
  /** Directory relative paths (build contexts, bind mounts, dockerfiles) are resolved from. */
  projectDir: string;
}

const isObj = (v: Json | undefined): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

// ---------------------------------------------------------------- interpolation (Compose spec)
const VAR_PATTERN =
  /\$(?:\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])((?:[^{}]|\{[^{}]*\})*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g;

export interface VariableUse {
  name: string;
  /** "-" / ":-" default, "?" / ":?" required, "+" / ":+" alternative, "" plain. */
  operator: string;
  argument: string;
}

export function findVariables(text: string): VariableUse[] {
  const uses: VariableUse[] = [];
  for (const m of text.matchAll(VAR_PATTERN)) {
    if (m[0] === "$$") continue;
    const name = m[1] ?? m[4];
    if (name) uses.push({ name, operator: m[2] ?? "", argument: m[3] ?? "" });
    if (m[3]) uses.push(...findVariables(m[3]));
  }
  return uses;
}

export function interpolate(text: string, env: Record<string, string>, problems: string[]): string {
  return text.replace(VAR_PATTERN, (whole, braced?: string, op?: string, arg?: string, bare?: string) => {
    if (whole === "$$") return "$";
    const name = (braced ?? bare) as string;
    const value = env[name];
    const set = value !== undefined;
    const nonEmpty = set && value !== "";
    const argument = interpolate(arg ?? "", env, problems);
    switch (op) {
      case ":-":
        return nonEmpty ? value : argument;
      case "-":
        return set ? value : argument;
      case ":?":
      case "?":
        if (op === ":?" ? nonEmpty : set) return value as string;
        problems.push(`required variable ${name} is not set: ${argument}`);
        return "";
      case ":+":
        return nonEmpty ? argument : "";
      case "+":
        return set ? argument : "";
      default:
        return value ?? "";
    }
  });
}

export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (m?.[1]) env[m[1]] = (m[2] ?? "").trim().replace(/^(['"])(.*)\1$/, "$2");
  }
  return env;
}

// ---------------------------------------------------------------- schema
let compiled: ReturnType<Ajv["compile"]> | undefined;
function schemaValidator() {
  if (!compiled) {
    const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
    // The vendored schema names draft-07 by an https URL that Ajv does not register; it is draft-07,
    // Ajv's default dialect, so the meta-schema reference is dropped rather than fetched.
    const { $schema: _dialect, ...schema } = JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as Record<string, unknown>;
    compiled = ajv.compile(schema);
  }
  return compiled;
}

// ---------------------------------------------------------------- invariants
const DATA_IMAGE = /^(?:[\w.-]+\/)*(?:postgres|timescaledb|redis|valkey)(?::|@|$)/;
const SECRET_KEY = /(PASSWORD|SECRET|TOKEN|PRIVATE_KEY)$/;

function isOneShot(service: Obj): boolean {
  return service.restart === "no";
}

function checkImagePinned(name: string, image: string, problems: string[]): void {
  if (image.includes("@sha256:")) return;
  const lastSegment = image.split("/").pop() ?? image;
  const tag = lastSegment.includes(":") ? lastSegment.slice(lastSegment.indexOf(":") + 1) : "";
  if (!tag) problems.push(`services.${name}.image "${image}" has no tag: pin a version`);
  else if (/^(latest|stable|main|edge)$/i.test(tag) || !/\d/.test(tag)) {
    problems.push(`services.${name}.image "${image}" is not pinned to a version (tag "${tag}")`);
  }
}

function lastStageUser(dockerfile: string): string | undefined {
  const stages = dockerfile.split(/^FROM\s/im);
  const last = stages[stages.length - 1] ?? "";
  const users = [...last.matchAll(/^USER\s+(\S+)/gim)].map((m) => m[1]);
  return users[users.length - 1];
}

/** Secret-looking variables only as X_FILE=/run/secrets/<name>, <name> granted to the service and defined. */
function checkSecrets(where: string, service: Obj, rawService: Obj, model: Obj, problems: string[]): void {
  const defined = isObj(model.secrets) ? model.secrets : {};
  const granted = new Set(
    (Array.isArray(service.secrets) ? service.secrets : []).map((s) => (isObj(s) ? String(s.source) : String(s))),
  );
  for (const name of granted) {
    if (!(name in defined)) problems.push(`${where}.secrets: ${name} is not defined under the top-level secrets`);
  }
  const env = rawService.environment;
  if (!isObj(env)) return;
  const usesDockerSecrets = Object.keys(defined).length > 0;
  for (const [key, value] of Object.entries(env)) {
    if (SECRET_KEY.test(key)) {
      // A file with Docker secrets uses them for every secret; otherwise a secret is a required
      // variable from .env (never a literal or a default in the file).
      const uses = typeof value === "string" ? findVariables(value) : [];
      if (usesDockerSecrets) {
        problems.push(
          `${where}.environment.${key}: a secret value in the environment; pass a Docker secret as ${key}_FILE`,
        );
      } else if (
        !uses.some((u) => u.operator === ":?" || u.operator === "?") ||
        uses.some((u) => u.operator.endsWith("-"))
      ) {
        problems.push(
          `${where}.environment.${key} must be a required variable like \${${key}:?...} (no literal, no default)`,
        );
      }
      continue;
    }
    if (!/_FILE$/.test(key) || typeof value !== "string") continue;
    const match = /^\/run\/secrets\/([\w.-]+)$/.exec(value);
    if (!match) {
      problems.push(`${where}.environment.${key} must name a Docker secret file (/run/secrets/<name>), is ${value}`);
    } else if (!granted.has(match[1] as string)) {
      problems.push(
        `${where}.environment.${key} reads secret ${match[1]}, which the service is not granted (secrets:)`,
      );
    }
  }
}

/** Top-level secrets come from files (created on the host, never committed), not from variables. */
function checkSecretDefinitions(model: Obj, problems: string[]): void {
  const defined = isObj(model.secrets) ? model.secrets : {};
  for (const [name, spec] of Object.entries(defined)) {
    if (!isObj(spec) || typeof spec.file !== "string")
      problems.push(`secrets.${name} must come from a file (file: ./secrets/${name})`);
  }
}

function checkInvariants(model: Obj, raw: Obj, input: ComposeInput, problems: string[]): void {
  const services = isObj(model.services) ? model.services : {};
  const rawServices = isObj(raw.services) ? raw.services : {};
  const names = Object.keys(services);
  if (names.length === 0) problems.push("no services defined");

  for (const name of names) {
    const service = services[name];
    const rawService = rawServices[name];
    if (!isObj(service) || !isObj(rawService)) continue;
    const where = `services.${name}`;

    // Healthchecks: every long-running service has one; one-shots do not need one.
    const hc = service.healthcheck;
    if (!isOneShot(service)) {
      if (!isObj(hc) || hc.disable === true || hc.test === undefined) {
        problems.push(`${where} has no healthcheck (every service except one-shots with restart: "no" needs one)`);
      }
      if (service.restart === undefined) problems.push(`${where} has no restart policy`);
    }

    // Images: pinned, also through their defaults.
    if (typeof service.image === "string") {
      checkImagePinned(name, service.image, problems);
      // A tag from a variable must be pinned by the file's own default too, not only by .env.
      if (typeof rawService.image === "string" && rawService.image.includes("$")) {
        checkImagePinned(name, interpolate(rawService.image, {}, []), problems);
      }
    } else if (!service.build) problems.push(`${where} has neither image nor build`);

    // Data services publish no host port by default.
    if (typeof service.image === "string" && DATA_IMAGE.test(service.image) && service.ports !== undefined) {
      problems.push(`${where} publishes a host port; the database and Redis stay on the compose network`);
    }

    // depends_on: long syntax, known services, condition matching the dependency's kind.
    const deps = service.depends_on;
    if (Array.isArray(deps)) {
      problems.push(`${where}.depends_on uses the short syntax: give each dependency a condition`);
    } else if (isObj(deps)) {
      for (const [dep, spec] of Object.entries(deps)) {
        const target = services[dep];
        if (!isObj(target)) {
          problems.push(`${where}.depends_on.${dep}: no such service`);
          continue;
        }
        const condition = isObj(spec) ? spec.condition : undefined;
        const expected = isOneShot(target) ? "service_completed_successfully" : "service_healthy";
        if (condition !== expected) {
          problems.push(`${where}.depends_on.${dep}: condition must be ${expected} (is ${String(condition)})`);
        }
      }
    }

    // Secrets are Docker secrets read through *_FILE variables: never a value in the environment.
    checkSecrets(where, service, rawService, model, problems);

    // With Docker secrets (the full stack), images built here run with a read-only root filesystem.
    if (isObj(model.secrets) && service.build !== undefined && service.read_only !== true)
      problems.push(`${where} is built from this repository but its root filesystem is writable (read_only: true)`);

    // Build: the dockerfile exists and its final stage drops root.
    const build = service.build;
    if (isObj(build) || typeof build === "string") {
      const context = path.resolve(input.projectDir, typeof build === "string" ? build : String(build.context ?? "."));
      const dockerfile = path.resolve(
        context,
        isObj(build) && typeof build.dockerfile === "string" ? build.dockerfile : "Dockerfile",
      );
      if (!existsSync(dockerfile))
        problems.push(`${where}.build: ${path.relative(input.projectDir, dockerfile)} does not exist`);
      else {
        const user = lastStageUser(readFileSync(dockerfile, "utf8"));
        if (!user || /^(root|0)(:|$)/.test(user))
          problems.push(`${where}.build: ${path.relative(input.projectDir, dockerfile)} final stage runs as root`);
      }
    }

    // Bind mounts exist; provisioning and SQL are mounted read-only.
    if (Array.isArray(service.volumes)) {
      for (const volume of service.volumes) {
        const spec =
          typeof volume === "string"
            ? volume
            : isObj(volume)
              ? `${String(volume.source)}:${String(volume.target)}${volume.read_only ? ":ro" : ""}`
              : "";
        const [source = "", , mode = ""] = spec.split(":");
        if (!source.startsWith(".") && !source.startsWith("/")) continue;
        if (!existsSync(path.resolve(input.projectDir, source)))
          problems.push(`${where}.volumes: ${source} does not exist`);
        if (mode !== "ro") problems.push(`${where}.volumes: bind mount ${source} must be read-only (:ro)`);
      }
    }
  }

  checkSecretDefinitions(model, problems);

  // Every variable the file reads is documented in .env.example.
  const documented = parseEnvFile(input.envExampleText);
  const used = new Set(findVariables(input.composeText).map((u) => u.name));
  for (const name of used) {
    if (!(name in documented))
      problems.push(`variable ${name} is used in the compose file but not documented in .env.example`);
  }
}

// ---------------------------------------------------------------- entry points
export function validateCompose(input: ComposeInput): string[] {
  const problems: string[] = [];
  const doc = parseDocument(input.composeText, { merge: true, prettyErrors: false });
  if (doc.errors.length > 0) return doc.errors.map((e) => `YAML: ${e.message}`);
  const raw = doc.toJS({ maxAliasCount: 100 }) as Json;
  if (!isObj(raw)) return ["the compose file is not a mapping"];

  // Interpolate with .env.example, filling required secrets with a placeholder (as a user's .env would).
  const env = parseEnvFile(input.envExampleText);
  for (const use of findVariables(input.composeText)) {
    if ((use.operator === ":?" || use.operator === "?") && !env[use.name])
      env[use.name] = "placeholder-secret-0123456789abcdef";
  }
  const interpolationProblems: string[] = [];
  const interpolatedDoc = parseDocument(interpolate(input.composeText, env, interpolationProblems), { merge: true });
  problems.push(...interpolationProblems);
  if (interpolatedDoc.errors.length > 0)
    return [...problems, ...interpolatedDoc.errors.map((e) => `YAML after interpolation: ${e.message}`)];
  const model = interpolatedDoc.toJS({ maxAliasCount: 100 }) as Json;
  if (!isObj(model)) return [...problems, "the compose file is not a mapping after interpolation"];

  const validate = schemaValidator();
  if (!validate(model)) {
    for (const error of validate.errors ?? []) {
      const extra =
        error.params && "additionalProperty" in error.params ? ` (${String(error.params.additionalProperty)})` : "";
      problems.push(`schema: ${error.instancePath || "/"} ${error.message ?? "is invalid"}${extra}`);
    }
  }
  checkInvariants(model, raw, input, problems);
  return [...new Set(problems)];
}

export function validateComposeFile(composeFile: string): string[] {
  const projectDir = path.dirname(path.resolve(composeFile));
  const envExample = path.join(projectDir, ".env.example");
  return validateCompose({
    composeText: readFileSync(composeFile, "utf8"),
    envExampleText: existsSync(envExample) ? readFileSync(envExample, "utf8") : "",
    projectDir,
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = path.resolve(process.argv[2] ?? path.join(repoRoot, "docker-compose.yml"));
  const problems = validateComposeFile(file);
  if (problems.length > 0) {
    process.stderr.write(
      `${path.relative(process.cwd(), file)}: ${problems.length} problem(s)\n  ${problems.join("\n  ")}\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`${path.relative(process.cwd(), file)}: valid (Compose Specification + RPC Pulse invariants)\n`);
}
