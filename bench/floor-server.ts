// The framework's floor, measured inside the API server's own process (BENCH_FLOOR=1): a second,
// empty Fastify instance whose one catch-all route answers the recorded bytes, with no hook, no
// check and no logger. It runs beside the composition root, so it pays what the API pays for
// living in a real application process (shared Node and Fastify code that has seen many object
// shapes by the time the first request comes) and nothing of mkt's pipeline. Its answer is set
// once, after the API server's answer was recorded, by `PUT /__bench/answer`.
import Fastify from "fastify";

interface Answer {
  status: number;
  /** [name, value, name, value, …], as the API server sent them (Node's own headers left out). */
  headers: string[];
  /** Base64. */
  body: string;
}

export async function startFloorServer(): Promise<string> {
  const floor = Fastify({ logger: false });
  let answer: { status: number; headers: Record<string, string>; body: Buffer } | undefined;
  floor.put("/__bench/answer", (request, reply) => {
    const recorded = request.body as Answer;
    const headers: Record<string, string> = {};
    for (let i = 0; i < recorded.headers.length; i += 2)
      headers[recorded.headers[i]!] = recorded.headers[i + 1]!;
    answer = { status: recorded.status, headers, body: Buffer.from(recorded.body, "base64") };
    reply.code(204).send();
  });
  floor.get("/*", (_request, reply) => {
    if (answer === undefined) return reply.code(503).send();
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  });
  return floor.listen({ port: 0, host: "127.0.0.1" });
}
