import { describe, expect, it } from 'vitest';
import { DEFAULT_SUMMARY_SETTINGS } from '@mbox/shared';
import { readActionItems } from './action-items.js';
import { citeLlmAnswer } from './citations.js';
import { answerToSafeHtml } from './sanitize.js';
import { generateOffline } from './offline/engine.js';

/** Tuesday 5 March 2024, 09:00 UTC: "by Friday" is 8 March. */
const STARTED = Date.UTC(2024, 2, 5, 9);
const clock = { start: STARTED, timeZone: 'Europe/Berlin' };

describe('readActionItems', () => {
  it("reads the offline engine's owner, task, due day and cited line", async () => {
    const transcript = [
      { speaker: 'Ann Lee', text: 'Welcome. Today we need to choose the supplier for the new laptops.', spokenAt: STARTED },
      { speaker: 'Ben Ode', text: 'I compared the offers from Dell and Lenovo; Lenovo is cheaper by ten percent.', spokenAt: STARTED + 1000 },
      { speaker: 'Ann Lee', text: "Let's go with Lenovo for the laptops then.", spokenAt: STARTED + 2000 },
      { speaker: 'Ben Ode', text: 'Yes, agreed.', spokenAt: STARTED + 3000 },
      { speaker: 'Ann Lee', text: 'Um, I will send the the purchase order to finance by Friday.', spokenAt: STARTED + 4000 },
    ];
    const { html, lines } = generateOffline({ transcript, promptKey: 'action', settings: DEFAULT_SUMMARY_SETTINGS, timeZone: 'Europe/Berlin' });
    const points = await readActionItems(html, clock);
    const order = points.find((p) => /purchase order/.test(p.text));
    expect(order).toEqual({ owner: 'Ann Lee', text: 'Send the purchase order to finance.', due: '2024-03-08', citations: [expect.any(Number)] });
    expect(lines[order!.citations[0]! - 1]).toBe(4);
  });

  it('reads an LLM answer: bold owner, a plain "Name:" owner, none, and dates in words', async () => {
    const answer = answerToSafeHtml(
      '- **Ben Ode**: compare the delivery times by next Tuesday [2]\n- Cleo: book the room [1][3]\n- Order new chairs',
    );
    const { html } = await citeLlmAnswer(answer!, {
      transcript: [
        { speaker: 'Cleo', text: 'I will book the room.' },
        { speaker: 'Ben Ode', text: 'I can compare the delivery times by next Tuesday.' },
        { speaker: 'Cleo', text: 'The room is on me.' },
      ],
      sent: [0, 1, 2],
    });
    expect(await readActionItems(html, clock)).toEqual([
      { owner: 'Ben Ode', text: 'Compare the delivery times by next Tuesday', due: '2024-03-12', citations: [1] },
      { owner: 'Cleo', text: 'Book the room', due: undefined, citations: [2, 3] },
      { owner: 'Unassigned', text: 'Order new chairs', due: undefined, citations: [] },
    ]);
  });

  it('finds nothing in an answer that lists no task', async () => {
    expect(await readActionItems('<p>No action items were assigned in this meeting.</p>', clock)).toEqual([]);
  });
});
