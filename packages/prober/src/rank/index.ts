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
export {
  classifyFreshness,
  freshnessLimits,
  summarizeFreshness,
  type FreshnessInput,
  type FreshnessLimits,
  type FreshnessState,
  type ProbeFreshness,
} from "./freshness.js";
export {
  measureProbeLags,
  probeAnswerTime,
  type LagProbe,
  type ProbeLag,
  type ProbeLagOptions,
  type StoredDecision,
} from "./probe-lag.js";
export {
  agentSampleCap,
  buildVantageViews,
  type VantageFlag,
  type VantageFlagReason,
  type VantageNotes,
  type VantageRules,
  type VantageSample,
  type VantageView,
} from "./vantage-views.js";
export {
  addSample,
  emptySummary,
  errorClassGroup,
  lagBucket,
  lagBucketBounds,
  lagQuantile,
  mergeSummary,
  ttfbBucket,
  ttfbBucketBounds,
  ttfbQuantile,
  ERROR_CLASSES,
  LAG_BUCKETS,
  TTFB_BUCKETS,
  type ErrorClassGroup,
  type ProbeSummary,
  type SampleFlags,
} from "./probe-summary.js";
export { scoreSummary, summaryStatus, type SummaryWindow } from "./score-summary.js";
export { buildSummaryViews, type SummaryView, type VantageSummary } from "./summary-views.js";
