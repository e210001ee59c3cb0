import type { Rule } from "../engine.js";
import { fmt, maxOf, pct, valuesOf } from "../metrics.js";
import { hivedConfigSnippet } from "../snippets/client.js";
import { sources } from "../sources.js";
import type { Evidence, Snippet } from "../types.js";
import { configValue, describeVerification, draft, evidence, impactOf, series } from "./common.js";

const GIB = 1024 ** 3;

/** "24G" / "8192M" / bytes → bytes. */
export function parseSize(text: string | null): number | null {
  if (!text) return null;
  const m = /^\s*"?(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?"?\s*$/i.exec(text);
  if (!m) return null;
  const mult = { "": 1, K: 1024, M: 1024 ** 2, G: GIB, T: 1024 ** 4 }[
    m[2]!.toUpperCase() as "" | "K" | "M" | "G" | "T"
  ];
  return Math.round(Number(m[1]) * mult);
}

function onTmpfs(dir: string | null): boolean | null {
  if (!dir) return null;
  const d = dir.replace(/"/g, "");
  return d.startsWith("/dev/shm") || d.startsWith("/run/");
}

const stateMemory: Rule = {
  descriptor: {
    id: "state-exceeds-memory",
    title: "hived/steemd state file larger than its tmpfs or RAM",
    families: ["hive"],
    clients: ["hived", "steemd"],
    gate: "shared-file-size > /dev/shm size or > RAM (state on tmpfs), /dev/shm under 10 % free, or MemAvailable under 10 % with Shmem ≥ half of RAM.",
    watches: ["shm_free", "shmem", "mem_available", "mem_total", "shared-file-dir/size when reported"],
    kind: "change",
    snippetKinds: ["hived-config", "shell"],
    verificationMetric: "mem_available_ratio",
    sources: sources("tmpfs", "hivedChainPlugin"),
  },
  evaluate(ctx) {
    const samples = ctx.input.window.samples;
    if (samples.length < ctx.t.minSamples) return [];
    const memTotal = maxOf(samples.map((s) => s.memTotal ?? 0)) ?? 0;
    const shmem = maxOf(samples.map((s) => s.shmem ?? 0)) ?? 0;
    const shmTotal = ctx.input.settings?.shmTotalBytes ?? null;
    const size = parseSize(configValue(ctx, "shared-file-size"));
    const dir = configValue(ctx, "shared-file-dir");
    const tmpfs = onTmpfs(dir) ?? (memTotal > 0 && shmem >= 0.3 * memTotal);
    const shmFree = series(ctx, "shm_free_ratio");
    const memAvail = series(ctx, "mem_available_ratio");
    const minShmFree = shmFree.length ? Math.min(...valuesOf(shmFree)) : null;
    const minMemAvail = memAvail.length ? Math.min(...valuesOf(memAvail)) : null;
    const findings: string[] = [];
    const ev: Evidence[] = [];
    if (tmpfs && size && shmTotal && size > shmTotal) {
      findings.push(`shared-file-size ${fmt(size / GIB, 1)} GiB > /dev/shm ${fmt(shmTotal / GIB, 1)} GiB`);
      ev.push(
        evidence(ctx, {
          metric: "shared_file_size_bytes",
          label: "shared-file-size vs /dev/shm size",
          observed: size,
          threshold: shmTotal,
          comparison: ">",
          unit: "bytes",
        }),
      );
    }
    if (tmpfs && size && memTotal && size > memTotal) {
      findings.push(`shared-file-size ${fmt(size / GIB, 1)} GiB > RAM ${fmt(memTotal / GIB, 1)} GiB`);
      ev.push(
        evidence(ctx, {
          metric: "shared_file_size_bytes",
          label: "shared-file-size vs RAM",
          observed: size,
          threshold: memTotal,
          comparison: ">",
          unit: "bytes",
        }),
      );
    }
    if (tmpfs && minShmFree !== null && minShmFree < ctx.t.shmFreeRatio) {
      findings.push(`/dev/shm only ${pct(minShmFree, 1)} free`);
      ev.push(
        evidence(ctx, {
          metric: "shm_free_ratio",
          label: "/dev/shm free share",
          observed: Number(minShmFree.toFixed(4)),
          threshold: ctx.t.shmFreeRatio,
          comparison: "<",
          unit: "ratio",
          points: shmFree,
        }),
      );
    }
    if (minMemAvail !== null && minMemAvail < ctx.t.memAvailableRatio && memTotal > 0 && shmem >= 0.5 * memTotal) {
      findings.push(
        `MemAvailable down to ${pct(minMemAvail, 1)} with Shmem ${fmt(shmem / GIB, 1)} GiB of ${fmt(memTotal / GIB, 1)} GiB`,
      );
      ev.push(
        evidence(ctx, {
          metric: "mem_available_ratio",
          label: "MemAvailable / MemTotal",
          observed: Number(minMemAvail.toFixed(4)),
          threshold: ctx.t.memAvailableRatio,
          comparison: "<",
          unit: "ratio",
          points: memAvail,
        }),
      );
    }
    if (findings.length === 0) return [];
    const hived = ctx.client.kind === "hived";
    const stateBytes = size ?? shmem;
    const neededShm = Math.ceil((stateBytes * 1.25) / GIB);
    const fitsInRam = memTotal > 0 && neededShm * GIB + 4 * GIB <= memTotal;
    const snippets: Snippet[] = [];
    const arithmetic = [...findings];
    if (fitsInRam) {
      arithmetic.push(
        `tmpfs size: state ${fmt(stateBytes / GIB, 1)} GiB × 1.25 headroom = ${neededShm} GiB; RAM ${fmt(memTotal / GIB, 1)} GiB leaves ≥ 4 GiB for the OS and hived`,
      );
      snippets.push({
        kind: "shell",
        title: `Grow /dev/shm to ${neededShm} GiB`,
        content: `mount -o remount,size=${neededShm}G /dev/shm\n# persist: tmpfs /dev/shm tmpfs defaults,size=${neededShm}G 0 0 in /etc/fstab\n`,
        applyCommand: "run as root",
      });
    } else {
      arithmetic.push(
        `State ${fmt(stateBytes / GIB, 1)} GiB × 1.25 = ${neededShm} GiB does not fit in RAM ${fmt(memTotal / GIB, 1)} GiB minus 4 GiB: move the state to local NVMe`,
      );
      snippets.push(
        hivedConfigSnippet("hived config: keep the state on local NVMe", [
          {
            key: "shared-file-dir",
            value: '"/var/lib/hived/blockchain"',
            comment: "a directory on fast local NVMe (not network storage)",
          },
        ]),
      );
    }
    if (hived) {
      snippets.push(
        hivedConfigSnippet("hived config: let the state file grow by itself", [
          {
            key: "shared-file-full-threshold",
            value: "9500",
            comment: "grow when 95 % full (recommended for consensus nodes)",
          },
          { key: "shared-file-scale-rate", value: "1000", comment: "grow by 10 % each time (1000-2000 recommended)" },
        ]),
      );
    }
    const severity = "high";
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: this.descriptor.id,
        kind: "change",
        title: `${hived ? "hived" : "steemd"} state does not fit: ${findings[0]}`,
        severity,
        impact: impactOf(severity, findings.length + 1, 1, ">="),
        summary: `The chain state (shared_memory.bin) ${tmpfs ? "lives on tmpfs and " : ""}is running out of room: ${findings.join("; ")}. When it fills, hived stops; an oversized tmpfs can deadlock the machine because tmpfs pages cannot be freed.`,
        evidence: ev,
        arithmetic,
        snippets,
        caveats: [
          "tmpfs content is lost on reboot: replay (up to ~36 h) or load a state snapshot (state_snapshot plugin).",
          "Kernel docs: oversizing tmpfs deadlocks the machine (the OOM killer cannot free tmpfs pages). Keep RAM for the OS.",
          ...(hived
            ? [
                "MIRA/RocksDB advice is obsolete for Hive: it was removed in 2021-2022; the state lives in shared_memory.bin.",
              ]
            : ["For steemd, a MIRA build keeps state on disk but needs a full replay and many open files."]),
          "Network storage (e.g. AWS EBS) is too slow for the state; use local NVMe.",
        ],
        expectedEffect: "Free room on /dev/shm (or no tmpfs use at all) and MemAvailable above 10 %.",
        verification: describeVerification(ctx, {
          metric: "mem_available_ratio",
          direction: "increase",
          minimumWindowMinutes: 60,
          how: (w) => `Compare MemAvailable / MemTotal ${w} before and after.`,
        }),
        sources: sources("tmpfs", "hivedChainPlugin", "hiveMira", "steemMira"),
      }),
    ];
  },
};

const MIRA_KEYS = /mira|rocksdb|memory-replay-indices|database-cfg/i;

const hivedMira: Rule = {
  descriptor: {
    id: "hived-mira-obsolete",
    title: "MIRA settings in a hived config (removed from Hive)",
    families: ["hive"],
    clients: ["hived"],
    gate: "hived only (Steem still has MIRA); a reported config key or value mentions MIRA/RocksDB state options.",
    watches: ["settings.clientConfig"],
    kind: "obsolete-setting",
    snippetKinds: ["shell"],
    verificationMetric: "mem_available_ratio",
    sources: sources("hiveMira"),
  },
  evaluate(ctx) {
    const cfg = ctx.input.settings?.clientConfig ?? {};
    const keys = Object.entries(cfg)
      .filter(([k, v]) => MIRA_KEYS.test(k) || /mira/i.test(v))
      .map(([k]) => k);
    if (keys.length === 0) return [];
    const sed = keys
      .map((k) => `/^[[:space:]]*${k.replace(/[^\w-]/g, "")}[[:space:]]*=/s/^/# removed (MIRA is gone from Hive): /`)
      .join(";");
    return [
      draft({
        ruleId: this.descriptor.id,
        fingerprint: this.descriptor.id,
        kind: "obsolete-setting",
        title: `Remove MIRA-era option${keys.length > 1 ? "s" : ""} ${keys.join(", ")} from the hived config`,
        severity: "low",
        impact: impactOf("low", keys.length, 1, ">="),
        summary:
          "Hive removed MIRA (RocksDB state) in 2021 and the ENABLE_MIRA build option in 2022. These options do nothing on hived (or stop it from starting); the state lives in shared_memory.bin (shared-file-dir, shared-file-size).",
        evidence: keys.map((k) =>
          evidence(ctx, {
            metric: "config_option",
            label: `${k} = ${cfg[k]}`,
            observed: 1,
            threshold: 0,
            comparison: ">",
            unit: "options",
          }),
        ),
        arithmetic: [`${keys.length} MIRA-era option(s) found`],
        snippets: [
          {
            kind: "shell",
            title: "Comment out the MIRA options",
            content: `CONFIG="\${HIVED_CONFIG:-config.ini}"\nsed -i.bak '${sed}' "$CONFIG"\n`,
            applyCommand: "run in the hived data directory, then restart hived",
          },
        ],
        caveats: ["Steem (steemd) still has MIRA; this applies to hived only."],
        expectedEffect: "A config that matches what hived supports.",
        verification: describeVerification(ctx, {
          metric: "mem_available_ratio",
          direction: "increase",
          minimumWindowMinutes: 0,
          how: "Nothing to measure: the option disappears from the reported config.",
        }),
        sources: sources("hiveMira"),
      }),
    ];
  },
};

export const HIVE_RULES: readonly Rule[] = [stateMemory, hivedMira];
