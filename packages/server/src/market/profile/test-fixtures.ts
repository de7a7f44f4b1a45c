import sharp from "sharp";
import type { SignedIn } from "../../_test/accounts.ts";
import { accountAction } from "../../_test/accounts.ts";
import { TEST_ADMIN_TOKEN, type TestApp } from "../../_test/app.ts";

/** Test images and calls shared by the profile feature's tests. */

export const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } });

export async function imageBase64(
  format: "png" | "jpeg" | "webp",
  { width = 40, height = 30, color = "#3366cc" }: { width?: number; height?: number; color?: string } = {},
): Promise<string> {
  return (await solid(width, height, color).toFormat(format).toBuffer()).toString("base64");
}

/** Uploads an avatar and returns the action's result. */
export async function uploadAvatar(test: TestApp, who: SignedIn, color = "#cc3366") {
  const response = await accountAction(test, who, {
    kind: "avatar-upload",
    contentType: "image/png",
    data: await imageBase64("png", { width: 300, height: 300, color }),
  });
  if (response.statusCode !== 200) throw new Error(`avatar upload failed: ${response.body}`);
  return response.json().result as { avatarId: string; avatarUrl: string };
}

/** The operator's X verification of a wallet's account. */
export function verifyX(test: TestApp, body: Record<string, unknown>, token = TEST_ADMIN_TOKEN) {
  return test.app.admin.inject({
    method: "POST",
    url: "/admin/social/x/verify",
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });
}

/** `GET /market/support/identity/profiles/x/{username}`. */
export function lookup(test: TestApp, username: string, apiKey: string | undefined) {
  return test.app.server.inject({
    method: "GET",
    url: `/market/support/identity/profiles/x/${username}`,
    headers: apiKey ? { "api-key": apiKey } : {},
  });
}
