export { boardRoutes } from "./board-routes.ts";
export { type BoardRuntime, type BoardService, createBoardService } from "./service.ts";
