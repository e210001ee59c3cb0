// Breaks no-circular together with cycle-a.ts.
import { a } from "./cycle-a.js";
export const b = (): string => (a.length > 0 ? "b" : "");
