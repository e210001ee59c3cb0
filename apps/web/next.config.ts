import path from "node:path";
import { fileURLToPath } from "node:url";
import type { NextConfig } from "next";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Headers for every response. The Content-Security-Policy (with a per-request nonce) is set in src/proxy.ts. */
const securityHeaders = [
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

const config: NextConfig = {
  output: "standalone",
  outputFileTracingRoot: root,
  poweredByHeader: false,
  reactStrictMode: true,
  transpilePackages: [
    "@rpcpulse/advisor",
    "@rpcpulse/auth",
    "@rpcpulse/config",
    "@rpcpulse/db",
    "@rpcpulse/domain",
    "@rpcpulse/notify",
    "@rpcpulse/prober",
    "@rpcpulse/queue",
    "@rpcpulse/services",
  ],
  // Loaded by Node at run time rather than bundled: native-ish drivers, worker threads, wasm.
  serverExternalPackages: [
    "pg",
    "pino",
    "@prisma/client",
    "@prisma/adapter-pg",
    "ioredis",
    "bullmq",
    "ws",
    "nodemailer",
  ],
  experimental: {
    // Workspace packages are ESM TypeScript importing "./x.js" for "./x.ts" (AGENTS.md). Turbopack in
    // Next 16.4 cannot map that (vercel/next.js#82945), so builds use webpack with this alias.
    extensionAlias: { ".js": [".ts", ".tsx", ".js"], ".mjs": [".mts", ".mjs"] },
    // Server actions carry small forms only. Next also rejects actions whose Origin is not the Host.
    serverActions: { bodySizeLimit: "64kb" },
  },
  typescript: { tsconfigPath: "tsconfig.json" },
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default config;
