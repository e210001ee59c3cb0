import { expect } from "@playwright/test";
import { test } from "../fixtures/streaming.js";
import { uniqueSuffix } from "../fixtures/api-account.js";
import { linkIn, waitForMail } from "../fixtures/mailbox.js";

/** The account journey in a real browser: every step through the UI, server actions and redirects. */
test("sign up, create an organization, invite, sign out, sign in, see the app shell", async ({ page, browser }) => {
  const suffix = uniqueSuffix();
  const owner = { name: "Olivia Owner", email: `owner-${suffix}@e2e.rpcpulse.dev`, password: `owner-pass-${suffix}` };
  const invitee = {
    name: "Ivan Invitee",
    email: `invitee-${suffix}@e2e.rpcpulse.dev`,
    password: `invitee-pass-${suffix}`,
  };
  const org = { name: `Validators ${suffix}`, slug: `validators-${suffix}` };

  // Sign up.
  await page.goto("/sign-up");
  await page.getByLabel("Name").fill(owner.name);
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Create account" }).click();

  // No organization yet: create one.
  await expect(page).toHaveURL(/\/app\/new-organization$/);
  await page.getByLabel("Organization name").fill(org.name);
  await page.getByLabel("URL name").fill(org.slug);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/o/${org.slug}$`));
  await expect(page.getByRole("heading", { name: "Fleet" })).toBeVisible();
  await expect(page.getByText("No nodes yet")).toBeVisible();

  // Invite a colleague as admin: the invitation is emailed, and the link is also shown to copy.
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Members" })).toBeVisible();
  await page.getByLabel("Email").fill(invitee.email);
  await page.getByLabel("Role").selectOption("admin");
  await page.getByRole("button", { name: "Create invitation" }).click();
  const link = page.getByTestId("invite-link");
  await expect(link).toHaveValue(/\/invite\/[A-Za-z0-9_-]+$/);
  const invitationUrl = new URL(await link.inputValue());
  await expect(page.getByRole("cell", { name: invitee.email, exact: true })).toBeVisible();
  const invitationMail = await waitForMail(invitee.email, new RegExp(`invited to ${org.name}`));
  expect(linkIn(invitationMail, "/invite/").pathname).toBe(invitationUrl.pathname);

  // Sign out.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in\?signedOut=1$/);
  await page.goto(`/app/o/${org.slug}`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);

  // The invitee opens the link in their own browser, signs up and accepts.
  const inviteeContext = await browser.newContext();
  const inviteePage = await inviteeContext.newPage();
  await inviteePage.goto(invitationUrl.pathname);
  await expect(inviteePage.getByRole("heading", { name: "You are invited" })).toBeVisible();
  await inviteePage.getByRole("main").getByRole("link", { name: "Create account" }).click();
  await inviteePage.getByLabel("Name").fill(invitee.name);
  await inviteePage.getByLabel("Email").fill(invitee.email);
  await inviteePage.getByLabel("Password").fill(invitee.password);
  await inviteePage.getByRole("button", { name: "Create account" }).click();
  // Joining needs a confirmed address: the sign-up mail's link confirms it and leads back here.
  await expect(inviteePage.getByRole("heading", { name: "Confirm your email address first" })).toBeVisible();
  const verification = linkIn(await waitForMail(invitee.email, /Confirm your email address/), "/verify-email");
  await inviteePage.goto(`${verification.pathname}${verification.search}`);
  await inviteePage.getByRole("button", { name: "Confirm my email address" }).click();
  await expect(inviteePage.getByText("Your email address is confirmed.")).toBeVisible();
  await inviteePage.getByRole("link", { name: "Continue" }).click();
  await expect(inviteePage.getByRole("heading", { name: `Join ${org.name}` })).toBeVisible();
  await inviteePage.getByRole("button", { name: "Accept invitation" }).click();
  await expect(inviteePage).toHaveURL(new RegExp(`/app/o/${org.slug}$`));
  await expect(inviteePage.getByText("admin", { exact: true })).toBeVisible();
  await inviteeContext.close();

  // Sign in again as the owner and land in the app shell of the organization.
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/o/${org.slug}$`));
  await expect(page.getByRole("heading", { name: "Fleet" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Organization" })).toHaveValue(org.slug);
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();

  // The invitee is now a member with the role they were invited with.
  await page.getByRole("link", { name: "Settings" }).click();
  const row = page.getByRole("row", { name: new RegExp(invitee.email) });
  await expect(row.getByText("admin", { exact: true })).toBeVisible();
});

test("a wrong password gets the same answer as an unknown email", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(`nobody-${uniqueSuffix()}@e2e.rpcpulse.dev`);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator(".notice.error")).toHaveText("Invalid email or password");
});
