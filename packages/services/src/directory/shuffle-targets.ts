/**
 * The endpoints of a probe round in a fresh random order (Fisher–Yates). The scheduler gives the k-th
 * target the k-th slice of the round's jitter spread, so without this an endpoint would always be
 * probed at the same point of every round.
 */
export function shuffleTargets<T>(list: readonly T[], random: () => number = Math.random): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
