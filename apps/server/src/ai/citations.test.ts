import { describe, expect, it } from 'vitest';
import { citedNumbers, citeLlmAnswer, keepKnownMarkers, markerNumbers, protectMarks } from './citations.js';
import { citationElement } from './minutes.js';

const transcript = [
  { speaker: 'Lynne', text: 'Welcome everyone, let us talk about the remote.' },
  { speaker: 'Marketing', text: 'The remote should cost twenty five euros.' },
  { speaker: 'Lynne', text: 'Agreed. Dave, please send the plan by Friday.' },
  { speaker: 'Dave', text: 'I will send it on Friday, and the budget is 4 million.' },
];
/** Every line was sent, in order: line p is transcript index p - 1. */
const sent = [0, 1, 2, 3];

describe('markers of an LLM answer become citation elements', () => {
  it('reads single numbers, lists and ranges', () => {
    expect(markerNumbers('[3]')).toEqual([3]);
    expect(markerNumbers(' [3, 5]')).toEqual([3, 5]);
    expect(markerNumbers('[2-4]')).toEqual([2, 3, 4]);
    expect(markerNumbers('[3][5]')).toEqual([3, 5]);
    // A wide range is its two ends, not every line between.
    expect(markerNumbers('[1-400]')).toEqual([1, 400]);
  });

  it('numbers citations in order of first use and maps them to transcript lines', async () => {
    const cited = await citeLlmAnswer('<ul><li>The price is 25 euros [2].</li><li>Dave sends the plan by Friday [3][4].</li><li>The price again [2]</li></ul>', {
      transcript,
      sent,
    });
    expect(cited.lines).toEqual([1, 2, 3]);
    expect(cited.html).toBe(
      `<ul><li>The price is 25 euros${citationElement([1])}.</li><li>Dave sends the plan by Friday${citationElement([2, 3])}.</li><li>The price again${citationElement([1])}</li></ul>`,
    );
  });

  it('maps through the lines actually sent (empty lines are not numbered)', async () => {
    // Lines 0 and 2 were left out: the model's [1] is transcript line 1, its [2] line 3.
    const cited = await citeLlmAnswer('<p>Budget: 4 million [2].</p>', { transcript, sent: [1, 3] });
    expect(cited.lines).toEqual([3]);
    expect(cited.html).toBe(`<p>Budget: 4 million${citationElement([1])}.</p>`);
  });

  it('drops numbers outside the lines sent, and a marker left with none', async () => {
    const cited = await citeLlmAnswer('<p>The remote costs 25 euros [2, 9] and more [0][77].</p>', { transcript, sent });
    expect(cited.lines).toEqual([1]);
    expect(cited.html).toBe(`<p>The remote costs 25 euros${citationElement([1])} and more.</p>`);
  });

  it('treats citation elements the model wrote as markers, and drops its unsupported marks', async () => {
    const forged =
      '<p>Cost is 25 euros<sup class="cite" data-cite="2">[2]</sup><sup class="cite" data-cite="1">[9]</sup>' +
      '<small class="unsupported" data-missing="x">not found in the transcript</small></p>';
    const cited = await citeLlmAnswer(forged, { transcript, sent });
    expect(cited.lines).toEqual([1]);
    expect(cited.html).toBe(`<p>Cost is 25 euros${citationElement([1])}</p>`);
  });

  it('leaves documents without citations', async () => {
    const cited = await citeLlmAnswer('<p>An article [2] says <sup class="cite" data-cite="1">[1]</sup>.</p>');
    expect(cited).toEqual({ html: '<p>An article [2] says [1].</p>', lines: [] });
  });
});

describe('each point is checked against its cited lines', () => {
  const check = (html: string) => citeLlmAnswer(html, { transcript, sent });

  it('passes points whose names, numbers and dates its lines hold (numbers in words or digits)', async () => {
    const cited = await check(
      '<ul><li><b>Marketing:</b> the remote should cost 25 euros [2]</li><li>Dave will send the plan by Friday [3, 4]</li>' +
        '<li>The budget is four million [4]</li><li>Lynne welcomed everyone [1]</li></ul>',
    );
    expect(cited.html).not.toContain('unsupported');
  });

  it('marks a point with an owner, number or date its lines do not hold, naming what is missing', async () => {
    const cited = await check(
      '<ul><li>Priya will send the plan by Friday [3]</li><li>The remote should cost 35 euros [2]</li>' +
        '<li>Dave sends it by Tuesday [4]</li><li>Dave sends it on Friday [2]</li></ul>',
    );
    const marks = [...cited.html.matchAll(/<small class="unsupported" data-missing="([^"]*)">not found in the transcript<\/small><\/li>/g)].map(
      (m) => m[1],
    );
    // The last point's Friday and Dave are in other lines than the one it cites.
    expect(marks).toEqual(['Priya', '35 euros', 'Tuesday', 'Friday']);
  });

  it("takes participants' names as evidence, and checks a point citing nothing against every line", async () => {
    const cited = await check('<p>Dave agreed with Lynne [2].</p><p>The budget is 4 million.</p><p>The budget is 7 million.</p>');
    expect(cited.html).toBe(
      `<p>Dave agreed with Lynne${citationElement([1])}.</p><p>The budget is 4 million.</p>` +
        '<p>The budget is 7 million.<small class="unsupported" data-missing="7 million">not found in the transcript</small></p>',
    );
  });

  it('puts the mark at the end of a list item, before its nested list, and on loose lines', async () => {
    const cited = await check('<ul><li>Priya decides [1]<ul><li>Lynne welcomed everyone [1]</li></ul></li></ul>Kwame said so<br>Fine');
    expect(cited.html).toBe(
      `<ul><li>Priya decides${citationElement([1])}<small class="unsupported" data-missing="Priya">not found in the transcript</small>` +
        `<ul><li>Lynne welcomed everyone${citationElement([1])}</li></ul></li></ul>` +
        'Kwame said so<small class="unsupported" data-missing="Kwame">not found in the transcript</small><br>Fine',
    );
  });

  it('takes a capitalised first word the lexicon knows for a word, unless it is a first name or a name follows', async () => {
    const cited = await check(
      '<ul><li>Budget: 25 euros [2]</li><li>Team agreed on the price [2]</li><li>Decision: ship it [2]</li>' +
        '<li>Sarah Connor will call [1]</li><li>Then Bob calls [1]</li><li>Grace will call [1]</li><li>Action: Mark sends it [1]</li></ul>',
    );
    const missing = [...cited.html.matchAll(/data-missing="([^"]*)"/g)].map((m) => m[1]);
    expect(missing).toEqual(['Sarah Connor', 'Bob', 'Grace', 'Mark']);
  });
});

describe('translations keep the marks', () => {
  it('sends marks as placeholders and restores them; dropped ones are lost, invented ones removed', async () => {
    const html = `<p>Cost 25 euros${citationElement([1, 2])}<small class="unsupported" data-missing="Bob">not found in the transcript</small></p><p>Next${citationElement([3])}</p>`;
    const { html: sent, restore } = await protectMarks(html);
    expect(sent).toBe('<p>Cost 25 euros[[m1]][[m2]]</p><p>Next[[m3]]</p>');
    expect(restore('<p>Coût 25 euros[[m1]][[m2]]</p><p>Ensuite [[m9]]</p>')).toBe(
      `<p>Coût 25 euros${citationElement([1, 2])}<small class="unsupported" data-missing="Bob">not found in the transcript</small></p><p>Ensuite </p>`,
    );
  });

  it('sends HTML without marks as it is', async () => {
    const { html, restore } = await protectMarks('<p>Hello</p>');
    expect(html).toBe('<p>Hello</p>');
    expect(restore('<p>Bonjour</p>')).toBe('<p>Bonjour</p>');
  });
});

describe('markers of a plain-text answer (Ask)', () => {
  it('lists the numbers cited in order of first use, ranges expanded', () => {
    expect(citedNumbers('Raised to $30 [4], annual kept [2][4]; see also [5-7] and [3, 1].')).toEqual([4, 2, 5, 6, 7, 3, 1]);
    // An unfinished marker (an answer still streaming) is not a citation yet.
    expect(citedNumbers('Raised to $30 [4')).toEqual([]);
  });

  it('keeps the numbers the request gave and drops the rest, with the space before a marker left empty', () => {
    const known = (n: number) => n <= 4;
    expect(keepKnownMarkers('Raised to $30 [4], the rest [99]. Both [2][7], ranges [3-5].', known)).toBe('Raised to $30 [4], the rest. Both [2], ranges [3, 4].');
  });
});
