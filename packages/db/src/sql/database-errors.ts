/**
 * Tell "PostgreSQL is away" (down, restarting, unreachable, refusing connections, out of
 * connections or disk) from errors caused by the statement or the data. Callers that must not
 * lose work (the ingest job) wait out the first kind for as long as it lasts instead of spending
 * a bounded number of attempts on it.
 */

/** Socket errors of the driver's connection (Node system error codes). */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * SQLSTATEs that describe the server's state, not the statement: connection exceptions (08),
 * insufficient resources (53: too many connections, disk full, out of memory), operator
 * intervention (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now), system
 * errors (58: I/O) and a read-only server (25006: a replica during a fail-over).
 */
function isUnavailableSqlState(code: string): boolean {
  return (
    code.startsWith("08") ||
    code.startsWith("53") ||
    code.startsWith("58") ||
    code === "57P01" ||
    code === "57P02" ||
    code === "57P03" ||
    code === "25006"
  );
}

/** Driver messages without a code (node-postgres and pg-pool). */
const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection timeout/i,
  /not queryable/i,
  /is not currently accepting connections/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /Cannot use a pool after calling end on the pool/i,
];

/** True when `error` (or an error it wraps: cause, AggregateError) says the database is unreachable. */
export function isDatabaseUnavailableError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === "string" && (NETWORK_CODES.has(code) || (code.length === 5 && isUnavailableSqlState(code)))) {
    return true;
  }
  if (typeof message === "string" && UNAVAILABLE_MESSAGES.some((re) => re.test(message))) return true;
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailableError(e, depth + 1))) return true;
  return isDatabaseUnavailableError(cause, depth + 1);
}
