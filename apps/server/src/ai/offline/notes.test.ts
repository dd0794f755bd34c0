import { describe, expect, it } from 'vitest';
import { wordCount } from './text.js';
import { thirdPerson, writeNote } from './notes.js';

describe('notes, not quotes', () => {
  it.each([
    ["Um, I'll send the the contract to Nick Williams by Friday, you know.", 'Lynne', 'Lynne will send the contract to Nick Williams by Friday.'],
    ['I think we should go with plastic because it is cheaper.', 'Project Manager', 'Project Manager thinks the group should go with plastic because it is cheaper.'],
    ["I'm not sure about the budget.", 'Ann', 'Ann is not sure about the budget.'],
    ["I don't know what my budget is.", 'Bo', "Bo doesn't know what Bo's budget is."],
    ['So, we decided that the price is 25 euros.', 'Marketing', 'The group decided that the price is 25 euros.'],
    ['We are going to use a kinetic battery.', 'Industrial Designer', 'The group is going to use a kinetic battery.'],
    ["Let's go with Lenovo for the laptops.", 'Ann', 'The group will go with Lenovo for the laptops.'],
    ['Are we allowed to change the colour?', 'Ben', 'Is the group allowed to change the colour?'],
  ])('%s → %s', (sentence, speaker, note) => {
    expect(writeNote(sentence, { speaker })).toBe(note);
  });

  it('keeps names in their case and leaves documents unattributed', () => {
    expect(writeNote('I met Nick Williams and Sian Gwenllian in Cardiff.')).toBe('I met Nick Williams and Sian Gwenllian in Cardiff.');
    expect(writeNote('I met Nick Williams in Cardiff.', { speaker: 'David Hopkins' })).toBe('David Hopkins met Nick Williams in Cardiff.');
  });

  it('cuts a long sentence at a clause boundary, within the note length', () => {
    const long =
      "I'm not sure we have the figures, and I've asked finance about them twice already but they haven't got back to me yet, so I'll chase them tomorrow and report at the next meeting on Monday.";
    const note = writeNote(long, { speaker: 'Ann' });
    expect(wordCount(note)).toBeLessThanOrEqual(25);
    expect(wordCount(note)).toBeGreaterThanOrEqual(8);
    expect(note).toMatch(/^Ann is not sure the group has the figures/);
    expect(note).toMatch(/[a-z]\.$/);
  });

  it('conjugates for a third-person subject', () => {
    expect(['think', 'go', 'try', 'fix', 'watch', 'have', 'play'].map(thirdPerson)).toEqual(['thinks', 'goes', 'tries', 'fixes', 'watches', 'has', 'plays']);
  });
});
