// A Debian package of the self-contained agent, built with dpkg-deb: /usr/bin/rpcpulse-agent and the
// template unit in /lib/systemd/system. Nodes are configured as with install.sh (one config and token
// per node in /etc/rpcpulse-agent, then `systemctl enable --now rpcpulse-agent@<node>`).
import { execFile } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const DEB_ARCH = { x64: "amd64", arm64: "arm64" };

const POSTINST = `#!/bin/sh
set -e
if [ "$1" = configure ] && [ -d /run/systemd/system ]; then
  systemctl daemon-reload || true
  # An upgrade restarts the nodes' agents that were running.
  systemctl try-restart 'rpcpulse-agent@*.service' || true
fi
exit 0
`;
const PRERM = `#!/bin/sh
set -e
if [ "$1" = remove ] && [ -d /run/systemd/system ]; then
  for unit in $(systemctl list-units --all --plain --no-legend 'rpcpulse-agent@*.service' | awk '{print $1}'); do
    systemctl disable --now "$unit" || true
  done
fi
exit 0
`;
const POSTRM = `#!/bin/sh
set -e
if [ "$1" = purge ]; then
  rm -rf /etc/rpcpulse-agent /var/lib/rpcpulse-agent /var/lib/private/rpcpulse-agent
  rm -f /etc/systemd/system/multi-user.target.wants/rpcpulse-agent@*.service
fi
if [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi
exit 0
`;

export function debFileName(version, arch) {
  return `rpcpulse-agent_${version}_${DEB_ARCH[arch]}.deb`;
}

/** Build dist/<name>.deb from the SEA binary; returns the file name. */
export async function buildDeb({ arch, version, binary, unitText, nodeLicense, nodeVersion, workDir, outDir }) {
  const root = join(workDir, `deb-${arch}`);
  rmSync(root, { recursive: true, force: true });
  for (const d of ["DEBIAN", "usr/bin", "lib/systemd/system", "usr/share/doc/rpcpulse-agent"])
    mkdirSync(join(root, d), { recursive: true });
  copyFileSync(binary, join(root, "usr/bin/rpcpulse-agent"));
  chmodSync(join(root, "usr/bin/rpcpulse-agent"), 0o755);
  writeFileSync(
    join(root, "lib/systemd/system/rpcpulse-agent@.service"),
    unitText.replaceAll("/usr/local/bin/rpcpulse-agent", "/usr/bin/rpcpulse-agent"),
  );
  writeFileSync(
    join(root, "usr/share/doc/rpcpulse-agent/copyright"),
    `rpcpulse-agent: the RPC Pulse node agent, as a Node.js single executable application.\n\n` +
      `It embeds the official Node.js ${nodeVersion} binary, distributed under this license:\n\n${nodeLicense}`,
  );
  writeFileSync(
    join(root, "DEBIAN/control"),
    [
      "Package: rpcpulse-agent",
      `Version: ${version}`,
      `Architecture: ${DEB_ARCH[arch]}`,
      "Maintainer: RPC Pulse <ops@rpcpulse.invalid>",
      "Section: net",
      "Priority: optional",
      "Depends: libc6 (>= 2.28), libstdc++6",
      "Homepage: https://github.com/rpcpulse/rpcpulse",
      "Description: RPC Pulse node agent (self-contained, no Node.js needed)",
      " Watches a blockchain RPC node from the inside (sockets, TIME_WAIT, file descriptors,",
      " disks, chain head) and pushes batches to the RPC Pulse ingest API. One systemd",
      " instance per node: rpcpulse-agent@<node>.service.",
      "",
    ].join("\n"),
  );
  for (const [name, text] of [
    ["postinst", POSTINST],
    ["prerm", PRERM],
    ["postrm", POSTRM],
  ]) {
    writeFileSync(join(root, "DEBIAN", name), text);
    chmodSync(join(root, "DEBIAN", name), 0o755);
  }
  // Same inputs, same bytes: fixed file times and SOURCE_DATE_EPOCH for dpkg-deb's own timestamps.
  const epoch = 1_700_000_000;
  for (const entry of readdirSync(root, { recursive: true })) utimesSync(join(root, String(entry)), epoch, epoch);
  utimesSync(root, epoch, epoch);
  const file = debFileName(version, arch);
  // gzip: readable by every dpkg (xz of a 120 MB binary would add a minute to the build).
  await run("dpkg-deb", ["--root-owner-group", "-Zgzip", "-z6", "--build", root, join(outDir, file)], {
    maxBuffer: 16 << 20,
    // eslint-disable-next-line no-restricted-properties -- a build tool passing its environment on
    env: { ...process.env, SOURCE_DATE_EPOCH: String(epoch) },
  });
  rmSync(root, { recursive: true, force: true });
  return file;
}
