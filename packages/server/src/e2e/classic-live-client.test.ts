import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  boosterDropAbi,
  createChainClients,
  dropFactoryAbi,
  liveBoosterDropAbi,
  liveDropCreatorAbi,
  readChainConfig,
  waitForSuccess,
} from "@mkt/chain";
import sharp from "sharp";
import {
  type Address,
  createWalletClient,
  type Hex,
  http,
  type PrivateKeyAccount,
  parseEther,
  parseEventLogs,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { onPostgres, setupDatabase, type TestDatabase } from "../_test/database.ts";
import { type NpmScript, runNpmScript } from "../_test/npm-script.ts";
import { freeLoopbackPort } from "../_test/ports.ts";

/**
 * A client of the live Classic service, pointed at mkt by changing only its base URL
 * (`/vibe/boosterbox` -> `/classic`, `/vibe/auth` -> `/classic/auth`): every request of the
 * "What published clients of the live service send" table of live-classic-facts.md, and the
 * other live reads it lists, sent with that client's paths, queries, headers and bodies against
 * `npm start` (demo activity on), and each answer checked for every field the client reads, with
 * the JSON type the client expects. The writes run the client's whole creator flow: sign in,
 * slug, upload, draft, deploy through the factory on the dev chain, confirm, ready.
 */

/** A JSON type as the client reads it; `a|b` accepts either. */
type JsonType = "string" | "number" | "boolean" | "array" | "object" | "null";
type Reads = Record<string, string>;

function jsonType(value: unknown): JsonType | "undefined" {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const type = typeof value;
  return type === "bigint" ? "number" : (type as JsonType | "undefined");
}

/**
 * Values at a dotted path; `[]` fans out over an array (which must be non-empty, or the
 * client's read would be checked against nothing).
 */
function at(value: unknown, path: string): unknown[] {
  let values: unknown[] = [value];
  for (const part of path.split(".")) {
    const fan = part.endsWith("[]");
    const key = fan ? part.slice(0, -2) : part;
    const next: unknown[] = [];
    for (const item of values) {
      const child = key === "" ? item : (item as Record<string, unknown> | null)?.[key];
      if (fan) {
        expect(Array.isArray(child), `${path}: ${key} is an array`).toBe(true);
        expect((child as unknown[]).length, `${path}: ${key} is not empty`).toBeGreaterThan(0);
        next.push(...(child as unknown[]));
      } else next.push(child);
    }
    values = next;
  }
  return values;
}

/** Every field the client reads is there with the type it expects (`a|b`: either). */
function expectReads(body: unknown, reads: Reads) {
  for (const [path, types] of Object.entries(reads)) {
    for (const value of at(body, path)) {
      expect(types.split("|"), `${path} has type ${jsonType(value)}`).toContain(jsonType(value));
    }
  }
}

interface Started {
  script: NpmScript;
  url: string;
  admin: string;
  dataDir: string;
}

/** `npm start` in the repository, on free ports, the demo activity on (its default). */
async function npmStart(env: Record<string, string>): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), "mkt-live-client-"));
  const script = runNpmScript("start", {
    PORT: "0",
    ADMIN_PORT: "0",
    DEVNET_PORT_8453: "0",
    DEVNET_PORT_4663: "0",
    MKT_DATA_DIR: dataDir,
    MKT_DEMO_RATE: "10",
    LOG_LEVEL: "warn",
    ...env,
  });
  await script.waitFor(/admin token/);
  const [, url] = await script.waitFor(/listening on\s+(\S+)/);
  const [, admin] = await script.waitFor(/operator\s+(\S+)/);
  return { script, url: url!, admin: admin!, dataDir };
}

describe("a client of the live Classic service, against npm start", () => {
  let started: Started;
  let database: TestDatabase | undefined;
  let apiKey: string;
  let client: PrivateKeyAccount;
  let drop: Address;
  let slug: string;
  let chainClients: ReturnType<typeof createChainClients>;

  const ADMIN_TOKEN = "operator-token-0123456789abcdef";

  /** A request as the live client sends it: lowercase `api-key`, and the image-proxy bypass on reads. */
  async function send(
    method: string,
    path: string,
    options: {
      query?: Record<string, string>;
      headers?: Record<string, string>;
      body?: unknown;
      form?: FormData;
      key?: boolean;
    } = {},
  ): Promise<{ status: number; body: unknown; headers: Headers }> {
    const url = new URL(`${started.url}${path}`);
    for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
    const headers: Record<string, string> = { ...options.headers };
    if (options.key !== false) headers["api-key"] = apiKey;
    let body: string | FormData | undefined;
    if (options.form) body = options.form;
    else if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.body);
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  }

  const readHeaders = { "x-bypass-image-proxy": "true" };

  beforeAll(async () => {
    database = onPostgres ? await setupDatabase() : undefined;
    // The port is fixed before the start so PUBLIC_URL (the uploads' URLs) names it.
    const port = await freeLoopbackPort();
    started = await npmStart({
      DATABASE_URL: database?.url ?? "memory://",
      ADMIN_TOKEN,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    });
    // The key as the live family creates it ({description, email}), raised by the operator so the
    // test's polling does not spend the client's per-minute budget.
    const created = await fetch(`${started.url}/keys`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ description: "live client", email: "live@example.com" }),
    });
    expect(created.status).toBe(201);
    const key = (await created.json()) as { id: string; key: string };
    apiKey = key.key;
    const raised = await fetch(`${started.admin}/admin/keys/${key.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ multiplier: 100 }),
    });
    expect(raised.status).toBe(200);
    const [classic] = (await readChainConfig(join(started.dataDir, "chains.json"))).chains;
    chainClients = createChainClients({ rpcUrl: classic!.rpcUrl, chainId: classic!.chainId });
    // The demo deploys its games and trades; the client picks the first listed game anyone may
    // mint in (active, not allowlist-gated).
    drop = await vi.waitFor(
      async () => {
        const games = await send("GET", "/classic/games", { query: { chainId: "8453", active: "true" } });
        for (const game of (games.body as { games: Array<{ dropContractAddress: Address; slug: string }> })
          .games) {
          const root = await chainClients.publicClient.readContract({
            address: game.dropContractAddress,
            abi: boosterDropAbi,
            functionName: "merkleRoot",
          });
          if (/^0x0+$/.test(root)) {
            slug = game.slug;
            return game.dropContractAddress;
          }
        }
        throw new Error("no open game listed yet");
      },
      { timeout: 60_000, interval: 250 },
    );
    client = privateKeyToAccount(generatePrivateKey());
    await chainClients.publicClient.request({
      method: "hardhat_setBalance" as never,
      params: [client.address, `0x${parseEther("100").toString(16)}`] as never,
    });
  }, 120_000);

  afterAll(async () => {
    await started?.script.stop();
    await database?.close();
  });

  /** The client's own transactions, from its fresh wallet. */
  const wallet = () =>
    createWalletClient({
      account: client,
      chain: chainClients.chain,
      transport: http(chainClients.chain.rpcUrls.default.http[0]),
    });
  const mined = async (hash: Promise<Hex>) => waitForSuccess(chainClients.publicClient, await hash);

  let mintedIds: bigint[] = [];
  let openTx: Hex;

  it("buys and opens packs in the demo's first game (the client's own wallet)", async () => {
    const onDrop = { address: drop, abi: liveBoosterDropAbi } as const;
    const price = await chainClients.publicClient.readContract({
      ...onDrop,
      functionName: "getMintPrice",
      args: [3n],
    });
    const mint = await mined(
      wallet().writeContract({ ...onDrop, functionName: "mint", args: [3n], value: price }),
    );
    const [minted] = parseEventLogs({
      abi: liveBoosterDropAbi,
      logs: mint.logs,
      eventName: "BoosterDropsMinted",
    });
    mintedIds = [minted!.args.startTokenId, minted!.args.startTokenId + 1n, minted!.args.startTokenId + 2n];
    // Opening requests the randomness (paying the entropy fee); the demo's entropy fulfiller assigns the
    // batch's rarities in a later block.
    const fee = await chainClients.publicClient.readContract({ ...onDrop, functionName: "getEntropyFee" });
    const opened = await mined(
      wallet().writeContract({ ...onDrop, functionName: "open", args: [mintedIds.slice(0, 2)], value: fee }),
    );
    await vi.waitFor(
      async () => {
        const [rarity] = await chainClients.publicClient.readContract({
          ...onDrop,
          functionName: "getTokenRarity",
          args: [mintedIds[1]!],
        });
        expect(rarity).toBeGreaterThan(0);
      },
      { timeout: 30_000, interval: 200 },
    );
    openTx = opened.transactionHash;
    // The indexer has the opening and its randomness once the client's packs read as rarity_assigned.
    await vi.waitFor(
      async () => {
        const range = await send("GET", "/classic/range", {
          query: { contractAddress: drop, tokenIds: mintedIds.join(","), chainId: "8453" },
        });
        const statuses = (range.body as { boosterBoxes: Array<{ status: string }> }).boosterBoxes.map(
          (b) => b.status,
        );
        expect(statuses.filter((status) => status === "rarity_assigned")).toHaveLength(2);
      },
      { timeout: 30_000, interval: 200 },
    );
  }, 90_000);
  /** The answer is 2xx and carries every field the client reads, typed as it reads it. */
  const replay = async (
    method: string,
    path: string,
    options: Parameters<typeof send>[2],
    reads: Reads,
  ): Promise<Record<string, unknown>> => {
    const answer = await send(method, path, options);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeGreaterThanOrEqual(200);
    expect(answer.status).toBeLessThan(300);
    expectReads(answer.body, reads);
    return answer.body as Record<string, unknown>;
  };

  const box = {
    "boxes[].tokenId": "number",
    "boxes[]._id": "string",
    "boxes[].rarity": "number",
    "boxes[].rarityName": "string",
    "boxes[].status": "string",
  };

  it("reads a game as the client does (rows 1, 2, 6)", async () => {
    for (const addressOrSlug of [drop, slug]) {
      const game = await replay(
        "GET",
        `/classic/contractAddress/${addressOrSlug}`,
        { query: { chainId: "8453" }, headers: readHeaders },
        {
          success: "boolean",
          "contractInfo.dropContractAddress": "string",
          "contractInfo.nftName": "string",
          "contractInfo.nftSymbol": "string",
          "contractInfo.description": "string",
          "contractInfo.imageUrl": "string",
          "contractInfo.packImage": "string",
          "contractInfo.pricePerPackUsd": "string",
          "contractInfo.marketCapUsd": "string",
          "contractInfo.ownerAddress": "string",
          "contractInfo.tokenAddress": "string",
          "contractInfo.chainId": "number",
          "contractInfo.isVerified": "boolean",
          "contractInfo.isGraduated": "boolean",
          "contractInfo.isActive": "boolean",
        },
      );
      const info = game["contractInfo"] as Record<string, string>;
      expect(info["dropContractAddress"]!.toLowerCase()).toBe(drop.toLowerCase());
      expect(info["pricePerPackUsd"]).toMatch(/^\$[0-9]{1,3}(,[0-9]{3})*\.[0-9]{2}$/);
      expect(info["marketCapUsd"]).toMatch(/^\$[0-9]{1,3}(,[0-9]{3})*\.[0-9]{2}$/);
    }
    const all = await replay(
      "GET",
      `/classic/contractAddress/${drop}/all`,
      { query: { chainId: "8453", page: "1", limit: "20" }, headers: readHeaders },
      {},
    );
    expect(all["success"]).toBe(true);
    const ready = await replay(
      "GET",
      `/classic/contractAddress/${drop}/ready`,
      { query: { chainId: "8453" }, headers: readHeaders },
      { ready: "boolean", progress: "number|null" },
    );
    expect(ready["ready"]).toBe(true);
  });

  it("reads the drop's recent rare packs and the wallet's packs in the drop (rows 3, 4)", async () => {
    // The demo keeps minting: wait until the drop holds a pack above the client's bound.
    const recent = await vi.waitFor(
      () =>
        replay(
          "GET",
          "/classic/recent",
          {
            query: {
              contractAddress: drop,
              chainId: "8453",
              limit: "20",
              includeMetadata: "true",
              rarityGreaterThan: "2",
            },
            headers: readHeaders,
          },
          {
            success: "boolean",
            ...box,
            "boxes[].metadata.name": "string",
            "boxes[].metadata.description": "string",
            "boxes[].metadata.imageUrl": "string",
            "boxes[].metadata.originalImageUrl": "string",
            "boxes[].metadata.foil": "string",
            "boxes[].metadata.wear": "string",
          },
        ),
      { timeout: 60_000, interval: 500 },
    );
    for (const item of recent["boxes"] as Array<{ rarity: number; contractAddress: string }>) {
      expect(item.rarity).toBeGreaterThan(2);
      expect(item.contractAddress.toLowerCase()).toBe(drop.toLowerCase());
    }
    const owner = await replay(
      "GET",
      `/classic/owner/${client.address}`,
      {
        query: {
          contractAddress: drop,
          chainId: "8453",
          page: "1",
          limit: "50",
          includeMetadata: "true",
          includeContractDetails: "true",
        },
        headers: readHeaders,
      },
      {
        success: "boolean",
        ...box,
        "boxes[].metadata.imageUrl": "string",
        "boxes[].metadata.originalImageUrl": "string",
        "boxes[].metadata.unopenedImageUrl": "string",
        "boxes[].metadata.name": "string",
        "boxes[].metadata.description": "string",
        "boxes[].metadata.attributes": "array",
        // A pack's card (and so its foil and wear) is drawn with its rarity, which comes after opening:
        // the unopened pack has none yet.
        "boxes[].metadata.foil": "string|null",
        "boxes[].metadata.wear": "string|null",
      },
    );
    const boxes = owner["boxes"] as Array<{
      tokenIdString: string;
      status: string;
      _id: string;
      metadata: Record<string, string>;
    }>;
    // The demo's first game starts its token ids above 2^53: a JSON number loses digits there, so
    // identities are compared by the exact decimal twin.
    expect(boxes.map((b) => b.tokenIdString).sort()).toEqual(mintedIds.map(String).sort());
    expect(new Set(boxes.map((b) => b._id)).size).toBe(3);
    // Minted: the pack's art; opened with its rarity assigned: the card's.
    const unopened = boxes.find((b) => b.status === "minted")!;
    expect(unopened.metadata["imageUrl"]).toBe(unopened.metadata["unopenedImageUrl"]);
    for (const opened of boxes.filter((b) => b.status === "rarity_assigned")) {
      expect(opened.metadata["imageUrl"]).not.toBe(opened.metadata["unopenedImageUrl"]);
    }
    // The older client's call: the status filter.
    const older = await replay(
      "GET",
      `/classic/owner/${client.address}`,
      {
        query: { contractAddress: drop, chainId: "8453", limit: "50", status: "rarity_assigned" },
        headers: readHeaders,
      },
      { success: "boolean", ...box },
    );
    expect((older["boxes"] as Array<{ status: string }>).map((b) => b.status)).toEqual([
      "rarity_assigned",
      "rarity_assigned",
    ]);
  });

  it("reads one pack, its rarity by the open transaction and its token JSON (rows 7, 14, GET /, /rarity)", async () => {
    const [first] = mintedIds;
    const byPath = await replay(
      "GET",
      `/classic/contractAddress/${drop}/tokenId/${first}`,
      { headers: readHeaders },
      {
        success: "boolean",
        "boosterBox.tokenId": "number",
        "boosterBox.rarity": "number",
        "boosterBox.status": "string",
      },
    );
    const root = await replay(
      "GET",
      "/classic/",
      {
        query: {
          tokenId: String(first),
          contractAddress: drop,
          chainId: "8453",
          includeMetadata: "true",
          includeContractDetails: "true",
        },
        headers: readHeaders,
      },
      {
        success: "boolean",
        "boosterBox.tokenId": "number",
        "boosterBox.rarityName": "string",
        "boosterBox.mintTxHash": "string",
        "boosterBox.mintBlockNumber": "number",
        "boosterBox.acquiredAtPackPrice": "string",
        "boosterBox.isNSFW": "boolean",
      },
    );
    expect((root["boosterBox"] as { tokenIdString: string }).tokenIdString).toBe(
      (byPath["boosterBox"] as { tokenIdString: string }).tokenIdString,
    );
    const rarity = await replay(
      "GET",
      "/classic/rarity",
      { query: { transactionHash: openTx, contractAddress: drop }, headers: readHeaders },
      {
        success: "boolean",
        rarity: "number",
        rarityName: "string",
        tokenId: "number",
        randomValue: "string",
        tokenSpecificRandomness: "string",
      },
    );
    expect(rarity["tokenIdString"]).toBe(String(first));
    expect(rarity["rarity"]).toBe((root["boosterBox"] as { rarity: number }).rarity);
    const token = await replay(
      "GET",
      `/classic/metadata/${slug}/${first}`,
      { key: false },
      {
        name: "string",
        description: "string",
        image: "string",
        imageUrl: "string",
        external_url: "string",
        animation_url: "string",
        attributes: "array",
      },
    );
    expect(token["imageUrl"]).toBe(token["image"]);
  });

  it("reads the ETH price, the price chart and the drop's statistics (row 5 and the web app's reads)", async () => {
    const price = await replay(
      "GET",
      "/classic/eth-price",
      {},
      {
        success: "boolean",
        price: "number",
        priceFormatted: "string",
        lastUpdated: "string",
      },
    );
    expect(price["priceFormatted"]).toMatch(/^\$[0-9]{1,3}(,[0-9]{3})*\.[0-9]{2}$/);
    expect(Number.isNaN(Date.parse(price["lastUpdated"] as string))).toBe(false);
    await replay(
      "GET",
      `/classic/price-chart/${drop}`,
      { query: { timeframe: "24h", includeStats: "true" }, headers: readHeaders },
      { success: "boolean" },
    );
    await replay(
      "GET",
      `/classic/collection/${drop}/stats`,
      { headers: readHeaders },
      { success: "boolean" },
    );
  });

  it("runs the client's creator flow: sign in, slug, upload, draft, deploy, confirm, ready (rows 8-13, 6)", async () => {
    // 8-9: the live sign-in, the message signed as given.
    const challenge = await replay(
      "GET",
      `/classic/auth/message/${client.address}`,
      {},
      {
        success: "boolean",
        message: "string",
        nonce: "string",
        expiresAt: "string",
      },
    );
    const lines = (challenge["message"] as string).split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe(`Nonce: ${challenge["nonce"]}`);
    expect(lines[1]).toMatch(/^Nonce: [0-9a-f]{64}$/);
    expect(lines[2]).toMatch(/^Expires: /);
    const signature = await client.signMessage({ message: challenge["message"] as string });
    const signedIn = await replay(
      "POST",
      "/classic/auth/verify-signature",
      { body: { address: client.address, signature } },
      { success: "boolean", accessToken: "string", userId: "string", user: "object" },
    );
    const bearer = { authorization: `Bearer ${signedIn["accessToken"]}` };

    // 10: a slug for the pack name.
    const slugged = await replay(
      "POST",
      "/classic/generate-slug",
      { body: { packName: "Live Owls" }, headers: bearer },
      {
        slug: "string",
      },
    );
    const newSlug = slugged["slug"] as string;
    expect(newSlug).toMatch(/^live-owls/);

    // 13: one image per upload, multipart field `files`.
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#3355aa" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("files", new Blob([new Uint8Array(png)], { type: "image/png" }), "owl.png");
    const uploaded = await replay(
      "POST",
      "/classic/image/upload",
      { form, headers: bearer },
      {
        "image.result.id": "string",
        "image.result.variants[]": "string",
      },
    );
    const imageUrl = (uploaded["image"] as { result: { variants: string[] } }).result.variants[0]!;
    const served = await fetch(imageUrl);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);

    // 11: the draft, in the live body.
    const rarities = ["Common", "Rare", "Epic", "Legendary", "Mythic"];
    const draft = await replay(
      "POST",
      "/classic/metadata/draft",
      {
        headers: bearer,
        body: {
          creator: client.address,
          owner: client.address,
          name: "Live Owls",
          symbol: "OWLS",
          description: "Owls, drafted by a live client.",
          slug: newSlug,
          featuredImageUrl: imageUrl,
          metadataItems: rarities.map((rarity, index) => ({
            name: `${rarity} Owl`,
            description: `A ${rarity.toLowerCase()} owl.`,
            imageUrl,
            rarity,
            tokenId: index + 1,
          })),
          bgColor: "#223344",
          disableFoil: false,
          disableWear: false,
          isNSFW: false,
          twitterLink: "https://x.com/liveowls",
          websiteLink: "https://owls.example",
          packAmount: 1,
        },
      },
      {
        success: "boolean",
        draftId: "string",
        drafts: "array",
        "draftGame.id": "string",
        "draftGame.slug": "string",
      },
    );
    const draftId = draft["draftId"] as string;

    // The deployment, through the factory, with what the draft answer says confirm will compare.
    const deploy = draft["createGame"] as {
      factory: Address;
      chainId: number;
      nftName: string;
      nftSymbol: string;
      tokenName: string;
      tokenSymbol: string;
      merkleRoot: Hex;
      oddsBps: [number, number, number, number, number];
    };
    expect(deploy.chainId).toBe(8453);
    const deployed = await mined(
      wallet().writeContract({
        address: deploy.factory,
        abi: dropFactoryAbi,
        functionName: "createDropWithExtensions",
        args: [
          deploy.tokenName,
          deploy.tokenSymbol,
          deploy.nftName,
          deploy.nftSymbol,
          client.address,
          0n,
          {
            baseURI: `${started.url}/classic/metadata/${newSlug}/`,
            tokensPerMint: parseEther("1000000"),
            commonOffer: 1n,
            rareOffer: 2n,
            epicOffer: 3n,
            legendaryOffer: 4n,
            mythicOffer: 5n,
          },
          {
            merkleRoot: deploy.merkleRoot,
            oddsBps: deploy.oddsBps,
            firstTokenId: 0n,
            virtualEth: parseEther("1"),
            virtualTokens: parseEther("1000000000"),
            graduationEth: parseEther("10"),
          },
        ],
      }),
    );
    const [created] = parseEventLogs({
      abi: liveDropCreatorAbi,
      logs: deployed.logs,
      eventName: "DropCreated",
    });
    const newDrop = created!.args.dropContract;

    // 12: confirm, with both headers as the client sends them.
    await vi.waitFor(
      async () => {
        const confirmed = await replay(
          "POST",
          "/classic/metadata/confirm",
          { headers: bearer, body: { draftId, txHash: deployed.transactionHash } },
          { success: "boolean", message: "string" },
        );
        expect(confirmed["receiptFound"]).not.toBe(false);
      },
      { timeout: 30_000, interval: 250 },
    );
    // 6: ready, then the game by its new slug.
    await vi.waitFor(
      async () => {
        const ready = await replay(
          "GET",
          `/classic/contractAddress/${newDrop}/ready`,
          { query: { chainId: "8453" } },
          { ready: "boolean", progress: "number|null" },
        );
        expect(ready["ready"]).toBe(true);
      },
      { timeout: 30_000, interval: 250 },
    );
    const game = await replay(
      "GET",
      `/classic/contractAddress/${newSlug}`,
      { query: { chainId: "8453" } },
      {
        "contractInfo.nftName": "string",
      },
    );
    expect((game["contractInfo"] as { dropContractAddress: string }).dropContractAddress.toLowerCase()).toBe(
      newDrop.toLowerCase(),
    );
    expect((game["contractInfo"] as { nftName: string }).nftName).toBe("Live Owls");
  }, 120_000);

  it("carries the live rate-limit headers on classic answers", async () => {
    const answer = await send("GET", "/classic/eth-price");
    expect(answer.status).toBe(200);
    const limit = Number(answer.headers.get("x-ratelimit-limit"));
    const remaining = Number(answer.headers.get("x-ratelimit-remaining"));
    const reset = Number(answer.headers.get("x-ratelimit-reset"));
    expect(limit).toBeGreaterThan(0);
    expect(remaining).toBeLessThan(limit);
    // Epoch seconds, within the next minute.
    expect(reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
    expect(reset).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 61);
  });

  it("tags every operation the client called as Live-compatible in /openapi/classic.json", async () => {
    const document = (await (await fetch(`${started.url}/openapi/classic.json`)).json()) as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    const called = [
      ["get", "/classic/"],
      ["get", "/classic/contractAddress/{addressOrSlug}"],
      ["get", "/classic/contractAddress/{addressOrSlug}/all"],
      ["get", "/classic/contractAddress/{addressOrSlug}/ready"],
      ["get", "/classic/contractAddress/{addressOrSlug}/tokenId/{tokenId}"],
      ["get", "/classic/recent"],
      ["get", "/classic/owner/{address}"],
      ["get", "/classic/eth-price"],
      ["get", "/classic/rarity"],
      ["get", "/classic/price-chart/{addressOrSlug}"],
      ["get", "/classic/collection/{contractAddress}/stats"],
      ["get", "/classic/metadata/{addressOrSlug}/{tokenId}"],
      ["get", "/classic/auth/message/{address}"],
      ["post", "/classic/auth/verify-signature"],
      ["post", "/classic/generate-slug"],
      ["post", "/classic/metadata/draft"],
      ["post", "/classic/metadata/confirm"],
      ["post", "/classic/image/upload"],
    ] as const;
    const untagged = called.filter(
      ([method, path]) => !document.paths[path]?.[method]?.tags?.includes("Live-compatible"),
    );
    expect(untagged).toEqual([]);
  });
});
