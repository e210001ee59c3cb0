// Counts the results a suite printed: node:test's TAP or spec closing lines, Playwright's list reporter.

/** Sum of every match of `re`'s first group, or null when the output has none. */
function sumMatches(output, re) {
  let total = 0;
  let seen = false;
  for (const m of output.matchAll(re)) {
    total += Number(m[1]);
    seen = true;
  }
  return seen ? total : null;
}

/**
 * passed, failed, skipped and flaky (Playwright: failed, then passed on a retry; node:test has none).
 * A Playwright run prints "N passed", "N failed", "N skipped", "N flaky" lines in its summary.
 */
export function countResults(output) {
  // node:test's word ("# pass 3", "ℹ pass 3"), then Playwright's ("  3 passed").
  const count = (tapWord, playwrightWord) =>
    sumMatches(output, new RegExp(`^# ${tapWord} (\\d+)$`, "gm")) ??
    sumMatches(output, new RegExp(`^ℹ ${tapWord} (\\d+)$`, "gm")) ??
    sumMatches(output, new RegExp(`^\\s+(\\d+) ${playwrightWord}\\b`, "gm")) ??
    0;
  return {
    passed: count("pass", "passed"),
    failed: count("fail", "failed"),
    skipped: count("skipped", "skipped"),
    flaky: count("flaky", "flaky"),
  };
}
