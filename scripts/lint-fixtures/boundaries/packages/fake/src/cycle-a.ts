// Breaks no-circular together with cycle-b.ts.
import { b } from "./cycle-b.js";
export const a = (): string => b();
