export * from "./beacon-samples.js";
