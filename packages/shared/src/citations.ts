import type { SummaryCitation } from './summary.js';

/**
 * Summary HTML cites transcript lines with `<sup class="cite" data-cite="1,3">[1, 3]</sup>` (numbers into
 * the summary's `citations`), and marks a point whose names, numbers or dates its lines do not hold with
 * `<small class="unsupported" data-missing="Bob; 25 euros">not found in the transcript</small>`.
 */
export const CITE_CLASS = 'cite';
export const UNSUPPORTED_CLASS = 'unsupported';
/** What the unsupported marker says, wherever a summary is shown. */
export const UNSUPPORTED_TEXT = 'not found in the transcript';

/** The citation numbers of a `data-cite` value ("1,3"); anything that is not a positive number is left out. */
export function citationNumbers(attribute: string | null | undefined): number[] {
  if (!attribute) return [];
  return attribute
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
}

/**
 * A citation as the times of its lines, "[10:42]" or "[10:42, 10:45]", for the places that cannot open
 * a line (exports, the shared page, e-mail); null when none of its numbers is a known line.
 */
export function citationTimesLabel(
  numbers: readonly number[],
  citations: readonly Pick<SummaryCitation, 'n' | 'spokenAt'>[],
  formatTime: (spokenAt: number) => string,
): string | null {
  const byNumber = new Map(citations.map((c) => [c.n, c.spokenAt]));
  const times = [
    ...new Set(numbers.flatMap((n) => (byNumber.has(n) ? [formatTime(byNumber.get(n)!)] : []))),
  ];
  return times.length > 0 ? `[${times.join(', ')}]` : null;
}
