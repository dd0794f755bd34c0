import { describe, expect, it } from 'vitest';
import { CITE_ATTRIBUTE, renderMinutes } from './minutes.js';

describe('renderMinutes', () => {
  it('numbers citations in order of first use and escapes text', () => {
    const { html, lines } = renderMinutes({
      blocks: [
        { kind: 'heading', text: 'Price & material' },
        { kind: 'paragraph', item: { text: 'Overview <b>', lines: [7] } },
        {
          kind: 'list',
          items: [
            { lead: 'Lynne', text: 'Lynne will send the contract.', lines: [12, 7] },
            { text: 'No source.', lines: [] },
          ],
        },
      ],
    });
    expect(lines).toEqual([7, 12]);
    expect(html).toBe(
      '<h3>Price &amp; material</h3><p>Overview &lt;b&gt;<sup class="cite" data-cite="1">[1]</sup></p>' +
        '<ul><li><b>Lynne:</b> Lynne will send the contract.<sup class="cite" data-cite="1,2">[1, 2]</sup></li><li>No source.</li></ul>',
    );
    expect(CITE_ATTRIBUTE.test('1,2')).toBe(true);
  });

  it('leaves citations out when asked', () => {
    const { html, lines } = renderMinutes({ blocks: [{ kind: 'paragraph', item: { text: 'A point.', lines: [1] } }] }, { cite: false });
    expect(html).toBe('<p>A point.</p>');
    expect(lines).toEqual([]);
  });
});
