/**
 * The one error type of RPC Pulse. Services throw it; each adapter kind (HTTP route,
 * job processor, CLI command) maps it once to its own channel.
 */
export type AppErrorCode =
  | "VALIDATION"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "PAYLOAD_TOO_LARGE"
  | "RATE_LIMITED"
  | "UNAVAILABLE"
  | "CONFIG"
  | "INTERNAL";

const HTTP_STATUS: Record<AppErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
  CONFIG: 500,
  INTERNAL: 500,
};

export interface AppErrorOptions {
  cause?: unknown;
  /** Extra machine-readable detail returned to the caller (never secrets). */
  details?: Record<string, unknown>;
  /** Seconds a client should wait before retrying (RATE_LIMITED, UNAVAILABLE). */
  retryAfterSeconds?: number;
}

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: AppErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get httpStatus(): number {
    return HTTP_STATUS[this.code];
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** Body every HTTP adapter returns for an error: `{ error: { code, message, details? } }`. */
export function toErrorBody(error: AppError): {
  error: { code: AppErrorCode; message: string; details?: Record<string, unknown> };
} {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    },
  };
}

/** Media type of error bodies (RFC 9457). */
export const PROBLEM_JSON = "application/problem+json";

const TITLES: Record<AppErrorCode, string> = {
  VALIDATION: "Invalid request",
  UNAUTHENTICATED: "Authentication required",
  FORBIDDEN: "Forbidden",
  NOT_FOUND: "Not found",
  CONFLICT: "Conflict",
  PAYLOAD_TOO_LARGE: "Payload too large",
  RATE_LIMITED: "Too many requests",
  UNAVAILABLE: "Service unavailable",
  CONFIG: "Server misconfigured",
  INTERNAL: "Internal error",
};

/**
 * RFC 9457 problem details for an AppError: `type` (a stable URI per code), `title`, `status`,
 * `detail` (the message), `instance` (the request path), our `code` as an extension member, plus
 * the `error: { code, message, details? }` member older clients parse.
 */
export function toProblemBody(error: AppError, instance?: string) {
  return {
    type: `https://rpcpulse.dev/problems/${error.code.toLowerCase().replace(/_/g, "-")}`,
    title: TITLES[error.code],
    status: error.httpStatus,
    detail: error.message,
    ...(instance ? { instance } : {}),
    code: error.code,
    ...(error.details ? { details: error.details } : {}),
    ...toErrorBody(error),
  };
}
