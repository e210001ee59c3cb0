/** Resolve with `promise`, or reject after `ms` (the work itself is not cancelled, only awaited no longer). */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Milliseconds `fn` took, with its result or error. Never throws. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value?: T; error?: string }> {
  const started = performance.now();
  try {
    const value = await fn();
    return { ms: Math.round((performance.now() - started) * 10) / 10, value };
  } catch (error) {
    return {
      ms: Math.round((performance.now() - started) * 10) / 10,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}
