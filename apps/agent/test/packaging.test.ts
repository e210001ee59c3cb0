import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { CONFIG_OPTIONS, parseCommandArgs } from "../src/commands/options.js";

const PACKAGING = new URL("../packaging/", import.meta.url).pathname;
const single = readFileSync(path.join(PACKAGING, "rpcpulse-agent.service"), "utf8");
const template = readFileSync(path.join(PACKAGING, "rpcpulse-agent@.service"), "utf8");
const INSTALLER = path.join(PACKAGING, "install.sh");
const has = (cmd: string) => spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;

function directives(text: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const line of text.split("\n")) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (m) map.set(m[1]!, [...(map.get(m[1]!) ?? []), m[2]!]);
  }
  return map;
}

test("the template unit has the single unit's hardening; only the per-instance paths differ", () => {
  const a = directives(single);
  const b = directives(template);
  const perInstance = new Set(["Description", "ExecStart", "LoadCredential", "StateDirectory", "ReadWritePaths"]);
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    if (perInstance.has(key)) continue;
    assert.deepEqual(b.get(key), a.get(key), key);
  }
  assert.deepEqual(b.get("LoadCredential"), [
    "agent.json:/etc/rpcpulse-agent/%i.json",
    "token:/etc/rpcpulse-agent/%i.token",
  ]);
  assert.deepEqual(b.get("StateDirectory"), ["rpcpulse-agent/%i"]);
  assert.deepEqual(b.get("ReadWritePaths"), ["/var/lib/rpcpulse-agent/%i"]);
});

test("the template's ExecStart is the self-contained binary with a command line the CLI accepts", () => {
  const exec = directives(template).get("ExecStart")![0]!.split(/\s+/);
  assert.equal(exec[0], "/usr/local/bin/rpcpulse-agent");
  assert.equal(exec[1], "run");
  const args = exec.slice(2).map((a) => a.replace("%d", "/run/credentials/x").replace("%i", "geth"));
  const { values } = parseCommandArgs(args, { ...CONFIG_OPTIONS, help: { type: "boolean", short: "h" } });
  assert.equal(values["state-dir"], "/var/lib/rpcpulse-agent/geth");
});

test("systemd-analyze verify accepts an instance of the template", { skip: !has("systemd-analyze") }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), "rpcpulse-template-"));
  try {
    const unit = path.join(dir, "rpcpulse-agent@geth.service");
    // The binary is not installed on this machine: point ExecStart at one that exists; all else as shipped.
    writeFileSync(unit, template.replaceAll("/usr/local/bin/rpcpulse-agent", "/bin/true"));
    const r = spawnSync("systemd-analyze", ["verify", unit], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr.trim(), "", r.stderr);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test("install.sh is POSIX sh: dash -n, and shellcheck -s sh when installed", () => {
  const dash = spawnSync("dash", ["-n", INSTALLER], { encoding: "utf8" });
  if (dash.error === undefined) assert.equal(dash.status, 0, dash.stderr);
  const sh = spawnSync("sh", ["-n", INSTALLER], { encoding: "utf8" });
  assert.equal(sh.status, 0, sh.stderr);
  if (!has("shellcheck")) return;
  const sc = spawnSync("shellcheck", ["-s", "sh", INSTALLER], { encoding: "utf8" });
  assert.equal(sc.status, 0, sc.stdout);
});

test("install.sh names the option in its errors and refuses to run without root or --prefix", () => {
  const run = (...args: string[]) => spawnSync("sh", [INSTALLER, ...args], { encoding: "utf8" });
  assert.match(run("--name", "../x", "--prefix", "/tmp/x").stderr, /--name: must start with a letter or digit/);
  assert.match(run("--token", "abc", "--prefix", "/tmp/x").stderr, /--token: an agent token starts with rpa_/);
  assert.match(run("--token").stderr, /--token needs a value/);
  assert.match(run("--bogus").stderr, /unknown option --bogus/);
  assert.match(
    run("--config", "{}", "--family", "hive", "--prefix", "/tmp/x").stderr,
    /--config: give --config or --family/,
  );
  assert.match(run("--prefix", "/tmp/x").stderr, /--base-url: give the RPC Pulse app's URL/);
  assert.match(run("--help").stdout, /--uninstall/);
});
