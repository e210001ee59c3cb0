// Demo only: a local endpoint for the demo's alert webhook. Verifies each delivery's
// X-RpcPulse-Signature with the secret in --secret-file (the recipe in README "Alerting") and logs
// one line per notification; answers 401 to anything unsigned or tampered.
//   node_modules/.bin/tsx scripts/demo-webhook-receiver.ts --port 3005 --secret-file var/demo/webhook-secret
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import { parseArgs } from "node:util";
import { SIGNATURE_HEADER, verifyWebhookSignature } from "@rpcpulse/notify";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "3005" },
    "secret-file": { type: "string", default: "var/demo/webhook-secret" },
  },
});

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on("data", (c: Buffer) => {
    size += c.length;
    if (size > 256 * 1024) req.destroy();
    else chunks.push(c);
  });
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    const file = values["secret-file"];
    const secret = existsSync(file) ? readFileSync(file, "utf8").trim() : "";
    const header = req.headers[SIGNATURE_HEADER];
    const verdict = verifyWebhookSignature({ secret, header: typeof header === "string" ? header : null, body });
    if (!verdict.ok) {
      process.stdout.write(`refused ${req.method} ${req.url}: ${verdict.reason}\n`);
      res.writeHead(401).end();
      return;
    }
    const event = JSON.parse(body) as { kind?: string; title?: string };
    process.stdout.write(`${new Date().toISOString()} ${event.kind ?? "?"}: ${event.title ?? ""}\n`);
    res.writeHead(204).end();
  });
});
server.listen(Number(values.port), "127.0.0.1", () => {
  process.stdout.write(`demo webhook receiver on http://127.0.0.1:${values.port}\n`);
});
