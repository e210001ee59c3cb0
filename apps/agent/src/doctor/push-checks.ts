import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { accessSync, constants, existsSync, readFileSync } from "node:fs";
import { createChainAdapter } from "../chain/index.js";
import type { AgentConfig } from "../config/load.js";
import { errorMessage } from "../collect/proc-files.js";
import type { Check } from "./host-checks.js";

const TOKEN_SHAPE = /^rpa_[0-9a-f]{16}_[A-Za-z0-9_-]{20,}$/;

export function checkToken(config: AgentConfig): { check: Check; token: string | null } {
  let token = config.token ?? null;
  if (config.tokenFile) {
    try {
      token = readFileSync(config.tokenFile, "utf8").trim() || null;
    } catch (error) {
      return {
        token: null,
        check: {
          id: "token",
          status: "fail",
          detail: `cannot read ${config.tokenFile} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
          fix: "run doctor as root (the token is root-only, 0600), or re-run the installer with --token",
        },
      };
    }
  }
  if (!token)
    return {
      token,
      check: {
        id: "token",
        status: "fail",
        detail: "no agent token (--token-file or RPCPULSE_TOKEN)",
        fix: 'copy it from the "Add node" page',
      },
    };
  if (!TOKEN_SHAPE.test(token))
    return {
      token,
      check: {
        id: "token",
        status: "fail",
        detail: "the token does not look like an agent token (rpa_<16 hex>_<secret>)",
        fix: 'copy it again from the "Add node" page',
      },
    };
  return { token, check: { id: "token", status: "ok", detail: `token ${token.slice(0, 20)}… present` } };
}

export async function checkRpc(config: AgentConfig): Promise<Check> {
  if (!config.family || !config.rpcUrl)
    return {
      id: "rpc",
      status: "fail",
      detail: "no chain family configured",
      fix: 'set "family" (and "rpcUrl") in the config',
    };
  const adapter = createChainAdapter(config.family, { url: config.rpcUrl, timeoutMs: config.rpcTimeoutMs });
  try {
    const r = await adapter.read();
    return {
      id: "rpc",
      status: "ok",
      detail: `${config.rpcUrl.origin}: head ${r.headBlock}${r.clientVersion ? ` (${r.clientVersion})` : ""}`,
    };
  } catch (error) {
    return {
      id: "rpc",
      status: "fail",
      detail: `${config.rpcUrl.href}: ${error instanceof Error ? error.message : String(error)}`,
      fix: `check that the node's RPC answers there (rpcUrl; default for ${config.family}: see --help)`,
    };
  }
}

/**
 * Ask the ingest API whether it takes the token, without sending a batch: a request with a wrong
 * content type is answered 415 after the token was accepted and 401 when it was not. The Date
 * header of the answer shows this host's clock offset.
 */
export async function checkIngest(config: AgentConfig, token: string | null): Promise<Check[]> {
  if (!config.ingestUrl)
    return [
      {
        id: "ingest",
        status: "fail",
        detail: "no ingest URL",
        fix: 'set "ingestUrl" in the config (shown on the "Add node" page)',
      },
    ];
  const url = config.ingestUrl;
  const started = Date.now();
  let answer: { status: number; date: string | undefined };
  try {
    answer = await new Promise((resolve, reject) => {
      const req = (url.protocol === "https:" ? httpsRequest : httpRequest)(
        url,
        {
          method: "POST",
          headers: { "content-type": "text/plain", ...(token ? { authorization: `Bearer ${token}` } : {}) },
          timeout: 10_000,
        },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, date: res.headers.date });
        },
      );
      req.on("timeout", () => req.destroy(new Error("no answer in 10 s")));
      req.on("error", reject);
      req.end("doctor");
    });
  } catch (error) {
    return [
      {
        id: "ingest",
        status: "fail",
        detail: `${url.origin}: ${errorMessage(error)}: batches stay in the spool`,
        fix: 'check DNS, the firewall (outbound HTTPS) and the ingestUrl; the node shows "Waiting for first batch" until this works',
      },
    ];
  }
  const checks: Check[] = [];
  if (answer.status === 415 || answer.status === 429)
    checks.push({ id: "ingest", status: "ok", detail: `${url.origin} reachable; it accepts this token` });
  else if (answer.status === 401 || answer.status === 403)
    checks.push({
      id: "ingest",
      status: "fail",
      detail: `${url.origin} refuses this token (${answer.status}): unknown, revoked or expired`,
      fix: "rotate the token on the node page and re-run the installer with the new --token",
    });
  else
    checks.push({
      id: "ingest",
      status: "warn",
      detail: `${url.href} answered ${answer.status}: is this the ingest API (…/v1/ingest)?`,
      fix: 'use the ingest URL shown on the "Add node" page',
    });
  if (answer.date) {
    const offsetS = Math.round((Date.parse(answer.date) - (started + Date.now()) / 2) / 1000);
    if (Math.abs(offsetS) > 60)
      checks.push({
        id: "clock",
        status: "warn",
        detail: `this host's clock is ${Math.abs(offsetS)} s ${offsetS > 0 ? "behind" : "ahead of"} the server's: batches may be refused (clock_skew)`,
        fix: "enable time sync: timedatectl set-ntp true",
      });
    else
      checks.push({
        id: "clock",
        status: "ok",
        detail: `clock within ${Math.max(1, Math.abs(offsetS))} s of the server's`,
      });
  }
  return checks;
}

export function checkStateDir(stateDir: string): Check {
  if (!existsSync(stateDir))
    return {
      id: "state",
      status: "info",
      detail: `${stateDir} does not exist yet (the service's StateDirectory= creates it)`,
    };
  try {
    accessSync(stateDir, constants.W_OK);
    return { id: "state", status: "ok", detail: `${stateDir} writable (spool, batch sequence)` };
  } catch (error) {
    return {
      id: "state",
      status: "warn",
      detail: `${stateDir} is not writable here (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      fix: "the unit's StateDirectory= makes it writable for the service; for a manual run pass --state-dir",
    };
  }
}
