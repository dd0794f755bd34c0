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
      owner: '',
      task: 'Check the warranty terms with Lenovo',
      due: 'Tue, Mar 12, 2024',
      addressed: true,
    });
    expect(readAction('Nick will prepare the budget slides.', 'Ann', people, clock)).toMatchObject({ owner: 'Nick Williams', task: 'Prepare the budget slides' });
    expect(readAction('We need to book the venue for the launch.', 'Ann', people, clock)).toMatchObject({ owner: 'Team', task: 'Book the venue for the launch' });
  });

  it('chit-chat, speech and empty promises are no task', () => {
    expect(readAction("I'm going to tell you that's supposed to be a tiger.", 'Ann', people, clock)).toBeUndefined();
    expect(readAction("I'll do it.", 'Ann', people, clock)).toBeUndefined();
    expect(readAction('Should we have lunch first?', 'Ann', people, clock)).toBeUndefined();
    expect(readAction('I think the design is great.', 'Ann', people, clock)).toBeUndefined();
  });

  it('"now" is no due date, and a meeting without a date gives none', () => {
    expect(readAction('I will send the slides now.', 'Ann', people, clock)?.due).toBeUndefined();
    expect(readAction('I will send the slides by Friday.', 'Ann', people, {})?.due).toBeUndefined();
  });
});
