import { deriveDevAccounts } from "@mkt/chain";
import { createMktClient, type MktClient } from "@mkt/client";
import { CLASSIC_CHAT } from "@mkt/protocol";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLogCapture, setupApp, type TestApp } from "../_test/app.ts";
import { setupDevChain, type TestChain } from "../_test/dev-chain.ts";
import { fixedPriceSource } from "../classic/price.ts";
import { createLogger } from "../logging/index.ts";
import { startDemoClassicActivity } from "./classic-activity-run.ts";
import { DEMO_CLASSIC_GAME, DEMO_CLASSIC_WALLET_INDICES } from "./classic-scenario.ts";
import { seededRandom } from "./release-activity.ts";

const PUBLIC_URL = "https://api.mkt.test";
const HOUR = 3_600_000;
const wallets = deriveDevAccounts(undefined, 24);
const creatorAddress = wallets[DEMO_CLASSIC_WALLET_INDICES[0]]!.address.toLowerCase();
const minterAddress = wallets[DEMO_CLASSIC_WALLET_INDICES[1]]!.address.toLowerCase();
const demoAddresses = DEMO_CLASSIC_WALLET_INDICES.map((index) => wallets[index]!.address.toLowerCase());
const CARDS = [
  "Charcoal Sketch",
  "Ink Study",
  "Watercolor Wash",
  "Oil Portrait",
  "Gilded Fresco",
  "Master's Easel",
];

describe("demo classic activity against the app and the dev chain", () => {
  let chain: TestChain;
  let t: TestApp;
  let baseUrl: string;
  let reader: MktClient;
  const keysIssued: string[] = [];
  const logs = createLogCapture();

  const start = async () => {
    const keys = {
      create: async (input: Parameters<typeof t.app.services.keys.create>[0]) => {
        const created = await t.app.services.keys.create(input);
        keysIssued.push(created.key);
        return created;
      },
      revokeSelf: (presented: string) => t.app.services.keys.revokeSelf(presented),
    };
    return startDemoClassicActivity({
      baseUrl,
      keys,
      deployment: chain.deployment,
      publicUrl: PUBLIC_URL,
      logger: createLogger({ level: "debug", destination: logs.stream }),
      random: seededRandom(5),
      // No step runs by itself in this test: it calls tick().
      intervalMs: 3_600_000,
      refreshChance: 1,
      statsChance: 1,
    });
  };
  const logLines = () => logs.lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeAll(async () => {
    chain = await setupDevChain(8453, { metadataBaseUrl: `${PUBLIC_URL}/classic/metadata/` });
    t = await setupApp({
      deployments: [chain.deployment],
      indexing: true,
      ethUsdPrice: fixedPriceSource("3000"),
    });
    ({ publicUrl: baseUrl } = await t.app.listen());
    reader = createMktClient({ baseUrl, apiKey: (await t.createKey({ multiplier: 100 })).key });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await chain?.close();
  });

  it("creates, confirms and revises one gated game, chats and reacts, and adopts the game on a second start", async () => {
    const demo = await start();
    await demo.ready;
    const game = demo.activity.state().game;
    expect(game).toMatchObject({ slug: DEMO_CLASSIC_GAME.slug });
    const address = game!.address;
    // The reference deployment's sample games and the demo's: a step picks any of them.
    const { games } = await reader.classic.games.list({ limit: 20 });
    const listed = games.map((entry) => entry.dropContractAddress);
    expect(listed).toContain(address);

    // The confirmed game reads by its slug with the draft's cards, created by the demo's creator wallet.
    const { contractInfo } = await reader.classic.games.get(DEMO_CLASSIC_GAME.slug);
    expect(contractInfo).toMatchObject({
      dropContractAddress: address,
      slug: DEMO_CLASSIC_GAME.slug,
      nftName: DEMO_CLASSIC_GAME.nftName,
      ownerAddress: creatorAddress,
    });
    expect(contractInfo.potentialCards.map((card) => [card.name, card.rarityCode])).toEqual(
      CARDS.map((name, index) => [name, [1, 1, 2, 3, 4, 5][index]]),
    );
    // The allowlisted wallet minted three packs with the API's proof.
    await vi.waitFor(
      async () => {
        const { boosterBoxes } = await reader.classic.packs.range({ contractAddress: address });
        expect(boosterBoxes.map((pack) => pack.owner.toLowerCase())).toEqual([
          minterAddress,
          minterAddress,
          minterAddress,
        ]);
      },
      { interval: 50, timeout: 20_000 },
    );

    // A step: the revision (once), a chat line, a reaction, a refresh and the account's statistics.
    const first = await demo.activity.tick();
    expect(first.map((report) => report.action)).toEqual(["revise", "chat", "react", "refresh", "stats"]);
    expect(first[0]).toMatchObject({ game: address, version: 2 });
    const chat = first[1]!;
    expect(demoAddresses).toContain(chat.wallet);
    expect(listed).toContain(chat.game);
    const { messages } = await reader.classic.chat.list(String(chat.game));
    expect(messages.map((message) => [message.id, message.author.address, message.text])).toEqual([
      [chat["messageId"], chat.wallet, "gm collectors"],
    ]);
    const react = first[2]!;
    expect(react).toMatchObject({ active: true });
    expect(listed).toContain(react.game);
    const counts = await reader.classic.tools.reactions({
      contractAddress: String(react.game),
      ...(react["tokenId"] === undefined ? {} : { tokenId: String(react["tokenId"]) }),
    });
    expect(counts.counts[react["kind"] as keyof typeof counts.counts]).toBe(1);
    expect(counts.total).toBe(1);
    expect(first[3]).toMatchObject({ game: chat.game, refreshed: true });
    expect(first[4]).toMatchObject({ reactionsMade: 1 });

    // The revision takes effect an hour ahead; until then the draft's cards are in effect.
    const namesAt = async (at: number) =>
      (await reader.classic.metadata.cards(address, { at: new Date(at).toISOString() })).cards.map(
        (card) => card.name,
      );
    expect(await namesAt(Date.now())).toEqual(CARDS);
    expect(await namesAt(Date.now() + 2 * HOUR)).toEqual(CARDS.map((name) => `${name} (Restored)`));

    const second = await demo.activity.tick();
    expect(second.map((report) => report.action)).not.toContain("revise");
    const chatted = second.find((report) => report.action === "chat")!;
    const [latest] = (await reader.classic.chat.list(String(chatted.game))).messages;
    expect(latest).toMatchObject({ id: chatted["messageId"], text: "just pulled a rare, feeling lucky" });

    // Every demo wallet at the per-account chat limit (a high MKT_DEMO_RATE reaches it): the step
    // goes on without its line and still reacts.
    await t.db.withConnection((connection) =>
      connection.query(
        `INSERT INTO classic_chat_messages (chain_id, contract_address, account_id, author_address, text, created_at)
         SELECT 8453, $1, w.account_id, w.address, 'filler', now()
         FROM account_wallets w, generate_series(1, $2::int)
         WHERE w.address = ANY($3::text[])`,
        [address, CLASSIC_CHAT.postsPerWindow, demoAddresses],
      ),
    );
    const limited = await demo.activity.tick();
    expect(limited.map((report) => [report.action, report["limited"]])).toEqual([
      ["chat", true],
      ["react", undefined],
      ["refresh", undefined],
      ["stats", undefined],
    ]);
    await demo.stop();
    await demo.stop();
    // The demo's key is revoked on stop.
    const refused = await fetch(`${baseUrl}/classic/games`, { headers: { "api-key": keysIssued[0]! } });
    expect(refused.status).toBe(429);

    // A second start on the same database and chain adopts the game: no second draft or deployment.
    const again = await start();
    await again.ready;
    expect(again.activity.state().game).toEqual(game);
    const adopted = logLines().filter((line) => line["msg"] === "demo classic game ready");
    expect(adopted.map((line) => [line["game"], line["adopted"]])).toEqual([
      [address, false],
      [address, true],
    ]);
    const [revise] = await again.activity.tick();
    expect(revise).toMatchObject({ action: "revise", already: true });
    await again.stop();
    const created = await reader.classic.games.search({ ownerAddress: creatorAddress });
    expect(created.games.map((entry) => entry.dropContractAddress)).toEqual([address]);
    expect(
      logLines()
        .filter((line) => line["msg"] === "demo classic" && line["action"] === "deploy")
        .map((line) => line["game"]),
    ).toEqual([address]);

    // No key, token or signature in any log.
    for (const text of [logs.text(), t.logs.text()]) {
      for (const key of keysIssued) expect(text).not.toContain(key);
      expect(text).not.toMatch(/mktb_/);
      expect(text).not.toMatch(/0x[0-9a-f]{130}/i);
    }
  }, 120_000);
});
