/**
 * Notices the public page shows after a subscription step (?subscription=<key>, set by the
 * subscription routes' redirects). The page response cache keeps one variant per key, so only these
 * keys reach the renderer; any other value is dropped.
 */
export const SUBSCRIPTION_NOTICE: Readonly<Record<string, string>> = {
  pending: "Check your inbox (or your webhook) for the confirmation link.",
  already: "That webhook is already subscribed.",
  confirmed: "Subscription confirmed. You will hear about incidents.",
  expired: "That confirmation link is not valid (any more).",
  limited: "Too many subscription requests; try again later.",
  invalid: "Please enter a valid email address or https:// webhook URL.",
};

export function subscriptionNoticeKey(value: string | null | undefined): string | undefined {
  return value && Object.hasOwn(SUBSCRIPTION_NOTICE, value) ? value : undefined;
}
