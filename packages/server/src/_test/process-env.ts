import { type ChainDeployment, parseChainDeployment } from "@mkt/chain";
import { type Database, migrate, openDatabase } from "../db/index.ts";

/**
 * What a test's indexing child process takes from its parent's environment: DATABASE_URL (opened
 * and migrated) and MKT_TEST_DEPLOYMENT (the deployment it indexes, as JSON).
 */
export async function openProcessDeployment(): Promise<{ db: Database; deployment: ChainDeployment }> {
  const url = process.env["DATABASE_URL"];
  const deploymentJson = process.env["MKT_TEST_DEPLOYMENT"];
  if (!url || !deploymentJson) throw new Error("DATABASE_URL and MKT_TEST_DEPLOYMENT are required");
  const deployment = parseChainDeployment(JSON.parse(deploymentJson));
  const db = await openDatabase({ kind: "postgres", url });
  await migrate(db);
  return { db, deployment };
}
