import { z } from "zod";
import { roomSchema } from "../account/social.ts";

/** `GET /market/rooms/{roomId}`: one room and how active it is. */
export const roomDetailSchema = z
  .object({
    room: roomSchema,
    messages: z
      .number()
      .int()
      .describe("Messages in the room now (deleted ones and those of deleted accounts are gone)."),
    lastMessageAt: z
      .number()
      .int()
      .nullable()
      .describe("Unix milliseconds of the newest message; null for a room without messages."),
  })
  .meta({
    id: "RoomDetail",
    examples: [
      {
        room: {
          id: "room_0123456789abcdef0123",
          slug: "night-owls",
          title: "Night Owls",
          description: "Pulls and trades",
          createdBy: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
          createdAt: 1_790_000_000_000,
        },
        messages: 12,
        lastMessageAt: 1_790_000_600_000,
      },
    ],
  });

export type RoomDetail = z.output<typeof roomDetailSchema>;
