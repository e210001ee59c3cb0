import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { waitFor } from "@rpcpulse/config/testing";

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, "../../../..");

export async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

/** A child process whose stdout+stderr are captured in full (for log assertions and secret greps). */
export interface Child {
  name: string;
  proc: ChildProcess;
  output(): string;
  /** Parsed JSON log lines (pino), non-JSON lines skipped. */
  lines(): Record<string, unknown>[];
  exited(): boolean;
}

/** Every output ever captured by children of this test file (secret grep at the end of each scenario). */
export const capturedOutputs: { name: string; text: () => string }[] = [];

const running = new Set<ChildProcess>();
// Last resort if the test runner itself exits early (timeout, crash): no orphaned child keeps running.
process.once("exit", () => {
  for (const proc of running) if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
});

export function spawnChild(name: string, args: string[], options: { cwd: string; env: Record<string, string> }): Child {
  const proc = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(proc);
  proc.once("exit", () => running.delete(proc));
  let text = "";
  proc.stdout!.on("data", (d: Buffer) => (text += d.toString()));
  proc.stderr!.on("data", (d: Buffer) => (text += d.toString()));
  capturedOutputs.push({ name, text: () => text });
  return {
    name,
    proc,
    output: () => text,
    lines: () =>
      text
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .flatMap((l) => {
          try {
            return [JSON.parse(l) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    exited: () => proc.exitCode !== null || proc.signalCode !== null,
  };
}

/** Stop a child (default SIGTERM, SIGKILL after graceMs); resolves when it has exited. */
export async function stopChild(
  child: Child | undefined,
  signal: NodeJS.Signals = "SIGTERM",
  graceMs = 10_000,
): Promise<void> {
  if (!child || child.exited()) return;
  const exited = once(child.proc, "exit");
  child.proc.kill(signal);
  const timer = setTimeout(() => child.proc.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

export async function waitForLog(
  child: Child,
  what: string,
  match: (line: Record<string, unknown>) => boolean,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  return waitFor(
    `${child.name}: ${what}`,
    () => {
      const line = child.lines().find(match);
      if (line) return line;
      if (child.exited()) throw new Error(`${child.name} exited before ${what}:\n${child.output().slice(-3000)}`);
      return undefined;
    },
    { timeoutMs, intervalMs: 100 },
  );
}
