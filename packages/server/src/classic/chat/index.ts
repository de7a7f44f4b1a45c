export { classicChatRoutes } from "./chat-routes.ts";
export {
  type ChatActor,
  type ChatGame,
  type ChatLimits,
  type ClassicChatService,
  createClassicChatService,
} from "./service.ts";
