import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { WitnessBook } from "./families/hive-witnesses.js";
import type { ValidatorBook } from "./families/substrate-validators.js";

/**
 * Loopback control of a running simnet for the demo and the e2e suite (config `controlPort`): the
 * knobs the library API has, over HTTP. Every call is a POST and answers JSON.
 *   POST /witnesses/<network>/<account>/miss             the witness misses its next slot → {block}
 *   POST /witnesses/<network>/<account>/feed-age?hours=N  its feed is frozen N hours ago (N=-1: hourly again)
 *   POST /witnesses/<network>/<account>/key?disable=1     the null key (disabled), or a new key
 *   POST /witnesses/<network>/<account>/version?v=1.27.5  running version
 *   POST /validators/<network>/<stash>/offline?on=1|0      offline now (no points; reported at the session end) / back
 *   POST /validators/<network>/<stash>/drop?chill=0|1       leaves the active set at the next era → {fromBlock}
 *   POST /validators/<network>/<stash>/rejoin               back in the active set from the next era
 *   POST /validators/<network>/<stash>/keys?onNode=0|1      the node loses (or regains) the on-chain session keys
 *   POST /validators/<network>/<stash>/unclaimed?eras=N     unclaimed payouts of the last N eras
 *   POST /nodes/<name>/stall?on=1|0                       stall / resume a node's head
 *   POST /nodes/<name>/beacon?lagSlots=N&stall=0|1&elOffline=0|1&optimistic=0|1&drivesNode=0|1
 *                                                         the Beacon API beside an Ethereum node: lagSlots
 *                                                         lags it by N slots, stall=1 stops its head (it falls
 *                                                         further behind each slot); the EL it drives stays with it
 */

export interface ControlTarget {
  witnesses(network: string): WitnessBook;
  validators(network: string): ValidatorBook;
  node(name: string): {
    setStalled(v: boolean): void;
    head(): number;
    beacon: {
      state: { lagSlots: number; elOffline: boolean; optimistic: boolean; drivesNode?: boolean };
      setStalled(stalled: boolean): void;
    } | null;
  };
}

export interface ControlServer {
  url: string;
  close(): Promise<void>;
}

export async function startControlServer(target: ControlTarget, port: number): Promise<ControlServer> {
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown): void => {
      const text = JSON.stringify(body);
      res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.end(text);
    };
    if (req.method !== "POST") return send(405, { error: "POST only" });
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    const q = url.searchParams;
    try {
      if (parts[0] === "witnesses" && parts.length === 4) {
        const [, network = "", account = "", action] = parts;
        const book = target.witnesses(network);
        if (!book.has(account)) return send(404, { error: `${account} is not a scheduled witness of ${network}` });
        if (action === "miss") return send(200, { block: book.missNextSlot(account) });
        if (action === "feed-age") {
          const hours = Number(q.get("hours"));
          if (!Number.isFinite(hours)) return send(400, { error: "hours must be a number" });
          book.setFeedAge(account, hours < 0 ? null : hours * 3_600_000);
          return send(200, { ok: true });
        }
        if (action === "key") {
          book.setSigningKey(account, q.get("disable") === "1" ? null : (q.get("key") ?? `STM${account}rotated`));
          return send(200, { ok: true });
        }
        if (action === "version") {
          const v = q.get("v") ?? "";
          if (!/^\d+\.\d+\.\d+$/.test(v)) return send(400, { error: "v must be major.minor.patch" });
          book.setRunningVersion(account, v);
          return send(200, { ok: true });
        }
      }
      if (parts[0] === "validators" && parts.length === 4) {
        const [, network = "", stash = "", action] = parts;
        const book = target.validators(network);
        if (!book.has(stash)) return send(404, { error: `${stash} is not a simulated validator of ${network}` });
        const head = book.network.head();
        if (action === "offline") {
          if (q.get("on") === "0") {
            book.setOnline(stash, head);
            return send(200, { ok: true, head });
          }
          return send(200, { head, ...book.setOffline(stash, head) });
        }
        if (action === "drop") return send(200, { head, ...book.drop(stash, head, q.get("chill") === "1") });
        if (action === "rejoin") {
          book.rejoin(stash);
          return send(200, { ok: true });
        }
        if (action === "keys") {
          book.setKeysOnNode(stash, q.get("onNode") === "1");
          return send(200, { ok: true });
        }
        if (action === "unclaimed") {
          const eras = Number(q.get("eras"));
          if (!Number.isInteger(eras) || eras < 0 || eras > 84) return send(400, { error: "eras must be 0-84" });
          book.setUnclaimedEras(stash, eras);
          return send(200, { ok: true });
        }
      }
      if (parts[0] === "nodes" && parts.length === 3) {
        const node = target.node(parts[1] ?? "");
        if (parts[2] === "stall") {
          node.setStalled(q.get("on") !== "0");
          return send(200, { head: node.head() });
        }
        if (parts[2] === "beacon") {
          if (!node.beacon) return send(404, { error: "this node has no Beacon API" });
          const lag = q.get("lagSlots");
          if (lag !== null) node.beacon.state.lagSlots = Math.max(0, Math.floor(Number(lag)) || 0);
          if (q.has("elOffline")) node.beacon.state.elOffline = q.get("elOffline") === "1";
          if (q.has("optimistic")) node.beacon.state.optimistic = q.get("optimistic") === "1";
          if (q.has("drivesNode")) node.beacon.state.drivesNode = q.get("drivesNode") !== "0";
          if (q.has("stall")) node.beacon.setStalled(q.get("stall") === "1");
          return send(200, { ...node.beacon.state });
        }
      }
      return send(404, { error: "unknown control route" });
    } catch (error) {
      return send(400, { error: error instanceof Error ? error.message : String(error) });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
