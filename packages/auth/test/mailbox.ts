import { createHash, createHmac } from "node:crypto";
import { simpleParser } from "mailparser";
import { waitFor } from "@rpcpulse/config/testing";
import { createMailer, type Mailer } from "@rpcpulse/notify";
import { startSmtpReceiver } from "@rpcpulse/notify/testing";

export interface ParsedMail {
  to: string[];
  subject: string;
  text: string;
}

/** A real SMTP server on loopback and the notify mailer (the relay code alerting uses) pointed at it. */
export async function startMailbox() {
  const receiver = await startSmtpReceiver();
  const mailer: Mailer = createMailer({ url: receiver.url, from: "RPC Pulse <accounts@test.local>", pool: false });
  let seen = 0;
  const parsed: ParsedMail[] = [];

  async function drain(): Promise<void> {
    while (seen < receiver.mails.length) {
      const raw = receiver.mails[seen]!;
      seen += 1;
      const mail = await simpleParser(raw.raw);
      parsed.push({ to: raw.to, subject: mail.subject ?? "", text: mail.text ?? "" });
    }
  }

  /** The newest mail to `to` whose subject matches (of those after the first `after`), waiting up to `timeoutMs`. */
  async function waitForMail(to: string, subject: RegExp, timeoutMs = 5_000, after = 0): Promise<ParsedMail> {
    return waitFor(
      `a mail to ${to} matching ${String(subject)}`,
      async () => {
        await drain();
        return parsed
          .slice(after)
          .filter((m) => m.to.includes(to) && subject.test(m.subject))
          .at(-1);
      },
      { timeoutMs, intervalMs: 25 },
    );
  }

  async function count(to: string, subject: RegExp): Promise<number> {
    await drain();
    return parsed.filter((m) => m.to.includes(to) && subject.test(m.subject)).length;
  }

  return {
    mailer,
    waitFor: waitForMail,
    count,
    /** How many mails were received so far (to wait only for newer ones). */
    received: async () => {
      await drain();
      return parsed.length;
    },
    close: async () => {
      mailer.close();
      await receiver.close();
    },
  };
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: ParsedMail, prefix: string): URL {
  const match = mail.text.match(new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\S*`));
  if (!match) throw new Error(`no link starting with ${prefix} in:\n${mail.text}`);
  return new URL(match[0]);
}

/** better-auth's "hashed" identifier storage: base64url(SHA-256(identifier)), no padding. */
export function hashedIdentifier(identifier: string): string {
  return createHash("sha256").update(identifier).digest("base64url");
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function decodeBase32(input: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of input.replace(/=+$/, "").toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226 HOTP with SHA-1 and dynamic truncation. */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/** RFC 6238 TOTP: HOTP over the number of 30-second steps since the epoch. */
export function totp(key: Buffer, atMs = Date.now(), digits = 6, periodSeconds = 30): string {
  return hotp(key, Math.floor(atMs / 1000 / periodSeconds), digits);
}
