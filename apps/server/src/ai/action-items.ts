import { CITE_CLASS, UNASSIGNED_OWNER, UNSUPPORTED_CLASS, citationNumbers } from '@mbox/shared';
import { dueDate, type MeetingClock } from './offline/dates.js';

/**
 * The points of an Action Items answer (the `action` prompt) as tasks. Every engine writes one list
 * item per task, "<b>Owner</b>: task", with the deadline in its words and citation elements naming
 * the lines it came from (docs/ai.md, "Citations"): the offline engine as "<b>Ann:</b> Send the order —
 * due Fri, Mar 8, 2024.", an LLM as the prompt asks ("<b>Ann</b>: send the order by Friday").
 */
export interface ActionPoint {
  /** Who does it; "Unassigned" when the point names no one. */
  owner: string;
  /** The task, without its owner, citation marks or the offline engine's due suffix. */
  text: string;
  /** The due day the point states, resolved from the meeting's date in its time zone. */
  due?: string;
  /** Citation numbers of the point, in order: numbers into the answer's citations table. */
  citations: number[];
}

/** The offline engine's due suffix: "… — due Fri, Mar 8, 2024." */
const OFFLINE_DUE = /\s*[—–]\s*due\s+(.+?)\.?\s*$/i;
/** "Ann Lee: send…" when the owner is not in bold; a colon within the first few words only. */
const PLAIN_OWNER = /^([^:.!?]{1,60}?):\s+(\S.*)$/s;
/** An owner is a name, not a clause: a few words at most. */
const OWNER_MAX_WORDS = 5;

const ELEMENT_NODE = 1;

function classOf(node: Element): string {
  return node.getAttribute('class') ?? '';
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The owner named by a bold lead or a "Name:" prefix, and the task after it. */
function splitOwner(item: Element): { owner: string; rest: string } {
  const first = Array.from(item.childNodes).find((node) => node.nodeType === ELEMENT_NODE || collapse(node.textContent ?? '') !== '');
  if (first && first.nodeType === ELEMENT_NODE && ['b', 'strong'].includes(first.nodeName.toLowerCase())) {
    const lead = collapse(first.textContent ?? '').replace(/:$/, '').trim();
    if (lead && lead.split(' ').length <= OWNER_MAX_WORDS) {
      first.parentNode?.removeChild(first);
      return { owner: lead, rest: collapse(item.textContent ?? '').replace(/^[:\-–—]\s*/, '') };
    }
  }
  const whole = collapse(item.textContent ?? '');
  const plain = PLAIN_OWNER.exec(whole);
  if (plain && plain[1]!.split(' ').length <= OWNER_MAX_WORDS) return { owner: plain[1]!.trim(), rest: plain[2]!.trim() };
  return { owner: '', rest: whole };
}

/** The action items of an Action Items answer's HTML, in order; none when it lists none. */
export async function readActionItems(html: string, clock: MeetingClock): Promise<ActionPoint[]> {
  const { parseHTML } = await import('linkedom');
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const items = Array.from((document as unknown as Document).body.querySelectorAll('li'));
  const points: ActionPoint[] = [];
  for (const item of items) {
    // A nested list's items are points of their own.
    for (const nested of Array.from(item.querySelectorAll('ul, ol'))) nested.remove();
    const citations: number[] = [];
    for (const mark of Array.from(item.querySelectorAll('sup, small'))) {
      if (mark.nodeName.toLowerCase() === 'sup' && classOf(mark) === CITE_CLASS) citations.push(...citationNumbers(mark.getAttribute('data-cite')));
      if (classOf(mark) === CITE_CLASS || classOf(mark) === UNSUPPORTED_CLASS) mark.remove();
    }
    const { owner, rest } = splitOwner(item);
    let text = rest;
    let due = dueDate(text, clock)?.day;
    const suffix = OFFLINE_DUE.exec(text);
    if (suffix) {
      due = dueDate(suffix[1]!, clock)?.day ?? due;
      text = `${text.slice(0, suffix.index).trim()}.`;
    }
    text = collapse(text);
    if (!text || text === '.') continue;
    points.push({ owner: owner || UNASSIGNED_OWNER, text: text.charAt(0).toUpperCase() + text.slice(1), due, citations: [...new Set(citations)] });
  }
  return points;
}
