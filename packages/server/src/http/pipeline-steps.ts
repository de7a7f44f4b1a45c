import type { FastifyReply, FastifyRequest } from "fastify";

/** One step of a route's request check: synchronous unless it must wait (a key or session lookup). */
export type Step = (request: FastifyRequest, reply: FastifyReply) => void | Promise<void>;

/** Runs the steps in order, synchronously as long as every step is; stops once one has answered. */
export function sequence(steps: Step[]): Step | undefined {
  if (steps.length === 0) return undefined;
  if (steps.length === 1) return steps[0];
  const from = (index: number, request: FastifyRequest, reply: FastifyReply): void | Promise<void> => {
    for (let i = index; i < steps.length; i++) {
      if (reply.sent) return;
      const pending = steps[i]!(request, reply);
      if (pending instanceof Promise) return pending.then(() => from(i + 1, request, reply));
    }
  };
  return (request, reply) => from(0, request, reply);
}
