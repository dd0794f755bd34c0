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

  it('the meeting\'s own routine is no task (Bmr026, IS1006d, ES2006b)', () => {
    expect(readAction("Let's read digits and go.", 'Grad A', people, clock)).toBeUndefined();
    expect(readAction("We're all going to list all the criterion.", 'Marketing', people, clock)).toBeUndefined();
    expect(readAction("So let's vote.", 'Marketing', people, clock)).toBeUndefined();
    expect(readAction("I'm going to go to that next slide.", 'Marketing', people, clock)).toBeUndefined();
    expect(readAction('I will act as secretary for this meeting and take minutes.', 'Project Manager', people, clock)).toBeUndefined();
  });

  it('what "you" generally have to do and what is only supposed are no task (Bmr026)', () => {
    expect(readAction('And so you have to multiply everything by two or three.', 'PhD D', people, clock)).toBeUndefined();
    expect(readAction('It would be cool if we could get that to work at SRI.', 'PhD D', people, clock)).toBeUndefined();
  });

  it('the team\'s work after the meeting is a task: a deliverable, a date, "later", or leaving to do it (Bmr026, ES2009a)', () => {
    // The words a task cannot end on go ("…see what they think and").
    expect(readAction("Let's chat about it with Liz and Jane when we get a chance, see what they think and", 'Professor B', people, clock)).toMatchObject({
      owner: 'Team',
      task: 'Chat about it with Liz and Jane when the team gets a chance',
    });
    expect(readAction("We'll have to come up with a name.", 'Industrial Designer', people, clock)).toMatchObject({ owner: 'Team', task: 'Come up with a name' });
    // Speech to someone who is not listening is work.
    expect(readAction("Let's ask people who are users of remote controls how they feel about them.", 'Marketing', people, clock)).toMatchObject({
      task: 'Ask people who are users of remote controls how they feel about them',
    });
  });

  it('the task of "what I\'ll do is…" and "I\'m going to try to…" is what follows (Bro011, Bmr012)', () => {
    expect(readAction("The next experiment I'm gonna try is to create models that seem to be more matched to my guess.", 'PhD B', people, clock)).toMatchObject({
      owner: 'PhD B',
      task: "Create models that seem to be more matched to PhD B's guess",
    });
    expect(readAction("What I'm gonna try to do is use echo cancellation to handle the periods where you have overlapping talk.", 'Grad J', people, clock)).toMatchObject({
      task: 'Use echo cancellation to handle the periods where you have overlapping talk',
    });
  });

  it('work suggested is read only when asked for, unassigned; "could" marks it tentative (IS1006b, Bmr012)', () => {
    expect(readAction('I think we should aim at the young people.', 'Marketing', people, clock)).toBeUndefined();
    expect(readAction('I think we should aim at the young people.', 'Marketing', people, clock, { suggested: true })).toEqual({
      owner: 'Unassigned',
      task: 'Aim at the young people',
      due: undefined,
      addressed: false,
    });
    expect(readAction('Could we carry out some research on how many people need to go to channel twenty five?', 'Marketing', people, clock, { suggested: true })).toMatchObject({
      owner: 'Unassigned',
      task: 'Carry out some research on how many people need to go to channel twenty five',
      tentative: true,
    });
    // Commitments are read as commitments, not as suggestions.
    expect(readAction("I'll send the slides.", 'Ann', people, clock, { suggested: true })).toBeUndefined();
  });

  it('"now" and "in a second" are no due date, and a meeting without a date gives none', () => {
    expect(readAction('I will send the slides now.', 'Ann', people, clock)?.due).toBeUndefined();
    // ES2009b: the meeting's own day is no deadline.
    expect(readAction("I'll put them in the shared folder in a second for later reference.", 'Ann', people, clock)?.due).toBeUndefined();
    expect(readAction('I will send the slides by Friday.', 'Ann', people, {})?.due).toBeUndefined();
  });
});
