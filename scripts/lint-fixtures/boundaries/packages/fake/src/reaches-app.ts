// Breaks no-app-imports: a package importing a deployable.
export { pg } from "../../../apps/fake/src/own-pool.js";
