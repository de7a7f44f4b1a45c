import type { SignedIn } from "../../_test/accounts.ts";
import type { TestApp } from "../../_test/app.ts";

/** Headers of a chat session opened by an account session (same Origin, wallet and key). */
export async function openChatSession(test: TestApp, who: SignedIn): Promise<Record<string, string>> {
  const response = await test.app.server.inject({
    method: "POST",
    url: "/market/chat/session",
    headers: who.headers,
  });
  if (response.statusCode !== 200)
    throw new Error(`chat session failed: ${response.statusCode} ${response.body}`);
  const { token } = response.json() as { token: string };
  return { ...who.headers, authorization: `Bearer ${token}` };
}

export const get = (test: TestApp, url: string, headers: Record<string, string> = {}) =>
  test.app.server.inject({ method: "GET", url, headers });

/**
 * Walks a list to its end through `next`, failing on a page that is not a
 * 200 or that a runaway cursor would repeat forever.
 */
export async function walkPages<B extends { next: string | null }, T>(
  test: TestApp,
  url: (cursor: string | undefined) => string,
  headers: Record<string, string>,
  itemsOf: (body: B) => T[],
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 1; pages <= 100; pages++) {
    const response = await get(test, url(cursor), headers);
    if (response.statusCode !== 200)
      throw new Error(`page ${pages}: ${response.statusCode} ${response.body}`);
    const body = response.json() as B;
    items.push(...itemsOf(body));
    if (body.next === null) return { items, pages };
    cursor = body.next;
  }
  throw new Error("more than 100 pages: the cursor does not advance");
}
