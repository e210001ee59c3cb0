import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import os from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * The run's mailbox: a real SMTP server on E2E_SMTP_PORT (the port scripts/e2e.sh gives the web
 * app as SMTP_URL). Every mail it receives is parsed and written as JSON into E2E_MAILBOX_DIR, so
 * specs in any worker can read what the app sent (e2e/fixtures/mailbox.ts).
 */
export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  const port = Number(process.env.E2E_SMTP_PORT);
  if (!port) return undefined;
  const dir = path.join(os.tmpdir(), `rpcpulse-e2e-mail-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  process.env.E2E_MAILBOX_DIR = dir;
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        simpleParser(Buffer.concat(chunks))
          .then((mail) => {
            count += 1;
            const record = {
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              subject: mail.subject ?? "",
              text: mail.text ?? "",
              receivedAt: Date.now(),
            };
            writeFileSync(path.join(dir, `${Date.now()}-${count}.json`), JSON.stringify(record));
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  server.listen(port, "127.0.0.1");
  await once(server.server, "listening");
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  };
}
