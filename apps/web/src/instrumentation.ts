/**
 * Runs once when the server starts: validate the environment (exit with a message naming the
 * variable on error), warn about a derived auth secret, and create the demo account in demo mode.
 *
 * Next compiles this file for the edge runtime too. The import must sit inside a branch on the
 * literal `process.env.NEXT_RUNTIME` (Next's documented pattern): the bundler replaces it with a
 * constant and drops the branch, and with it the Node-only imports (PostgreSQL, Redis), from the edge
 * build. A call through env.ts, or an early return, is not eliminated and breaks `next dev`.
 */
export async function register(): Promise<void> {
  // eslint-disable-next-line no-restricted-properties -- must stay a literal for dead-code elimination
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { registerNode } = await import("./instrumentation-node.js");
    await registerNode();
  }
}
