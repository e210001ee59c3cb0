export {
  computeNetworkHead,
  detectHeadRegressions,
  type EndpointLag,
  type HeadExclusion,
  type HeadObservation,
  type NetworkHead,
  type NetworkHeadOptions,
  type RegressionReport,
} from "./network-head.js";
export { SCORING, type ScoreWindow } from "./methodology.js";
export {
  sampleFromProbe,
  scoreEndpoint,
  type EndpointScore,
  type EndpointStatus,
  type EndpointWindow,
  type LatencyStats,
  type ScoreSample,
} from "./score.js";
export { rankEndpoints, type RankedEndpoint, type RankOptions } from "./rank.js";
export { quantile, wilsonLowerBound } from "./stats.js";
