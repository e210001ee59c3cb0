/**
 * Per-address budget for account mail (reset and verification links), on top of the per-client-IP
 * rate limits: requests from many addresses cannot flood one mailbox. Kept in the same table as
 * better-auth's rate limiter (rate_limits), under its own keys, so it holds across web instances.
 */
export const ACCOUNT_MAILS_PER_WINDOW = 3;
export const ACCOUNT_MAIL_WINDOW_SECONDS = 60 * 60;

interface RateLimitRow {
  id: string;
  key: string;
  count: number;
  lastRequest: number | bigint;
}

type Where = { field: string; value: string }[];

/** The part of better-auth's database adapter the budget uses. */
export interface ThrottleAdapter {
  findOne<T>(query: { model: string; where: Where }): Promise<T | null>;
  create<T extends Record<string, unknown>>(query: { model: string; data: Omit<T, "id"> }): Promise<unknown>;
  update<T>(query: { model: string; where: Where; update: Record<string, unknown> }): Promise<T | null>;
}

/** True when one more mail of `kind` may go to this user now (and counts it). */
export async function takeMailAllowance(
  adapter: ThrottleAdapter,
  kind: string,
  userId: string,
  now = Date.now(),
): Promise<boolean> {
  const key = `mail:${kind}:${userId}`;
  const where = [{ field: "key", value: key }];
  const row = await adapter.findOne<RateLimitRow>({ model: "rateLimit", where });
  if (!row) {
    await adapter.create({ model: "rateLimit", data: { key, count: 1, lastRequest: now } });
    return true;
  }
  if (now - Number(row.lastRequest) >= ACCOUNT_MAIL_WINDOW_SECONDS * 1000) {
    await adapter.update({ model: "rateLimit", where, update: { count: 1, lastRequest: now } });
    return true;
  }
  if (row.count >= ACCOUNT_MAILS_PER_WINDOW) return false;
  await adapter.update({ model: "rateLimit", where, update: { count: row.count + 1 } });
  return true;
}
