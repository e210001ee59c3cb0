/**
 * Runs once when the server starts: validate the environment (exit with a message naming the
 * variable on error), warn about a derived auth secret, and create the demo account in demo mode.
 */
export async function register(): Promise<void> {
  const { getEnv, getNextRuntime } = await import("./env.js");
  if (getNextRuntime() !== "nodejs") return;
  const env = getEnv();
  const { startServer } = await import("./server/startup.js");
  await startServer(env);
}
