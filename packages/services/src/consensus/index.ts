export * from "./decide-network-heads.js";
