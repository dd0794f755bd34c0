import { cleanTurnText } from './text.js';

const QUESTION_START =
  /^(?:who|what|when|where|why|how|which|whose|is|are|am|was|were|do|does|did|can|could|will|would|shall|should|have|has|had|may|might|isn't|aren't|don't|doesn't|didn't|can't|won't)\b/i;

/**
 * Rule-based cleanup of one caption line: annotations, fillers and stutters out, "i" as "I",
 * a capital at the start and a full stop (or question mark) at the end.
 */
export function fixLineOffline(text: string): string {
  let out = cleanTurnText(text)
    .replace(/\b(?:you know|I mean),?\s+(?=\w)/gi, (m, offset: number) => (offset === 0 ? '' : m))
    .replace(/\bi\b/g, 'I')
    .replace(/\bi'(m|ll|ve|d)\b/gi, "I'$1")
    .replace(/\s+/g, ' ')
    .trim();
  if (!out) return '';
  out = out.charAt(0).toUpperCase() + out.slice(1);
  // Sentence starts after terminal punctuation get their capital too.
  out = out.replace(/([.!?]\s+)([a-z])/g, (_m, p: string, c: string) => p + c.toUpperCase());
  out = out.replace(/[,;:\-–]+$/, '').trim();
  if (!/[.!?…]["')\]]?$/.test(out)) {
    const lastSentence = out.split(/[.!?]\s+/).pop() ?? out;
    out += QUESTION_START.test(lastSentence) ? '?' : '.';
  }
  return out;
}
