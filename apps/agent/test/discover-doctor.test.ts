// Discovery and doctor against real processes: one stand-in per family, started under the client's
// own name (a symlink named hived/geth/polkadot to node, so /proc/<pid>/comm says so), listening on
// an RPC port on loopback and a public port, with its data directory on the command line and a file
// in it held open. Unprivileged runs use setpriv (util-linux) as nobody.
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { ApiFamily } from "@rpcpulse/domain";
import { freePort } from "@rpcpulse/config/testing";
import { findMountPoint } from "../src/discover/data-dir.js";
import { discoverNode } from "../src/discover/discover-node.js";
import { foldServiceSettings, parseServiceSection } from "../src/doctor/unit-settings.js";
import { REPO_ROOT } from "./support/processes.js";

const work = mkdtempSync(path.join(tmpdir(), "rpcpulse-discover-"));
chmodSync(work, 0o755);
const CLI = path.join(REPO_ROOT, "apps/agent/src/cli.ts");
const UNIT = path.join(REPO_ROOT, "apps/agent/packaging/rpcpulse-agent@.service");
const isRoot = process.getuid?.() === 0;
const hasSetpriv = spawnSync("setpriv", ["--version"], { stdio: "ignore" }).status === 0;

const FAKE = `const net = require("node:net"); const fs = require("node:fs");
const fd = fs.openSync(process.env.FAKE_FILE, "a");
net.createServer(() => {}).listen(Number(process.env.FAKE_RPC), "127.0.0.1");
net.createServer(() => {}).listen(Number(process.env.FAKE_P2P), "0.0.0.0", () => process.stdout.write("up\\n"));
setInterval(() => fs.fstatSync(fd), 1000);`;

interface Fake {
  family: ApiFamily;
  proc: ChildProcess;
  rpc: number;
  p2p: number;
  dataDir: string;
}
const fakes: Fake[] = [];

async function startFake(family: ApiFamily, client: string, flag: string | null, dataDir: string): Promise<Fake> {
  const dir = path.join(work, family);
  mkdirSync(dir, { recursive: true });
  mkdirSync(dataDir, { recursive: true });
  const script = path.join(dir, "main.cjs");
  writeFileSync(script, FAKE);
  const exe = path.join(dir, client);
  symlinkSync(process.execPath, exe);
  const [rpc, p2p] = [await freePort(), await freePort()];
  const proc = spawn(exe, [script, ...(flag ? [flag, dataDir] : [])], {
    env: { FAKE_RPC: String(rpc), FAKE_P2P: String(p2p), FAKE_FILE: path.join(dataDir, "chain.db") },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await once(proc.stdout!, "data");
  const fake = { family, proc, rpc, p2p, dataDir };
  fakes.push(fake);
  return fake;
}

const run = (args: string[], uid?: number) =>
  spawnSync(
    uid === undefined ? process.execPath : "setpriv",
    uid === undefined
      ? ["--import", "tsx", CLI, ...args]
      : [
          "--reuid",
          String(uid),
          "--regid",
          String(uid),
          "--clear-groups",
          process.execPath,
          "--import",
          "tsx",
          CLI,
          ...args,
        ],
    { encoding: "utf8", cwd: path.join(REPO_ROOT, "apps/agent"), env: { PATH: "/usr/bin:/bin", HOME: "/tmp" } },
  );

let hive: Fake, eth: Fake, dot: Fake, sidecar: Fake;
before(async () => {
  const closed = path.join(work, "home-hive");
  hive = await startFake("hive", "hived", "--data-dir", path.join(closed, "data"));
  chmodSync(closed, 0o700);
  eth = await startFake("ethereum", "geth", "--datadir", path.join(work, "eth-data"));
  dot = await startFake("substrate", "polkadot", "--base-path", path.join(work, "dot-data"));
  // The sidecar is a node program (shares its name with every node process) and keeps no chain data.
  sidecar = await startFake("sidecar", "node", null, path.join(work, "sidecar-tmp"));
});
after(() => {
  for (const f of fakes) f.proc.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

describe("discovery per family (as root: by the socket on the RPC port)", { skip: !isRoot && "needs root" }, () => {
  it("hive: hived, its --data-dir (behind a closed directory: its mount point instead), its public port", () => {
    const d = discoverNode({ family: "hive", rpcUrl: new URL(`http://127.0.0.1:${hive.rpc}`) });
    assert.equal(d.process?.pid, hive.proc.pid);
    assert.equal(d.process?.by, "rpc-port");
    assert.deepEqual(d.selector, { name: "hived" });
    assert.deepEqual(d.publicPorts, [hive.p2p], "loopback RPC excluded, 0.0.0.0 p2p included");
    const mount = findMountPoint(hive.dataDir);
    assert.deepEqual(
      d.dataDirs.map((x) => x.path),
      [mount],
    );
    assert.match(d.notes.join("\n"), /home-hive, which other users cannot enter/);
  });

  for (const [name, get, client] of [
    ["ethereum", () => eth, "geth"],
    ["substrate", () => dot, "polkadot"],
  ] as const) {
    it(`${name}: ${client}, its data directory option, its public port`, () => {
      const f = get();
      const d = discoverNode({ family: f.family, rpcUrl: new URL(`http://127.0.0.1:${f.rpc}`) });
      assert.deepEqual(d.selector, { name: client });
      assert.deepEqual(d.dataDirs, [
        { path: f.dataDir, source: `${client === "geth" ? "--datadir" : "--base-path"} on its command line` },
      ]);
      assert.deepEqual(d.publicPorts, [f.p2p]);
    });
  }

  it("sidecar: a node process, followed by pid (the name is shared); no data directory needed", () => {
    const d = discoverNode({ family: "sidecar", rpcUrl: new URL(`http://127.0.0.1:${sidecar.rpc}`) });
    assert.deepEqual(d.selector, { pid: sidecar.proc.pid });
    assert.deepEqual(d.publicPorts, [sidecar.p2p]);
    assert.deepEqual(d.dataDirs, []);
    assert.doesNotMatch(d.notes.join("\n"), /no data directory/);
  });

  it("a remote RPC URL or a port nobody listens on: nothing discovered, and the notes say why", () => {
    assert.match(discoverNode({ family: "hive", rpcUrl: new URL("http://10.1.2.3:8091") }).notes[0]!, /another host/);
    assert.match(
      discoverNode({ family: "ethereum", rpcUrl: new URL("http://127.0.0.1:1") }).notes.join(),
      /nothing listens on port 1/,
    );
  });

  it("discover --write adds the findings to the config file and keeps what was set", () => {
    const file = path.join(work, "geth.json");
    writeFileSync(
      file,
      JSON.stringify({ family: "ethereum", rpcUrl: `http://127.0.0.1:${eth.rpc}`, topN: 7, ports: [443] }),
      { mode: 0o600 },
    );
    const r = run(["discover", "--config", file, "--write"]);
    assert.equal(r.status, 0, r.stderr);
    const cfg = JSON.parse(readFileSync(file, "utf8"));
    assert.deepEqual(cfg, {
      family: "ethereum",
      rpcUrl: `http://127.0.0.1:${eth.rpc}`,
      topN: 7,
      ports: [443],
      processName: "geth",
      dataDirs: [eth.dataDir],
    });
    assert.match(r.stdout, /node process: geth \(pid \d+, user root\), found by the socket listening on port/);
  });

  it(
    "as an unprivileged user: found by its client name; descriptors unreadable, and said so",
    { skip: !hasSetpriv },
    () => {
      const r = run(["discover", "--family", "ethereum", "--rpc-url", `http://127.0.0.1:${eth.rpc}`, "--json"], 65534);
      assert.equal(r.status, 0, r.stderr);
      const d = JSON.parse(r.stdout);
      assert.equal(d.process.by, "client-name");
      assert.equal(d.process.pid, eth.proc.pid);
      assert.equal(d.publicPorts, null);
      assert.match(d.notes.join("\n"), /cannot read \/proc\/\d+\/fd \(the node runs as root\)/);
    },
  );
});

describe("doctor", { skip: !isRoot && "needs root" }, () => {
  const doctor = (unit: string, family: Fake) =>
    JSON.parse(
      run([
        "doctor",
        "--family",
        family.family,
        "--rpc-url",
        `http://127.0.0.1:${family.rpc}`,
        "--unit",
        unit,
        "--offline",
        "--json",
      ]).stdout,
    ) as { header: string[]; checks: { id: string; status: string; detail: string; fix?: string }[] };

  it("under the shipped unit (DynamicUser, no capabilities): the service cannot count the node's open files, and the fix", () => {
    const report = doctor(UNIT, eth);
    const fds = report.checks.find((c) => c.id === "fds")!;
    assert.equal(fds.status, "warn");
    assert.match(fds.detail, /readable by its owner only.*DynamicUser=yes.*without CAP_DAC_READ_SEARCH/);
    assert.match(fds.fix!, /AmbientCapabilities=CAP_DAC_READ_SEARCH/);
    assert.equal(report.checks.find((c) => c.id === "limits")?.status, "ok");
    assert.equal(report.checks.find((c) => c.id === "node-args")?.status, "ok");
    assert.match(report.header.join("\n"), /runs as a transient user \(DynamicUser=yes\) with no capabilities/);
  });

  it(
    "the fix works: with CAP_DAC_READ_SEARCH doctor says the service can; and so does the kernel",
    { skip: !hasSetpriv },
    () => {
      const unit = path.join(work, "with-cap.service");
      writeFileSync(
        unit,
        `${readFileSync(UNIT, "utf8")}\n[Service]\nAmbientCapabilities=CAP_DAC_READ_SEARCH\nCapabilityBoundingSet=CAP_DAC_READ_SEARCH\n`,
      );
      assert.equal(doctor(unit, eth).checks.find((c) => c.id === "fds")?.status, "ok");
      const fdDir = `/proc/${eth.proc.pid}/fd`;
      const as = (caps: string[]) =>
        spawnSync("setpriv", ["--reuid", "65534", "--regid", "65534", "--clear-groups", ...caps, "ls", fdDir], {
          encoding: "utf8",
        });
      assert.notEqual(as([]).status, 0, "a transient user without the capability cannot list it");
      const withCap = as(["--inh-caps", "+dac_read_search", "--ambient-caps", "+dac_read_search"]);
      assert.equal(withCap.status, 0, withCap.stderr);
    },
  );

  it("a data directory the service cannot reach: the mount point as the fix", () => {
    const report = JSON.parse(
      run([
        "doctor",
        "--family",
        "hive",
        "--rpc-url",
        `http://127.0.0.1:${hive.rpc}`,
        "--data-dir",
        hive.dataDir,
        "--unit",
        UNIT,
        "--offline",
        "--json",
      ]).stdout,
    ) as { checks: { id: string; status: string; detail: string; fix?: string }[] };
    const dir = report.checks.find((c) => c.id === "data-dirs" && c.detail.startsWith(hive.dataDir))!;
    assert.equal(dir.status, "warn");
    assert.match(dir.detail, /closed to other users/);
    assert.match(dir.fix!, new RegExp(`"${findMountPoint(hive.dataDir).replace(/\//g, "\\/")}" in dataDirs`));
  });

  it("unit settings: later assignments win, an empty value resets, the bounding set limits ambient capabilities", () => {
    const id = foldServiceSettings(
      parseServiceSection(
        "[Service]\nDynamicUser=yes\nAmbientCapabilities=CAP_NET_RAW\nAmbientCapabilities=\nAmbientCapabilities=CAP_DAC_READ_SEARCH CAP_SYS_PTRACE\nCapabilityBoundingSet=CAP_DAC_READ_SEARCH\n[Install]\nUser=ignored\n",
      ),
      "/x",
      [],
    );
    assert.deepEqual(id.capabilities, ["CAP_DAC_READ_SEARCH"]);
    assert.equal(id.dynamicUser, true);
    assert.equal(id.user, null);
  });
});
