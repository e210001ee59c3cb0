import { randomBytes } from "node:crypto";
import { hashAgentTokenSecret, secretMatches } from "../fleet/token-format.js";

/**
 * Organization API key: `rpk_<prefix>_<secret>`.
 *   prefix: 16 hex characters (8 random bytes), stored in clear, finds the row and is shown in lists;
 *   secret: 43 base64url characters (32 random bytes), only its SHA-256 is stored.
 * As for agent tokens, a 256-bit random secret needs no slow hash; verification compares hashes in
 * constant time. The key is shown once, at creation.
 */
export const API_KEY_PATTERN = /^rpk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface GeneratedApiKey {
  /** The plaintext, to show once; never stored or logged. */
  key: string;
  prefix: string;
  secretHash: string;
}

export function generateApiKey(): GeneratedApiKey {
  const prefix = randomBytes(8).toString("hex");
  const secret = randomBytes(32).toString("base64url");
  return { key: `rpk_${prefix}_${secret}`, prefix, secretHash: hashAgentTokenSecret(secret) };
}

/** Split a presented key; undefined when it does not have the key shape. */
export function parseApiKey(key: string): { prefix: string; secret: string } | undefined {
  const match = API_KEY_PATTERN.exec(key);
  if (!match) return undefined;
  return { prefix: match[1] as string, secret: match[2] as string };
}

/** Constant-time check of a presented secret against the stored SHA-256. */
export function apiKeySecretMatches(secret: string, storedHash: string): boolean {
  return secretMatches(secret, storedHash);
}

/** What lists show to recognise a key: `rpk_<prefix>`. */
export function displayApiKeyPrefix(prefix: string): string {
  return `rpk_${prefix}`;
}
