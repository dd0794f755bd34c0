/**
 * Reading Meet's caption DOM (docs/capture.md says how Meet's captions behave). Meet renames its obfuscated
 * classes without notice, so every lookup is a ranked list: current names first, then the secondary
 * classes and jsname values that survived past renames, then structure alone. Nothing here matches
 * on visible text or aria-labels, which change with the UI language.
 */

export const REGION_SELECTOR = 'div[role="region"][tabindex="0"]';

const BLOCK_SELECTORS = ['.nMcdL.bj4p3b', '.TBMuR.bj4p3b', '.bj4p3b'];
const SPEAKER_SELECTORS = ['.KcIKyf span.NWpY1d', '.KcIKyf.jxFHg', '.jxFHg', 'span.NWpY1d', '.KcIKyf'];
const TEXT_SELECTORS = ['div[jsname="tgaKEf"]', '.ygicle.VbkSUe', '.bh44bd.VbkSUe', '.VbkSUe'];
const AVATAR_SELECTORS = ['img.Z6byG.r6DyN', 'img.r6DyN', 'img'];

/** The region's last two children are Meet controls ("jump to bottom" and similar), never captions. */
const TRAILING_NON_CAPTION_CHILDREN = 2;

/** One caption block (one speaker turn) as it looks right now. */
export interface CaptionBlockSnapshot {
  /** The block element; the tracker keys its state by identity, so a snapshot never copies it. */
  key: object;
  speaker: string;
  avatar?: string;
  text: string;
}

function firstMatch(root: ParentNode, selectors: readonly string[]): Element | null {
  for (const selector of selectors) {
    const found = root.querySelector(selector);
    if (found) return found;
  }
  return null;
}

function cleanText(node: Element | null): string {
  return (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The caption region Meet shows while captions are on; null when captions are off or not rendered. */
export function findCaptionRegion(doc: Document): Element | null {
  // Several regions may exist (e.g. side panels); the caption one holds caption blocks or caption text.
  const regions = Array.from(doc.querySelectorAll(REGION_SELECTOR));
  return (
    regions.find((r) => firstMatch(r, BLOCK_SELECTORS) ?? firstMatch(r, TEXT_SELECTORS)) ??
    regions.find((r) => r.getAttribute('aria-live') == null && r.children.length >= TRAILING_NON_CAPTION_CHILDREN) ??
    null
  );
}

/** The caption block elements of a region, oldest first. */
export function findBlockElements(region: Element): Element[] {
  for (const selector of BLOCK_SELECTORS) {
    const blocks = Array.from(region.querySelectorAll(selector));
    if (blocks.length > 0) return blocks;
  }
  // Structural fallback: the region's children minus its trailing controls, if they carry caption text.
  const children = Array.from(region.children).slice(0, -TRAILING_NON_CAPTION_CHILDREN);
  return children.filter((child) => firstMatch(child, TEXT_SELECTORS) != null);
}

export function readBlock(block: Element): CaptionBlockSnapshot {
  const avatar = firstMatch(block, AVATAR_SELECTORS)?.getAttribute('src') ?? undefined;
  const snapshot: CaptionBlockSnapshot = {
    key: block,
    speaker: cleanText(firstMatch(block, SPEAKER_SELECTORS)),
    text: cleanText(firstMatch(block, TEXT_SELECTORS)),
  };
  if (avatar) snapshot.avatar = avatar;
  return snapshot;
}

export function readCaptionBlocks(region: Element): CaptionBlockSnapshot[] {
  return findBlockElements(region).map(readBlock);
}
