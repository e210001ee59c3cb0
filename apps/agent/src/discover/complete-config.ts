import type { AgentConfig } from "../config/load.js";
import { discoverNode, type Discovery } from "./discover-node.js";

/**
 * Config loading's last step: where the node process, the data directories or the public ports are
 * absent (not given by flag, variable or file), fill them from discovery so file-descriptor limits,
 * node arguments and data-disk figures are not silently empty. Values that are set are never
 * changed; a failed discovery leaves the config as it was.
 */
export function completeConfigFromDiscovery(
  config: AgentConfig,
  discover: (input: { family: NonNullable<AgentConfig["family"]>; rpcUrl: URL }) => Discovery = discoverNode,
): AgentConfig {
  if (!config.family || !config.rpcUrl) return config;
  const needProcess = config.process === null;
  const needDirs = config.dataDirs.length === 0;
  const needPorts = config.ports === null;
  if (!needProcess && !needDirs && !needPorts) return config;
  let found: Discovery;
  try {
    found = discover({ family: config.family, rpcUrl: config.rpcUrl });
  } catch {
    return config;
  }
  return {
    ...config,
    process: needProcess && found.selector ? { ...found.selector } : config.process,
    dataDirs: needDirs ? found.dataDirs.map((d) => d.path) : config.dataDirs,
    ports: needPorts ? found.publicPorts : config.ports,
  };
}
