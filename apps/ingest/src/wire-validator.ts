import { AppError } from "@rpcpulse/config";
import { agentBatchSchema, buildWireFormatJsonSchema, type AgentBatch } from "@rpcpulse/domain";
import { Ajv2020 } from "ajv/dist/2020.js";

/**
 * The agent batch check. The zod schema in @rpcpulse/domain is the contract; for speed it is
 * compiled (via its JSON Schema) to an ajv validator, 2–3× cheaper per sample than zod here.
 * When ajv refuses a body, zod re-checks it to word the 400 (so messages come from the contract),
 * and zod has the last word on acceptance too if the two ever disagree.
 * Unknown fields are tolerated (zod strips them), so a newer agent still talks to an older server.
 */
const MAX_ISSUES = 5;

/**
 * Two rewrites of zod's JSON Schema, both equivalent for validation: `additionalProperties: false`
 * goes (zod strips unknown keys rather than refusing them), and `anyOf: [X, {type: "null"}]` (how
 * zod writes .nullable()) becomes X with `type: [X.type, "null"]`, which ajv checks about twice as
 * fast (a failing anyOf branch builds error objects) — JSON Schema keywords only apply to their
 * own type, so null still passes and anything else is checked as before.
 */
function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = simplify(value);
  if (out.additionalProperties === false) delete out.additionalProperties;
  const branches = out.anyOf as Record<string, unknown>[] | undefined;
  if (Array.isArray(branches) && branches.length === 2) {
    const nullAt = branches.findIndex((b) => b.type === "null" && Object.keys(b).length === 1);
    const other = branches[1 - nullAt];
    if (nullAt >= 0 && other && typeof other.type === "string" && !("const" in other)) {
      delete out.anyOf;
      // An enum lists its values, so null joins the list (the type alone would not let it pass).
      const nullable = Array.isArray(other.enum) ? { enum: [...(other.enum as unknown[]), null] } : {};
      Object.assign(out, other, { type: [other.type, "null"] }, nullable);
    }
  }
  return out;
}

/**
 * ajv's accept/refuse decision alone (tests compare it with zod's on a corpus). String lengths
 * stay counted in code points (ajv's default, as zod counts them); `unicodeRegExp: false` compiles
 * zod's patterns (ASCII classes only, no `.`) without the slower `u` flag.
 */
export function compileFastWireCheck(): (body: unknown) => boolean {
  const schema = simplify(buildWireFormatJsonSchema()) as Record<string, unknown>;
  delete schema.$id;
  // Formats are enforced by the patterns zod emits next to them.
  const ajv = new Ajv2020({
    strict: false,
    validateFormats: false,
    allErrors: false,
    unicodeRegExp: false,
  });
  const check = ajv.compile(schema);
  return (body) => check(body) === true;
}

export function createWireValidator(): (body: unknown) => AgentBatch {
  const fast = compileFastWireCheck();
  return (body: unknown): AgentBatch => {
    if (fast(body)) return body as AgentBatch;
    const result = agentBatchSchema.safeParse(body);
    if (result.success) return result.data;
    const issues = result.error.issues.slice(0, MAX_ISSUES).map((issue) => ({
      path: issue.path.map(String).join(".") || "(body)",
      message: issue.message,
    }));
    const first = issues[0];
    throw new AppError(
      "VALIDATION",
      `Invalid batch: ${first ? `${first.path}: ${first.message}` : "does not match the wire format"}` +
        (result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more)` : ""),
      { details: { reason: "invalid_batch", issues } },
    );
  };
}
