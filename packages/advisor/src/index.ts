export * from "./types.js";
export { DEFAULT_THRESHOLDS, resolveThresholds } from "./thresholds.js";
export { parseClient, versionAtLeast, type ClientInfo } from "./client-version.js";
export { evaluateNode, RULES } from "./evaluate.js";
export { compareBeforeAfter, median, type CompareOptions } from "./stats/compare.js";
export { METRIC_DEFINITIONS, metricSeries, topIpSeries, totalIpSeries, type Point } from "./metrics.js";
export {
  advisorMetricsOf,
  agentSampleToAdvisorSample,
  agentSamplesToAdvisorInput,
  clientConfigFromNodeArgs,
  settingsFromAgentSamples,
  type AgentSamplesToInputOptions,
} from "./from-agent-samples.js";
export { SYSCTL_RANGES, checkSysctlValue, parseSysctlFile, type SysctlRange } from "./snippets/sysctl.js";
export { CLIENT_OPTIONS, SIDECAR_BLOCK_PARAMS } from "./snippets/client.js";
