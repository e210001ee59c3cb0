// The parser ships no types; its declaration is referenced here so every workspace compiling this file sees it.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./parse-prometheus-text-format.d.ts" />
/**
 * The Prometheus text-format parser the /metrics tests read scrapes with (an independent parser, not
 * prom-client's own output code), typed once here instead of a declaration copied into each test folder.
 */
import parsePrometheusTextFormat from "parse-prometheus-text-format";

/** One metric family of a scrape: name, help, type and its samples as the exposition wrote them. */
export type PrometheusFamily = ReturnType<typeof parsePrometheusTextFormat>[number];

/** Parse a text-format scrape into its families, in the order the scrape lists them. */
export function parsePrometheusText(text: string): PrometheusFamily[] {
  return parsePrometheusTextFormat(text);
}
