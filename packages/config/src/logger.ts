import { pino, type Logger, type LoggerOptions } from "pino";

export type { Logger } from "pino";

/** Paths whose values never reach a log line, whatever logs them. */
export const REDACT_PATHS = [
  "token",
  "*.token",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "req.headers.authorization",
  "req.headers.cookie",
  "password",
  "*.password",
  "secret",
  "*.secret",
  "cookie",
  "*.cookie",
];

export interface CreateLoggerOptions {
  name: string;
  level?: LoggerOptions["level"];
  /** pretty is a plain one-line human format written without a transport thread. */
  format?: "json" | "pretty";
  destination?: NodeJS.WritableStream;
}

const TOKEN_PATTERN = /\brpa_[A-Za-z0-9_-]{8,}/g;

/** Replace anything shaped like an agent token in free text. */
export function redactTokens(text: string): string {
  return text.replace(TOKEN_PATTERN, "rpa_[redacted]");
}

export function createLogger(options: CreateLoggerOptions): Logger {
  const base: LoggerOptions = {
    name: options.name,
    level: options.level ?? "info",
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    hooks: {
      logMethod(args, method) {
        const cleaned = args.map((a) => (typeof a === "string" ? redactTokens(a) : a)) as typeof args;
        return method.apply(this, cleaned);
      },
    },
  };
  if (options.format === "pretty") {
    const out = options.destination ?? process.stdout;
    return pino(base, {
      write(line: string) {
        try {
          const rec = JSON.parse(line) as Record<string, unknown>;
          const { level, time, name, msg, pid: _pid, hostname: _host, ...rest } = rec;
          const lvl = pino.levels.labels[Number(level)] ?? String(level);
          const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : "";
          out.write(
            `${new Date(Number(time)).toISOString()} ${lvl.toUpperCase().padEnd(5)} [${String(name)}] ${String(msg ?? "")}${extra}\n`,
          );
        } catch {
          out.write(line);
        }
      },
    });
  }
  return options.destination ? pino(base, options.destination as pino.DestinationStream) : pino(base);
}
