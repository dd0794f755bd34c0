import { describe, expect, it } from 'vitest';
import { DEFAULT_SUMMARY_SETTINGS } from '@mbox/shared';
import type { MinutesItem } from '../minutes.js';
import { offlineMinutes } from './engine.js';

/** Key decisions of a few transcript lines (QMSum's meetings, as their transcripts spell them). */
function decisions(lines: readonly (readonly [string, string])[]): MinutesItem[] {
  const transcript = lines.map(([speaker, text]) => ({ speaker, text }));
  return offlineMinutes({ transcript, promptKey: 'decision', settings: DEFAULT_SUMMARY_SETTINGS }).blocks.flatMap((b) => (b.kind === 'list' ? b.items : []));
}
const said = (items: readonly MinutesItem[]) => items.map((i) => `${i.lead}: ${i.text}`);

describe('Key decisions: what was agreed or decided, with who decided', () => {
  it('a decision said as such is written from its own clause, the talk before it left out (Bmr026)', () => {
    const items = decisions([
      [
        'Professor B',
        "The only oth thing {disfmarker} other thing I was gonna add was that um {disfmarker} uh , I talked briefly to Mari and uh we had both been busy with other things so we haven't really connected that much since the last meeting we had here but we agreed that we would have a telephone meeting the Friday after next .",
      ],
      ['PhD D', 'OK .'],
    ]);
    expect(said(items)).toEqual(['Professor B, agreed by PhD D: The team agreed that the team would have a telephone meeting the Friday after next.']);
  });

  it('choices stated as made: "we\'re going with…", "… are definitely out" (ES2006c)', () => {
    const items = decisions([
      ['Industrial Designer', 'hand dynamos are definitely out , right ? You you got a wind {gap} dynamo , yeah .'],
      ['Project Manager', 'Yeah ,'],
      ['User Interface', 'Yeah uh-hum yeah .'],
      ['Project Manager', "Yeah . We're on our way . Okay . So we've basically worked out that we're going with a simple battery , the advanced chip"],
      ['Industrial Designer', 'Right .'],
    ]);
    expect(said(items)).toEqual([
      'Industrial Designer, agreed by Project Manager and User Interface: Hand dynamos are definitely out.',
      'Project Manager, agreed by Industrial Designer: The team has worked out that the team is going with a simple battery, the advanced chip.',
    ]);
  });

  it('a proposal asked as a question and accepted is written as the proposal (Bmr012)', () => {
    const items = decisions([
      ['Grad E', "So why don't we get one of these with the crown with a different headset ?"],
      ['Professor B', 'Yeah .'],
    ]);
    expect(said(items)).toEqual(['Grad E, agreed by Professor B: The team will get one of these with the crown with a different headset.']);
  });

  it('what only might be done is decided when taken up by more than a "yeah" (Bmr026)', () => {
    const proposal = ['PhD D', 'Maybe we can put some disks in the {disfmarker} in that back room there .'] as const;
    expect(decisions([proposal, ['Grad A', 'Yeah .']])).toEqual([]);
    expect(said(decisions([proposal, ['Grad A', "Yeah , that's a good idea ."]]))).toEqual([
      'PhD D, agreed by Grad A: Maybe the team can put some disks in that back room there.',
    ]);
  });

  it('never a supposition, a description, a reference to a decision, a broken line or a question (Bmr026, Bmr012, Bmr005, IS1006d, Bed015)', () => {
    const items = decisions([
      ['PhD F', 'I sent that message out to you and Dave asking for if we could get some disk .'],
      ['Professor B', 'Yeah .'],
      ['PhD C', 'This would be like if you take the words .'],
      ['Grad E', 'Right .'],
      ['Professor E', "I 'm sort of remembering a little bit about what we decided ."],
      ['PhD C', 'Right .'],
      ['User Interface', 'Yeah , and we can just {gap} some strawberry first . Um {disfmarker}'],
      ['Industrial Designer', 'Yeah , sure .'],
      ['Professor C', 'How about this case ?'],
      ['Grad F', 'Yeah , definitely .'],
      ['Grad E', "There 's lots of different attitudes that the speaker could have and that we can clearly identify ."],
      ['Grad F', 'Yes , exactly .'],
    ]);
    expect(said(items)).toEqual([]);
  });

  it('an amount set is a decision, an amount supposed is not (ES2004a, ES2006b)', () => {
    const items = decisions([
      ['Project Manager', "Finance-wise , we've got a selling price at twenty five Euros , which I don't actually know what that is in Pounds , at all ."],
      ['Marketing', "If we 're talking twenty five Euros as a price , we have to be careful ."],
    ]);
    expect(said(items)).toEqual(['Project Manager: The team has got a selling price at twenty five Euros.']);
  });
});
