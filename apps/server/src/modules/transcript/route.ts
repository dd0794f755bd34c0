import type { RestRouteOptions } from '../../trpc/rest-adapter.js';

/**
 * `POST /v1/transcript/{lines,events,end}`, the extension's calls (one a second per open meeting).
 *
 * Their answers are a few dozen bytes: not compressed (no compression hook runs). Their request lines are
 * quiet (one post a second per meeting would be most of the log): a refused call is logged at info, an
 * accepted one at debug.
 */
const extensionCall: RestRouteOptions = { compress: false, config: { quietRequestLine: true } };

export const transcriptRestRoutes: Record<string, RestRouteOptions> = {
  'transcript.ingest': extensionCall,
  'transcript.events': extensionCall,
  'transcript.end': extensionCall,
};
