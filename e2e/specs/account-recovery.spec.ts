import { expect } from "@playwright/test";
import { test } from "../fixtures/streaming.js";
import { createApiAccount } from "../fixtures/api-account.js";
import { linkIn, waitForMail } from "../fixtures/mailbox.js";

/**
 * Forgot password through the browser, with the mail read from the run's real SMTP server:
 * request → mail → reset page → new password works, the old one and the other session do not,
 * and the link does not work twice.
 */
test("forgot password: reset by emailed link, old password and sessions gone, link single-use", async ({
  page,
  baseURL,
}) => {
  const account = await createApiAccount(baseURL!, "recover");
  const newPassword = `new-pass-${Date.now()}`;
  expect((await (await account.api.get("/api/auth/get-session")).json()) as unknown).not.toBeNull();

  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  const since = Date.now();
  await page.getByLabel("Email").fill(account.email);
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  await expect(page.locator(".notice.ok")).toContainText(`If an account uses ${account.email}`);

  const mail = await waitForMail(account.email, /Reset your RPC Pulse password/, { since });
  const link = linkIn(mail, "/reset-password");
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await page.getByLabel("New password").fill(newPassword);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page).toHaveURL(/\/sign-in\?reset=1$/);
  await expect(page.locator(".notice.ok")).toContainText("Your password was changed");

  // The session the account had before is gone; the old password no longer signs in.
  expect(await (await account.api.get("/api/auth/get-session")).json()).toBeNull();
  const old = await account.api.post("/api/auth/sign-in/email", {
    data: { email: account.email, password: account.password },
  });
  expect(old.status()).toBe(401);

  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(newPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/app/o/${account.organization.slug}$`));

  // The same link a second time: a clear page, no form.
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();
  await expect(page.getByLabel("New password")).toHaveCount(0);
  await account.api.dispose();
});
