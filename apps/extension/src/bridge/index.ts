import { handshakeRequestSchema, type HandshakeReply } from '@mbox/shared';
import type { BridgeMessage } from '../messages.js';

/**
 * Handshake bridge on the web app's pages (product.md, Data / States): answers the page's window.postMessage calls on
 * behalf of the service worker. Only messages the page posted to itself on its own origin count;
 * anything else (other frames, other origins, our own replies) is ignored.
 */

const flag = '__mboxBridge';

function reply(message: HandshakeReply): void {
  window.postMessage(message, location.origin);
}

function onMessage(event: MessageEvent<unknown>): void {
  if (event.source !== window || event.origin !== location.origin) return;
  const data = event.data;
  if (typeof data !== 'object' || data === null || (data as { mboxHandshake?: unknown }).mboxHandshake !== true) return;
  const parsed = handshakeRequestSchema.safeParse(data);
  if (!parsed.success) {
    // A malformed set-user still gets an answer so the page does not wait for a timeout.
    if ((data as { action?: unknown }).action === 'set-user') {
      reply({ mboxHandshake: true, action: 'set-user-ack', ok: false, error: parsed.error.message });
    }
    return;
  }
  const message: BridgeMessage = { type: 'bridge-handshake', origin: location.origin, request: parsed.data };
  chrome.runtime.sendMessage(message).then(
    (answer: HandshakeReply | null) => {
      if (answer) reply(answer);
    },
    (error: unknown) => {
      // Extension reloaded or updated under this page: say so for set-user; need-user stays silent (product.md, States).
      console.debug('[mbox] bridge cannot reach the extension', error);
      if (parsed.data.action === 'set-user') {
        reply({ mboxHandshake: true, action: 'set-user-ack', ok: false, error: 'extension unavailable, reload the page' });
      }
    },
  );
}

// The worker may inject this script into tabs that already have it (install, new server origin).
const scope = window as unknown as Record<string, unknown>;
if (!scope[flag]) {
  scope[flag] = true;
  window.addEventListener('message', onMessage);
}
