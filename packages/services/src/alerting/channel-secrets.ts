import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { AppError } from "@rpcpulse/config";

/**
 * Channel configurations (webhook signing secrets, Slack/Discord webhook URLs, Telegram bot
 * tokens) are stored encrypted with AES-256-GCM: "v1.<iv>.<tag>.<ciphertext>" in base64url. The
 * key comes from SECRETS_ENCRYPTION_KEY (web and worker share it); see deriveSecretsKey.
 */
export type SecretsKey = Buffer & { readonly __secretsKey: unique symbol };

/** 32-byte key from the configured material (any string of at least 32 characters). */
export function deriveSecretsKey(material: string): SecretsKey {
  if (material.length < 32) throw new AppError("CONFIG", "SECRETS_ENCRYPTION_KEY must be at least 32 characters.");
  return createHash("sha256").update(`rpcpulse-secrets-v1:${material}`).digest() as SecretsKey;
}

export function encryptSecret(key: SecretsKey, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return ["v1", iv.toString("base64url"), tag.toString("base64url"), body.toString("base64url")].join(".");
}

export function decryptSecret(key: SecretsKey, sealed: string): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || body === undefined)
    throw new AppError("INTERNAL", "Unreadable sealed secret.");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch (error) {
    throw new AppError("INTERNAL", "Secret could not be decrypted (was SECRETS_ENCRYPTION_KEY changed?).", {
      cause: error,
    });
  }
}

/**
 * The key from SECRETS_ENCRYPTION_KEY; without it (development and demo only) one derived from
 * DATABASE_URL, so web and worker of one install agree. Production without it is a CONFIG error.
 */
export function resolveSecretsKey(env: {
  SECRETS_ENCRYPTION_KEY?: string | undefined;
  DATABASE_URL: string;
  NODE_ENV: string;
  DEMO_MODE: boolean;
}): { key: SecretsKey; derived: boolean } {
  if (env.SECRETS_ENCRYPTION_KEY) return { key: deriveSecretsKey(env.SECRETS_ENCRYPTION_KEY), derived: false };
  if (env.NODE_ENV === "production" && !env.DEMO_MODE) {
    throw new AppError("CONFIG", "SECRETS_ENCRYPTION_KEY is required when NODE_ENV=production.");
  }
  return { key: deriveSecretsKey(`insecure-dev-key:${env.DATABASE_URL}`), derived: true };
}
