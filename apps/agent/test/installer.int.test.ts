// The installer end to end, as the "Add node" page's one line runs it: curl <app>/install.sh | sh -s --
// into a temporary root (--prefix: nothing is written outside it, no systemctl), from a local server
// of the release files (dist/, built by `npm run build -w @rpcpulse/agent` when missing). Then the
// installed self-contained agent runs with Node.js hidden (a mount namespace binds /dev/null over the
// node binary) and pushes to the real ingest API + worker + PostgreSQL (support/stack.ts); the units
// pass systemd-analyze verify; a checksum mismatch installs nothing; upgrade, token rotation, several
// nodes and --uninstall do what they say.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { agentSampleSchema } from "@rpcpulse/domain";
import { waitFor } from "@rpcpulse/config/testing";
import {
  binName,
  DIST,
  ensureRelease,
  readSums,
  runCommand,
  runInstaller,
  startDownloadServer,
  VERSION,
  type DownloadServer,
} from "./support/release.js";
import { startStack, type Stack } from "./support/stack.js";

const work = mkdtempSync(path.join(tmpdir(), "rpcpulse-installer-"));
const root = path.join(work, "root");
const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const mode = (file: string) => statSync(file).mode & 0o777;
const filesUnder = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => !e.isDirectory())
        .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
        .sort()
    : [];
const hasAnalyze = spawnSync("systemd-analyze", ["--version"], { stdio: "ignore" }).status === 0;
const nodeBinary = spawnSync("sh", ["-c", 'readlink -f "$(command -v node)"'], { encoding: "utf8" }).stdout.trim();
const canHideNode = spawnSync("unshare", ["-m", "true"], { stdio: "ignore" }).status === 0;

let server: DownloadServer;
let stack: Stack;
const TOKEN_B = "rpa_0123456789abcdef_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

before(async () => {
  ensureRelease();
  server = await startDownloadServer();
  stack = await startStack("installer");
});
after(async () => {
  await server?.close();
  await stack?.dispose();
  rmSync(work, { recursive: true, force: true });
});

function nodeConfig(name = "hive-a") {
  return JSON.stringify({
    family: "hive",
    rpcUrl: stack.simnet.node("hive").url,
    ingestUrl: stack.proxy.url,
    nodeId: stack.nodeId,
    ...(name === "hive-a" ? {} : { topN: 5 }),
  });
}

describe("install.sh into a temporary root, then the installed agent without Node.js", { concurrency: false }, () => {
  it("installs the binary, the units, the config and token (0600) and reports what it did", async () => {
    const r = await runInstaller(server, [
      "--prefix",
      root,
      "--name",
      "hive-a",
      "--token",
      stack.token,
      "--config",
      nodeConfig(),
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const bin = path.join(root, "usr/local/bin/rpcpulse-agent");
    assert.equal(sha256(bin), readSums().get(binName("x64")), "the installed file is the verified SEA binary");
    assert.equal(mode(bin), 0o755);
    assert.equal(mode(path.join(root, "etc/rpcpulse-agent")), 0o700);
    assert.equal(mode(path.join(root, "etc/rpcpulse-agent/hive-a.json")), 0o600);
    assert.equal(mode(path.join(root, "etc/rpcpulse-agent/hive-a.token")), 0o600);
    assert.equal(readFileSync(path.join(root, "etc/rpcpulse-agent/hive-a.token"), "utf8"), `${stack.token}\n`);
    const config = JSON.parse(readFileSync(path.join(root, "etc/rpcpulse-agent/hive-a.json"), "utf8"));
    assert.equal(config.nodeId, stack.nodeId);
    // Discovery found the simnet node (this test process) by its RPC port: a node name shared by other
    // processes ("node"), so it is followed by pid.
    assert.equal(config.pid, process.pid, JSON.stringify(config));
    assert.equal(
      readFileSync(path.join(root, "etc/systemd/system/rpcpulse-agent@.service"), "utf8"),
      readFileSync(path.join(DIST, "rpcpulse-agent@.service"), "utf8"),
    );
    const wants = path.join(root, "etc/systemd/system/multi-user.target.wants/rpcpulse-agent@hive-a.service");
    assert.equal(readlinkSync(wants), "/etc/systemd/system/rpcpulse-agent@.service");
    assert.match(r.stdout, /SHA-256 [0-9a-f]{64} verified/);
    assert.match(r.stdout, /What was done:\n {2}- installed \/usr\/local\/bin\/rpcpulse-agent/);
    assert.match(r.stdout, /node process: node \(pid \d+, user root\), found by the socket listening on port/);
    assert.ok(
      server.requests.some((q) => /\.gz\?sha256=[0-9a-f]{64}$/.test(q)),
      "downloads name their checksum",
    );
    assert.deepEqual(
      filesUnder(root),
      [
        "etc/rpcpulse-agent/hive-a.json",
        "etc/rpcpulse-agent/hive-a.token",
        "etc/systemd/system/multi-user.target.wants/rpcpulse-agent@hive-a.service",
        "etc/systemd/system/rpcpulse-agent@.service",
        "usr/local/bin/rpcpulse-agent",
      ],
      "nothing else is written",
    );
  });

  it(
    "systemd-analyze verify accepts the installed units (ExecStart pointed at the prefix)",
    { skip: !hasAnalyze },
    () => {
      const dir = mkdtempSync(path.join(work, "verify-"));
      const unit = readFileSync(path.join(root, "etc/systemd/system/rpcpulse-agent@.service"), "utf8");
      const instance = path.join(dir, "rpcpulse-agent@hive-a.service");
      writeFileSync(
        instance,
        unit.replaceAll("/usr/local/bin/rpcpulse-agent", path.join(root, "usr/local/bin/rpcpulse-agent")),
      );
      const r = spawnSync("systemd-analyze", ["verify", instance], { encoding: "utf8" });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stderr.trim(), "", r.stderr);
      const sec = spawnSync("systemd-analyze", ["security", "--offline=yes", instance], { encoding: "utf8" });
      const m = /Overall exposure level for \S+: ([\d.]+)/.exec(sec.stdout);
      assert.ok(m && Number(m[1]) <= 3, sec.stdout + sec.stderr);
    },
  );

  it(
    "the installed agent runs with Node.js hidden and pushes batches to the real ingest",
    { skip: !canHideNode || !nodeBinary },
    async () => {
      const bin = path.join(root, "usr/local/bin/rpcpulse-agent");
      const state = path.join(work, "state-hive-a");
      const before = (await stack.stored()).length;
      // The unit's command line, with the credentials read from the prefix and a 1 s interval.
      const script = [
        `mount --bind /dev/null '${nodeBinary}'`,
        "if node --version >/dev/null 2>&1; then echo 'node still runs' >&2; exit 97; fi",
        `exec '${bin}' run --config '${root}/etc/rpcpulse-agent/hive-a.json' --token-file '${root}/etc/rpcpulse-agent/hive-a.token' --state-dir '${state}' --interval 1s`,
      ].join(" && ");
      const agent = spawn("unshare", ["-m", "sh", "-c", script], {
        env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", HOME: "/root" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      agent.stdout.on("data", (d: Buffer) => (output += d.toString()));
      agent.stderr.on("data", (d: Buffer) => (output += d.toString()));
      try {
        await waitFor(
          "3 batches stored from the installed agent",
          async () => {
            if (agent.exitCode !== null) throw new Error(`agent exited ${agent.exitCode}:\n${output}`);
            return (await stack.stored()).length >= before + 3 ? true : undefined;
          },
          { timeoutMs: 90_000, intervalMs: 250 },
        );
        // The process is the SEA binary itself, not a node interpreter running a script.
        assert.equal(readlinkSync(`/proc/${agent.pid}/exe`), bin);
        assert.ok(!readFileSync(`/proc/${agent.pid}/cmdline`, "latin1").includes(".mjs"));
      } finally {
        agent.kill("SIGTERM");
        if (agent.exitCode === null) await new Promise((r) => agent.once("exit", r));
      }
      const sent = stack.proxy.attempts.filter((a) => a.answered === 202);
      assert.ok(sent.length >= 3, `accepted batches: ${sent.length}`);
      assert.match(output, /"msg":"agent started"/);
      assert.doesNotMatch(output, /node still runs/);
      assert.ok(!output.includes(stack.secret), "the token's secret is not logged");
    },
  );

  it("the installed agent collects a valid sample with the discovered node process", async () => {
    const r = await runCommand(path.join(root, "usr/local/bin/rpcpulse-agent"), [
      "collect",
      "--once",
      "--config",
      path.join(root, "etc/rpcpulse-agent/hive-a.json"),
    ]);
    assert.equal(r.code, 0, r.stderr);
    const sample = agentSampleSchema.parse(JSON.parse(r.stdout));
    assert.equal(sample.fds?.process?.pid, process.pid);
    assert.equal(sample.chain?.ok, true);
  });

  it("re-running upgrades in place; --token alone rotates the token; the config is kept", async () => {
    const bin = path.join(root, "usr/local/bin/rpcpulse-agent");
    writeFileSync(bin, "#!/bin/sh\necho 0.0.9\n", { mode: 0o755 });
    const cfg = readFileSync(path.join(root, "etc/rpcpulse-agent/hive-a.json"), "utf8");
    const up = await runInstaller(server, ["--prefix", root]);
    assert.equal(up.code, 0, up.stdout + up.stderr);
    assert.match(
      up.stdout,
      new RegExp(`upgraded /usr/local/bin/rpcpulse-agent from 0\\.0\\.9 to ${VERSION.replace(/\./g, "\\.")}`),
    );
    assert.equal(sha256(bin), readSums().get(binName("x64")));
    const again = await runInstaller(server, ["--prefix", root]);
    assert.match(again.stdout, /is already/);
    const rotate = await runInstaller(server, ["--prefix", root, "--name", "hive-a", "--token", TOKEN_B]);
    assert.equal(rotate.code, 0, rotate.stdout + rotate.stderr);
    assert.equal(readFileSync(path.join(root, "etc/rpcpulse-agent/hive-a.token"), "utf8"), `${TOKEN_B}\n`);
    assert.equal(readFileSync(path.join(root, "etc/rpcpulse-agent/hive-a.json"), "utf8"), cfg);
  });

  it("several nodes on one host: one config and one enabled instance each; --uninstall --name removes one", async () => {
    const r = await runInstaller(server, [
      "--prefix",
      root,
      "--name",
      "hive-b",
      "--token",
      TOKEN_B,
      "--config",
      nodeConfig("hive-b"),
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const wants = path.join(root, "etc/systemd/system/multi-user.target.wants");
    assert.deepEqual(readdirSync(wants).sort(), ["rpcpulse-agent@hive-a.service", "rpcpulse-agent@hive-b.service"]);
    assert.equal(JSON.parse(readFileSync(path.join(root, "etc/rpcpulse-agent/hive-b.json"), "utf8")).topN, 5);
    const rm = await runInstaller(server, ["--prefix", root, "--uninstall", "--name", "hive-b"]);
    assert.equal(rm.code, 0, rm.stdout + rm.stderr);
    assert.deepEqual(readdirSync(wants), ["rpcpulse-agent@hive-a.service"]);
    assert.ok(!existsSync(path.join(root, "etc/rpcpulse-agent/hive-b.json")));
    assert.ok(existsSync(path.join(root, "usr/local/bin/rpcpulse-agent")));
  });

  it("a bad config is refused by the agent itself, naming the field, and nothing is installed", async () => {
    const fresh = path.join(work, "root-bad-config");
    const r = await runInstaller(server, [
      "--prefix",
      fresh,
      "--name",
      "x",
      "--token",
      TOKEN_B,
      "--config",
      '{"family":"bitcoin"}',
    ]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /field "family": must be one of hive, ethereum, substrate, sidecar/);
    assert.match(r.stderr, /Nothing was installed/);
    assert.deepEqual(filesUnder(fresh), []);
  });

  it("--uninstall removes everything it installed", async () => {
    const r = await runInstaller(server, ["--prefix", root, "--uninstall"]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(filesUnder(root), []);
    assert.ok(!existsSync(path.join(root, "etc/rpcpulse-agent")));
    assert.match(r.stdout, /removed node hive-a/);
  });
});

describe("checksums and the other architecture", () => {
  it("a checksum mismatch aborts with a clear message and installs nothing", async () => {
    const bad = await startDownloadServer({ corrupt: `${binName("x64")}.gz` });
    const fresh = path.join(work, "root-mismatch");
    try {
      const r = await runInstaller(bad, [
        "--prefix",
        fresh,
        "--name",
        "n",
        "--token",
        TOKEN_B,
        "--config",
        '{"family":"hive"}',
      ]);
      assert.notEqual(r.code, 0);
      assert.match(
        r.stderr,
        new RegExp(
          `checksum mismatch for ${binName("x64").replace(/\./g, "\\.")}\\.gz: SHA256SUMS says [0-9a-f]{64}, the download is [0-9a-f]{64}\\. Nothing was installed`,
        ),
      );
      assert.deepEqual(filesUnder(fresh), [], "no file written under the prefix");
      assert.ok(!existsSync(fresh) || lstatSync(fresh).isDirectory());
    } finally {
      await bad.close();
    }
  });

  it("the arm64 file is an aarch64 ELF with the same blob, and runs under qemu when available", async () => {
    const arm = path.join(DIST, binName("arm64"));
    const header = readFileSync(arm).subarray(0, 20);
    assert.equal(header.readUInt16LE(18), 183, "e_machine EM_AARCH64");
    assert.equal(readFileSync(path.join(DIST, binName("x64"))).readUInt16LE(18), 62, "x64 is EM_X86_64");
    const qemu = spawnSync("sh", ["-c", "command -v qemu-aarch64"], { encoding: "utf8" }).stdout.trim();
    if (!qemu || !existsSync("/usr/aarch64-linux-gnu/lib/libstdc++.so.6")) return;
    const r = await runCommand(
      qemu,
      ["-L", "/usr/aarch64-linux-gnu", arm, "collect", "--once", "--top-n", "1"],
      {},
      180_000,
    );
    assert.equal(r.code, 0, r.stderr);
    agentSampleSchema.parse(JSON.parse(r.stdout));
  });

  it(
    "the .deb holds the same binary and the template unit pointing at /usr/bin",
    { skip: spawnSync("dpkg-deb", ["--version"]).status !== 0 },
    () => {
      const deb = path.join(DIST, `rpcpulse-agent_${VERSION}_amd64.deb`);
      assert.equal(spawnSync("dpkg-deb", ["-f", deb, "Architecture"], { encoding: "utf8" }).stdout.trim(), "amd64");
      const x = mkdtempSync(path.join(work, "deb-"));
      assert.equal(spawnSync("dpkg-deb", ["-x", deb, x]).status, 0);
      assert.equal(sha256(path.join(x, "usr/bin/rpcpulse-agent")), readSums().get(binName("x64")));
      const unit = readFileSync(path.join(x, "lib/systemd/system/rpcpulse-agent@.service"), "utf8");
      assert.match(unit, /^ExecStart=\/usr\/bin\/rpcpulse-agent run /m);
      assert.match(readFileSync(path.join(x, "usr/share/doc/rpcpulse-agent/copyright"), "utf8"), /Node\.js/);
    },
  );
});
