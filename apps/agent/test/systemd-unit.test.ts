import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONFIG_OPTIONS, parseCommandArgs } from "../src/commands/options.js";

const UNIT = new URL("../packaging/rpcpulse-agent.service", import.meta.url).pathname;
const text = readFileSync(UNIT, "utf8");
const hasAnalyze = spawnSync("systemd-analyze", ["--version"], { stdio: "ignore" }).status === 0;
const SKIP = hasAnalyze ? false : "systemd-analyze is not installed (apt-get install -y systemd): unit not verified";

function directives(name: string): string[] {
  return text
    .split("\n")
    .filter((l) => l.startsWith(`${name}=`))
    .map((l) => l.slice(name.length + 1));
}

function verify(path: string): { status: number | null; stderr: string } {
  const r = spawnSync("systemd-analyze", ["verify", path], { encoding: "utf8" });
  return { status: r.status, stderr: r.stderr };
}

test("systemd-analyze verify accepts the unit without warnings", { skip: SKIP }, () => {
  const r = verify(UNIT);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr.trim(), "", r.stderr);
});

test("systemd-analyze verify would catch a broken copy (the check is live)", { skip: SKIP }, () => {
  const dir = mkdtempSync(join(tmpdir(), "rpcpulse-unit-"));
  try {
    const broken = join(dir, "rpcpulse-agent.service");
    writeFileSync(
      broken,
      text.replace("ProtectSystem=strict", "ProtectSystem=bogus").replace("/usr/bin/node", "/nonexistent/node"),
    );
    const r = verify(broken);
    assert.ok(r.status !== 0 || r.stderr.trim() !== "", "verify flagged nothing on a broken unit");
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test(
  "hardening: dynamic user, no new privileges, strict read-only system, spool writable, /proc read-only",
  { skip: SKIP },
  () => {
    assert.deepEqual(directives("DynamicUser"), ["yes"]);
    assert.deepEqual(directives("NoNewPrivileges"), ["yes"]);
    assert.deepEqual(directives("ProtectSystem"), ["strict"]);
    assert.ok(directives("ReadWritePaths").join(" ").split(/\s+/).includes("/var/lib/rpcpulse-agent"));
    assert.ok(directives("ReadOnlyPaths").join(" ").split(/\s+/).includes("/proc"));
    const r = spawnSync("systemd-analyze", ["security", "--offline=yes", UNIT], { encoding: "utf8" });
    const m = /Overall exposure level for \S+: ([\d.]+)/.exec(r.stdout);
    assert.ok(m, r.stdout + r.stderr);
    assert.ok(Number(m[1]) <= 3, `exposure ${m[1]} (lower is better; systemd rates <= 3 as OK)`);
  },
);

test("the ExecStart command line is one the agent's CLI accepts", () => {
  const exec = directives("ExecStart")[0]!.split(/\s+/);
  assert.equal(exec[0], "/usr/bin/node");
  assert.equal(exec[2], "run");
  const args = exec.slice(3).map((a) => a.replace("%d", "/run/credentials/rpcpulse-agent.service"));
  const { values } = parseCommandArgs(args, { ...CONFIG_OPTIONS, help: { type: "boolean", short: "h" } });
  assert.equal(values["state-dir"], "/var/lib/rpcpulse-agent");
  assert.ok(directives("ReadWritePaths").join(" ").includes(String(values["state-dir"])), "the state dir is writable");
});
