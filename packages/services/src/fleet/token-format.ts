import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Agent token: `rpa_<prefix>_<secret>`.
 *   prefix: 16 hex characters (8 random bytes), stored in clear, finds the row;
 *   secret: 43 base64url characters (32 random bytes), only its SHA-256 is stored.
 * A 256-bit random secret needs no slow hash: SHA-256 keeps verification cheap on every push,
 * and a database dump still reveals nothing usable. The token is shown once, at creation.
 */
export const AGENT_TOKEN_PATTERN = /^rpa_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface GeneratedAgentToken {
  /** The plaintext, to show once; never stored or logged. */
  token: string;
  prefix: string;
  secretHash: string;
}

export function hashAgentTokenSecret(secret: string): string {
  return `sha256:${createHash("sha256").update(secret, "utf8").digest("hex")}`;
}

export function generateAgentToken(): GeneratedAgentToken {
  const prefix = randomBytes(8).toString("hex");
  const secret = randomBytes(32).toString("base64url");
  return { token: `rpa_${prefix}_${secret}`, prefix, secretHash: hashAgentTokenSecret(secret) };
}

/** Split a presented token; undefined when it does not have the token shape. */
export function parseAgentToken(token: string): { prefix: string; secret: string } | undefined {
  const match = AGENT_TOKEN_PATTERN.exec(token);
  if (!match) return undefined;
  return { prefix: match[1] as string, secret: match[2] as string };
}

/** Constant-time comparison of the presented secret's hash with the stored one. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = Buffer.from(hashAgentTokenSecret(secret));
  const stored = Buffer.from(storedHash);
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
