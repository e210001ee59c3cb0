/**
 * Proof of issue 11's promise, run by hand against a running app (`npm run demo`):
 * a new user follows only the web app's "Add node" page, on a Debian 12 host that has no Node.js,
 * and sees the node report in within a minute.
 *
 * The host is real Debian bookworm (debootstrap, minbase + systemd + curl + sudo) booted with systemd as
 * PID 1 in a systemd-nspawn container that shares the host's network (so it reaches the app on
 * localhost). The browser is Debian's Chromium: sign up, create an organization, "Add node", copy the
 * one-line command from the page, run it VERBATIM inside the container, then watch the node page.
 *
 * Usage (root; needs debootstrap and systemd-container from apt):
 *   node_modules/.bin/tsx scripts/prove-add-node.ts [--app http://localhost:3000]
 *        [--rootfs /var/tmp/rpcpulse-debhost] [--rpc-url http://127.0.0.1:18092] [--out var/proof]
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";

const { values: args } = parseArgs({
  options: {
    app: { type: "string", default: "http://localhost:3000" },
    rootfs: { type: "string", default: "/var/tmp/rpcpulse-debhost" },
    "rpc-url": { type: "string", default: "http://127.0.0.1:18092" },
    out: { type: "string", default: "var/proof" },
    mirror: { type: "string", default: "http://deb.debian.org/debian" },
  },
});
const say = (line: string) => process.stdout.write(`[prove-add-node] ${line}\n`);
const fail = (line: string): never => {
  process.stderr.write(`[prove-add-node] FAILED: ${line}\n`);
  process.exit(1);
};

function ensureRootfs(rootfs: string): void {
  if (existsSync(path.join(rootfs, "usr/lib/systemd/systemd")) && existsSync(path.join(rootfs, "usr/bin/sudo"))) return;
  for (const tool of ["debootstrap", "systemd-nspawn"])
    if (spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0)
      fail(`${tool} is missing: apt-get install -y debootstrap systemd-container`);
  say(`debootstrap Debian 12 (minbase + systemd, curl, sudo) into ${rootfs} (about a minute)`);
  execFileSync(
    "debootstrap",
    [
      "--variant=minbase",
      "--include=systemd,systemd-sysv,dbus,curl,ca-certificates,sudo",
      "bookworm",
      rootfs,
      args.mirror!,
    ],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
  writeFileSync(path.join(rootfs, "etc/hostname"), "debhost\n");
  // What the Debian installer writes; debootstrap leaves /etc/hosts out, so "localhost" would not resolve.
  writeFileSync(
    path.join(rootfs, "etc/hosts"),
    "127.0.0.1\tlocalhost\n127.0.1.1\tdebhost\n::1\tlocalhost ip6-localhost ip6-loopback\n",
  );
}

/** Boots the rootfs with systemd as PID 1; returns the nspawn process and the container's init PID. */
async function bootHost(rootfs: string): Promise<{ nspawn: ChildProcess; pid: number }> {
  const nspawn = spawn(
    "systemd-nspawn",
    ["--register=no", "--keep-unit", "-q", "-b", "-D", rootfs, "--console=passive"],
    {
      stdio: "ignore",
      detached: true,
    },
  );
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1000));
    const init = spawnSync("pgrep", ["-P", String(nspawn.pid), "-x", "systemd"], { encoding: "utf8" }).stdout.trim();
    if (!init) continue;
    const pid = Number(init.split("\n")[0]);
    const state = spawnSync("nsenter", ["-t", String(pid), "-a", "systemctl", "is-system-running"], {
      encoding: "utf8",
    }).stdout.trim();
    if (state === "running" || state === "degraded") return { nspawn, pid };
  }
  nspawn.kill("SIGKILL");
  return fail("the Debian host did not boot within 60 s");
}

function inHost(pid: number, command: string): { status: number; out: string } {
  const r = spawnSync("nsenter", ["-t", String(pid), "-a", "sh", "-c", command], { encoding: "utf8" });
  return { status: r.status ?? 1, out: `${r.stdout}${r.stderr}` };
}

async function main(): Promise<void> {
  const rootfs = path.resolve(args.rootfs!);
  const out = path.resolve(args.out!);
  mkdirSync(out, { recursive: true });
  ensureRootfs(rootfs);
  say("booting the Debian host (systemd-nspawn, systemd as PID 1, host network)");
  const { nspawn, pid } = await bootHost(rootfs);
  const log: string[] = [];
  try {
    const os = inHost(pid, ". /etc/os-release; echo $PRETTY_NAME; command -v node || echo 'node: not installed'");
    say(`host: ${os.out.trim().replace(/\n/g, " | ")}`);
    if (!os.out.includes("node: not installed")) fail("the host has Node.js; the proof needs a host without it");

    const suffix = Date.now().toString(36);
    const user = {
      name: "New Operator",
      email: `operator-${suffix}@proof.rpcpulse.dev`,
      password: `proof-pass-${suffix}`,
    };
    const browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
    });
    const page = await browser.newPage({ baseURL: args.app, viewport: { width: 1280, height: 900 } });
    say(`browser: sign up ${user.email} at ${args.app}`);
    await page.goto("/sign-up");
    await page.getByLabel("Name").fill(user.name);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(/\/app\/new-organization$/);
    await page.getByLabel("Organization name").fill(`Proof ${suffix}`);
    await page.getByLabel("URL name").fill(`proof-${suffix}`);
    await page.getByRole("button", { name: "Create organization" }).click();
    await page.waitForURL(new RegExp(`/app/o/proof-${suffix}$`));
    say("browser: Fleet -> Add node");
    await page
      .getByRole("link", { name: /add (a )?node/i })
      .first()
      .click();
    await page.getByLabel("Network").selectOption("hive");
    await page.getByLabel("Name", { exact: true }).fill("debian-hive");
    await page.getByLabel("Client", { exact: true }).fill("hived");
    await page.getByLabel("Local RPC URL").fill(args["rpc-url"]!);
    await page.getByRole("button", { name: "Enroll node" }).click();
    const command = await page.getByTestId("install-command").inputValue();
    await page.screenshot({ path: path.join(out, "add-node-page.png"), fullPage: true });
    say(`page shows: ${command.replace(/rpa_[A-Za-z0-9_]+/, "rpa_…")}`);

    const started = Date.now();
    say("host: running the command exactly as the page shows it");
    const install = inHost(pid, command);
    log.push(`$ ${command.replace(/rpa_[A-Za-z0-9_]+/, "rpa_…")}`, install.out);
    process.stdout.write(install.out);
    if (install.status !== 0) fail(`the install command exited ${install.status}`);

    await page.getByRole("link", { name: /^Go to / }).click();
    const waiting = page.getByText("Waiting for first batch");
    let seenAfterMs = -1;
    while (Date.now() - started < 90_000) {
      if ((await waiting.count()) === 0) {
        seenAfterMs = Date.now() - started;
        break;
      }
      await page.waitForTimeout(1000);
    }
    await page.screenshot({ path: path.join(out, "node-page.png"), fullPage: true });
    const unit = inHost(pid, "systemctl --no-pager status 'rpcpulse-agent@*' | head -n 12");
    log.push("$ systemctl status 'rpcpulse-agent@*'", unit.out);
    await browser.close();
    writeFileSync(path.join(out, "add-node.log"), log.join("\n"));
    if (seenAfterMs < 0) fail("the node still showed 'Waiting for first batch' after 90 s");
    say(`node reported in ${(seenAfterMs / 1000).toFixed(1)} s after the command started (budget: 60 s)`);
    say(`screenshots and log in ${out}`);
    if (seenAfterMs > 60_000) fail("slower than the one-minute promise");
  } finally {
    inHost(pid, "systemctl poweroff");
    setTimeout(() => nspawn.kill("SIGKILL"), 10_000).unref();
  }
}

main().catch((error: unknown) => fail(error instanceof Error ? (error.stack ?? error.message) : String(error)));
