import { authRouter } from '../modules/auth/router.js';
import { meetingRouter } from '../modules/meeting/router.js';
import { messageRouter } from '../modules/message/router.js';
import { settingsRouter } from '../modules/settings/router.js';
import { transcriptRouter } from '../modules/transcript/router.js';
import { router } from './trpc.js';

export const appRouter = router({
  auth: authRouter,
  meeting: meetingRouter,
  message: messageRouter,
  settings: settingsRouter,
  transcript: transcriptRouter,
});

export type AppRouter = typeof appRouter;
