import { describe, expect, it } from 'vitest';
import { readAction } from './actions.js';

// Tuesday 5 March 2024, 09:00 UTC.
const clock = { start: Date.UTC(2024, 2, 5, 9), timeZone: 'Europe/Berlin' };
const people = ['Ann', 'Ben', 'Nick Williams'];

describe('action items read from a sentence', () => {
  it('a commitment is the speaker’s, with its due date relative to the meeting', () => {
    expect(readAction('I will send the purchase order to finance by Friday.', 'Ann', people, clock)).toEqual({
      owner: 'Ann',
      task: 'Send the purchase order to finance',
      due: 'Fri, Mar 8, 2024',
      addressed: false,
    });
    expect(readAction("I'll draft the contract for Nick.", 'Ben', people, clock)).toMatchObject({ owner: 'Ben', task: 'Draft the contract for Nick' });
  });

  it('a request belongs to the person addressed (filled in from the reply), a named participant’s task to them', () => {
    expect(readAction('Ben, can you check the warranty terms with Lenovo before next Tuesday?', 'Ann', people, clock)).toEqual({
      owner: 'Ben',
      task: 'Check the warranty terms with Lenovo',
      due: 'Tue, Mar 12, 2024',
      addressed: false,
    });
    expect(readAction('Can you check the warranty terms?', 'Ann', people, clock)).toMatchObject({ owner: '', addressed: true });
    expect(readAction("Let's book the venue by next Friday.", 'Ann', people, clock)).toMatchObject({ owner: 'Team', task: 'Book the venue', due: 'Fri, Mar 15, 2024' });
    expect(readAction('Nick will prepare the budget slides.', 'Ann', people, clock)).toMatchObject({ owner: 'Nick Williams', task: 'Prepare the budget slides' });
    expect(readAction('We will book the venue for the launch.', 'Ann', people, clock)).toMatchObject({ owner: 'Team', task: 'Book the venue for the launch' });
    expect(readAction("So we're all gonna go off and do our individual drawings.", 'Ann', people, clock)).toMatchObject({ owner: 'Team', task: "Do the team's individual drawings" });
    // "We need to…" is an opinion about what should happen, not a commitment.
    expect(readAction('We need to understand why that is the norm.', 'Ann', people, clock)).toBeUndefined();
  });

  it('chit-chat, speech and empty promises are no task', () => {
    expect(readAction("I'm going to tell you that's supposed to be a tiger.", 'Ann', people, clock)).toBeUndefined();
    expect(readAction("I'll do it.", 'Ann', people, clock)).toBeUndefined();
    expect(readAction("We'll send you a transcript following the meeting, but thank you very much.", 'Ann', people, clock)).toMatchObject({
      task: 'Send you a transcript following the meeting',
    });
    expect(readAction('Should we have lunch first?', 'Ann', people, clock)).toBeUndefined();
    expect(readAction('I think the design is great.', 'Ann', people, clock)).toBeUndefined();
    // Ability, not a request; the meeting's own procedure, not a task.
    expect(readAction("As long as it's self-intuitive and you can work out what everything's doing.", 'Ann', people, clock)).toBeUndefined();
    expect(readAction("Okay, so let's break it up there.", 'Ann', people, clock)).toBeUndefined();
  });

  it('"now" is no due date, and a meeting without a date gives none', () => {
    expect(readAction('I will send the slides now.', 'Ann', people, clock)?.due).toBeUndefined();
    expect(readAction('I will send the slides by Friday.', 'Ann', people, {})?.due).toBeUndefined();
  });
});
