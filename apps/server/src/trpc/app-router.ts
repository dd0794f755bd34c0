import { accessTokensRouter } from '../modules/access-tokens/router.js';
import { actionItemsRouter } from '../modules/action-items/router.js';
import { aiUsageRouter } from '../modules/ai-usage/router.js';
import { accountRouter } from '../modules/account/router.js';
import { authRouter } from '../modules/auth/router.js';
import { billingRouter } from '../modules/billing/router.js';
import { meetingRouter } from '../modules/meeting/router.js';
import { messageRouter } from '../modules/message/router.js';
import { summaryRouter } from '../modules/summary/router.js';
import { settingsRouter } from '../modules/settings/router.js';
import { changelogRouter } from '../modules/changelog/router.js';
import { plansRouter } from '../modules/plans/router.js';
import { referralRouter } from '../modules/referral/router.js';
import { statsRouter } from '../modules/stats/router.js';
import { transcriptRouter } from '../modules/transcript/router.js';
import { toolsRouter } from '../modules/tools/router.js';
import { webhooksRouter } from '../modules/webhooks/router.js';
import { recapRouter } from '../modules/recap/router.js';
import { askRouter } from '../modules/ask/router.js';
import { shareRouter } from '../modules/share/router.js';
import { searchRouter } from '../modules/search/router.js';
import { localModelRouter } from '../modules/local-model/router.js';
import { router } from './trpc.js';

export const appRouter = router({
  auth: authRouter,
  meeting: meetingRouter,
  message: messageRouter,
  summary: summaryRouter,
  settings: settingsRouter,
  plans: plansRouter,
  billing: billingRouter,
  referral: referralRouter,
  changelog: changelogRouter,
  stats: statsRouter,
  transcript: transcriptRouter,
  tools: toolsRouter,
  webhooks: webhooksRouter,
  recap: recapRouter,
  ask: askRouter,
  share: shareRouter,
  search: searchRouter,
  aiUsage: aiUsageRouter,
  account: accountRouter,
  localModel: localModelRouter,
  accessTokens: accessTokensRouter,
  actionItems: actionItemsRouter,
});

export type AppRouter = typeof appRouter;
