// Runs once when the server starts: the environment-driven first admin (see README).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || !process.env.DATABASE_URL) return;
  const { bootstrapFromEnv } = await import("./server/setup/first-admin");
  for (const line of await bootstrapFromEnv()) console.log(`[terrace] ${line}`);
}
