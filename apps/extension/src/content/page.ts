import { MEET_CODE_PATTERN } from '@mbox/shared/meet-code';

/**
 * Meeting-level facts read from the Meet page. Like dom.ts, these rely on structure, data attributes and
 * Material Symbols icon names (the same in every UI language), never on translated text.
 */

const MEET_PATH = /^\/([a-z]{3}-[a-z]{4}-[a-z]{3})$/;

export function meetCodeFromPath(pathname: string): string | null {
  const code = MEET_PATH.exec(pathname)?.[1];
  return code && MEET_CODE_PATTERN.test(code) ? code : null;
}

/** document.title is "Meet - <title>", or shows the code when the meeting has no title. */
export function titleFromDocumentTitle(documentTitle: string, meetCode: string): string | undefined {
  const title = documentTitle.replace(/^\s*(Google\s+)?Meet\s*[-–—:]\s*/, '').trim();
  if (!title || title === meetCode || title === documentTitle.trim()) return undefined;
  return title;
}

const ICON_SELECTOR = 'i, [class*="symbols"], [class*="icons"]';

export function hasIcon(root: ParentNode, name: string): boolean {
  for (const el of Array.from(root.querySelectorAll(ICON_SELECTOR))) {
    if (el.childElementCount === 0 && el.textContent?.trim() === name) return true;
  }
  return false;
}

/** In the call the leave button (`call_end`) is shown; the lobby and the "you left" screen have no captions button. */
export function isInCall(doc: Document): boolean {
  return hasIcon(doc, 'call_end');
}

/** Meet offers `closed_caption_off` as the button icon while captions are off. */
export function captionsButtonSaysOff(doc: Document): boolean {
  return hasIcon(doc, 'closed_caption_off');
}

/** The leave button, if `target` is it or inside it. */
export function isLeaveButtonClick(target: EventTarget | null): boolean {
  if (!target || !(target instanceof Element)) return false;
  const button = target.closest('button, [role="button"]');
  return button != null && hasIcon(button, 'call_end');
}

const PARTICIPANT_NAME_SELECTORS = ['.zWGUib', '.XEazBc', '[data-self-name]'];

/** The user's own tile: the participant tile holding `[data-self-name]`. */
function selfTile(doc: Document): Element | null {
  const marker = doc.querySelector('[data-self-name]');
  return marker?.closest('[data-participant-id]') ?? marker?.querySelector('[data-participant-id]') ?? null;
}

/** Participant names from the tiles; the user's own tile counts under `selfName` when given. */
export function readParticipants(doc: Document, selfName?: string): string[] {
  const names = new Set<string>();
  const own = selfTile(doc);
  for (const tile of Array.from(doc.querySelectorAll('[data-participant-id]'))) {
    if (tile === own && selfName) {
      names.add(selfName);
      continue;
    }
    for (const selector of PARTICIPANT_NAME_SELECTORS) {
      const name = tile.querySelector(selector)?.textContent?.replace(/\s+/g, ' ').trim();
      if (name) {
        names.add(name);
        break;
      }
    }
  }
  return [...names];
}

/** The user's own display name: `[data-self-name]` in the call, `.awLEm` on the pre-join screen. */
export function readSelfName(doc: Document): string | undefined {
  const attr = doc.querySelector('[data-self-name]')?.getAttribute('data-self-name')?.trim();
  if (attr) return attr;
  const preJoin = doc.querySelector('.awLEm')?.textContent?.trim();
  return preJoin || undefined;
}

/**
 * The user's avatar image: in the own tile, or on the Google account button (its link to the account's
 * sign-out options is the same in every UI language).
 */
export function readSelfAvatar(doc: Document): string | undefined {
  const fromTile = selfTile(doc)?.querySelector('img[src]')?.getAttribute('src');
  if (fromTile) return fromTile;
  return doc.querySelector('a[href*="accounts.google.com/SignOutOptions"] img[src]')?.getAttribute('src') ?? undefined;
}
