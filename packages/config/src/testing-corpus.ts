/**
 * Building blocks of the seeded mutation corpora that prove a hand-written check decides like its schema
 * (the ingest wire check, the queue's job check) and of other seeded tests: a reproducible PRNG and
 * path helpers over plain JSON values. Exported through `@rpcpulse/config/testing`.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonPath = (string | number)[];

/** A small deterministic PRNG (mulberry32) in [0, 1), so a failing seed reproduces. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every path in `value`, the root's empty path first, depth first. */
export function allPaths(value: Json, path: JsonPath = [], out: JsonPath[] = []): JsonPath[] {
  out.push(path);
  if (Array.isArray(value)) value.forEach((v, i) => allPaths(v, [...path, i], out));
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) allPaths(v, [...path, k], out);
  return out;
}

export function getAt(root: Json, path: JsonPath): Json {
  let cur: Json = root;
  for (const key of path) cur = (cur as Record<string | number, Json>)[key] as Json;
  return cur;
}

/**
 * Put `value` at `path` in place (undefined removes the key, or the array element), and return the root:
 * a new one when the path is empty.
 */
export function setAt(root: Json, path: JsonPath, value: Json | undefined): Json {
  if (path.length === 0) return value === undefined ? null : value;
  const parent = getAt(root, path.slice(0, -1)) as Record<string | number, Json>;
  const key = path[path.length - 1] as string | number;
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else parent[key] = value;
  return root;
}
