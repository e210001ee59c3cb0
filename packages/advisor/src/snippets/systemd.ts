import type { Snippet } from "../types.js";

/** A drop-in raising the open-files limit of a unit (soft:hard). */
export function systemdNofileDropIn(o: { unit: string; soft: number; hard: number }): Snippet {
  const path = `/etc/systemd/system/${o.unit}.d/90-rpcpulse-nofile.conf`;
  const value = o.soft === o.hard ? String(o.soft) : `${o.soft}:${o.hard}`;
  return {
    kind: "systemd",
    title: `systemd drop-in: LimitNOFILE=${value} for ${o.unit}`,
    filename: path,
    content: `# ${path}\n[Service]\nLimitNOFILE=${value}\n`,
    applyCommand: `systemctl daemon-reload && systemctl restart ${o.unit}`,
  };
}
