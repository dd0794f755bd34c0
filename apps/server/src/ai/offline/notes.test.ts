import { describe, expect, it } from 'vitest';
import { cleanTurnText, wordCount } from './text.js';
import { shortName, thirdPerson, writeNote } from './notes.js';

describe('notes, not quotes', () => {
  it.each([
    ["Um, I'll send the the contract to Nick Williams by Friday, you know.", 'Lynne', 'Lynne will send the contract to Nick Williams by Friday.'],
    ['I think we should go with plastic because it is cheaper.', 'Project Manager', 'Project Manager thinks the team should go with plastic because it is cheaper.'],
    ["I'm not sure about the budget.", 'Ann', 'Ann is not sure about the budget.'],
    ["I don't know what my budget is.", 'Bo', "Bo doesn't know what Bo's budget is."],
    ['So, we decided that the price is 25 euros.', 'Marketing', 'The team decided that the price is 25 euros.'],
    ['We are going to use a kinetic battery.', 'Industrial Designer', 'The team is going to use a kinetic battery.'],
    ["Let's go with Lenovo for the laptops.", 'Ann', 'The team will go with Lenovo for the laptops.'],
    ['Are we allowed to change the colour?', 'Ben', 'Is the team allowed to change the colour?'],
    // A false start ("are we — we're") is dropped, and the contraction agrees with "the team".
    ["Are we {disfmarker} we're not allowed to dim the lights?", 'Project Manager', 'The team is not allowed to dim the lights?'],
    ["Uh we'll discuss our own ideas and we're gonna put it into practice.", 'Sarah', "The team will discuss the team's own ideas and the team is going to put it into practice."],
    ["Yeah, um production cost's at twelve fifty, so", 'Project Manager', "Production cost's at twelve fifty."],
    ["I'll send the contract.", 'Lynne', 'Lynne will send the contract.'],
    ["We've got a selling price at twenty five Euros.", 'Project Manager', 'The team has got a selling price at twenty five Euros.'],
    // An answer word before a comma opens the sentence; "no" answers something and stays.
    ["Yeah, we'll yeah, use the kinetic battery.", 'Project Manager', 'The team will use the kinetic battery.'],
    // A hedge between "let's" and its verb leaves no comma behind (Bmr026).
    ["Let 's , you know , try RASTA and MSG , and {disfmarker}", 'Grad A', 'The team will try RASTA and MSG.'],
    // A statement closed by a tag question (ES2006c).
    ['Hand dynamos are definitely out, right?', 'Industrial Designer', 'Hand dynamos are definitely out.'],
  ])('%s → %s', (sentence, speaker, note) => {
    expect(writeNote(cleanTurnText(sentence), { speaker })).toBe(note);
  });

  it('keeps names in their case and leaves documents unattributed', () => {
    expect(writeNote('I met Nick Williams and Sian Gwenllian in Cardiff.')).toBe('I met Nick Williams and Sian Gwenllian in Cardiff.');
    expect(writeNote('I met Nick Williams in Cardiff.', { speaker: 'David Hopkins' })).toBe('David Hopkins met Nick Williams in Cardiff.');
    // A name with an apposition is the subject, not someone addressed.
    expect(writeNote('David Hopkins, the director of education, told the committee that exclusions had risen.')).toBe(
      'David Hopkins, the director of education, told the committee that exclusions had risen.',
    );
    expect(writeNote('Ben, can you check the warranty terms?', { speaker: 'Ann' })).toBe('Can you check the warranty terms?');
    expect(writeNote('Mr. Chair, the priority was getting money out to Canadians as quickly as possible.')).toBe(
      'The priority was getting money out to Canadians as quickly as possible.',
    );
    expect(writeNote("It's a yes-or-no question, Mr. Chair.")).toBe("It's a yes-or-no question.");
  });

  it('cuts a long sentence at a clause boundary, within the note length', () => {
    const long =
      "I'm not sure we have the figures, and I've asked finance about them twice already but they haven't got back to me yet, so I'll chase them tomorrow and report at the next meeting on Monday.";
    const note = writeNote(long, { speaker: 'Ann' });
    expect(wordCount(note)).toBeLessThanOrEqual(25);
    expect(wordCount(note)).toBeGreaterThanOrEqual(8);
    expect(note).toMatch(/^Ann is not sure the team has the figures/);
    expect(note).toMatch(/[a-z]\.$/);
  });

  it('never cuts inside a hyphenated word', () => {
    const note = writeNote(
      "We're here to have a kick-off meeting for the design of a new project, a remote control for the design of a new remote control for the whole market.",
      { speaker: 'Christa' },
    );
    expect(note).toBe('The team is here to have a kick-off meeting for the design of a new project.');
  });

  it('cleans stutters and marked false starts from a transcript line', () => {
    expect(cleanTurnText("I mean I've got {disfmarker} we got um {disfmarker} we had three videos , a T_V_ and an amp")).toBe(
      'we had three videos, a TV and an amp',
    );
    expect(cleanTurnText('it should be wire wireless , with a b basic cont control')).toBe('it should be wireless, with a basic control');
    // Short real words before longer ones stay ("in inside", "the theory" are no stutters).
    expect(cleanTurnText('put it in inside, as the theory says')).toBe('put it in inside, as the theory says');
  });

  it('drops a marked false start up to the restart: a subject, the same first word again, or a new sentence', () => {
    // Bmr026: two broken starts before the sentence that is said whole.
    expect(cleanTurnText("So is that {disfmarker} Because there 's some people um {disfmarker} It would be cool if we could uh get that to work uh at {disfmarker} at SRI")).toBe(
      'It would be cool if we could get that to work at SRI',
    );
    // ES2009b: "let's" said again.
    expect(cleanTurnText("Um {disfmarker} And we 'll yeah tha let 's provisionally {disfmarker} let 's go for a touch screen one")).toBe(
      "And let's go for a touch screen one",
    );
    // ES2004a: only the clause after the conjunction is broken; a capital opens a new sentence.
    expect(cleanTurnText("It 's your best friend and your {disfmarker} you can talk to a dog")).toBe("It's your best friend and you can talk to a dog");
    expect(cleanTurnText("That was quite good , the fact that you could {disfmarker} You didn't have six remote controls")).toBe(
      "That was quite good. You didn't have six remote controls",
    );
    // Bmr026: where the broken sentence is too long to drop, the new one still starts after a full stop.
    expect(cleanTurnText("So that should have ma many fewer {disfmarker} And it 's also not uh a bunch of interruptions with people and all that ,")).toBe(
      "So that should have many fewer. And it's also not a bunch of interruptions with people and all that,",
    );
    // Bmr026: the repair says again a word just before the break.
    expect(cleanTurnText('Maybe we can put some disks in the {disfmarker} in that back room there .')).toBe('Maybe we can put some disks in that back room there.');
  });

  it.each([
    // Cut-off words and their repairs (Bmr026, TS3010c).
    ["The only oth thing other thing I was gonna add was that I talked briefly to Mari.", 'Professor B', 'The only other thing Professor B was going to add was that Professor B talked briefly to Mari.'],
    ['We had littl this little demo meeting.', 'Professor B', 'The team had this little demo meeting.'],
    ['It will be the advanced chip, or the regu or the regular chip.', 'Industrial Designer', 'It will be the advanced chip, or the regular chip.'],
    // Clauses restarted with the same subject before they said anything (ES2009a, ES2009b, ES2006a).
    ['I th I assume that can be done.', 'User Interface', 'User Interface assumes that can be done.'],
    ["We'll tha let's go for a touch screen one with several submenus.", 'Project Manager', 'The team will go for a touch screen one with several submenus.'],
    ['We can aim for we can think about all these little things.', 'Industrial Designer', 'The team can think about all these little things.'],
    // A first clause that names something, or a conjunction, is no restart.
    ['I told him I would send the slides.', 'Ann', 'Ann told him Ann would send the slides.'],
    ['We can do it if we can get the funding.', 'Ann', 'The team can do it if the team can get the funding.'],
  ])('false start out: %s', (sentence, speaker, note) => {
    expect(writeNote(cleanTurnText(sentence), { speaker })).toBe(note);
  });

  it('conjugates for a third-person subject', () => {
    expect(['think', 'go', 'try', 'fix', 'watch', 'have', 'play'].map(thirdPerson)).toEqual(['thinks', 'goes', 'tries', 'fixes', 'watches', 'has', 'plays']);
  });
});

describe('speaker names inside a sentence', () => {
  it.each([
    ['Hon. Mary Ng (Markham—Thornhill, Lib.)', 'Hon. Mary Ng'],
    ['The Chair (Hon. Anthony Rota (Nipissing—Timiskaming, Lib.))', 'The Chair'],
    ['Lynne Neagle AM', 'Lynne Neagle AM'],
    ['(unknown)', '(unknown)'],
  ])('names %s as %s', (speaker, named) => {
    expect(shortName(speaker)).toBe(named);
  });
});
