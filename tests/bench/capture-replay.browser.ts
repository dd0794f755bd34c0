// Bundled by capture-cost.ts for the Chromium run: the same replay, on the page's own document.
import { replayCaptions } from './capture-replay.js';

declare global {
  interface Window {
    replayCaptions: typeof replayCaptions;
  }
}
window.replayCaptions = replayCaptions;
