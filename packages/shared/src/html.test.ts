import { describe, expect, it } from 'vitest';
import { formatSummaryAnswer, looksLikeHtml, normalizeSummaryHtml, summaryTextToHtml } from './html.js';

describe('summary HTML rules', () => {
  it('turns plain-text line breaks into <br> and escapes markup characters', () => {
    expect(summaryTextToHtml('First line\nSecond & third\r\nx < y')).toBe('First line<br>Second &amp; third<br>x &lt; y');
  });

  it('collapses consecutive duplicate breaks', () => {
    expect(normalizeSummaryHtml('<p>a</p><br><br/>\n<br />b')).toBe('<p>a</p><br>b');
    expect(normalizeSummaryHtml('a<br>b<br>c')).toBe('a<br>b<br>c');
  });

  it('removes breaks inside lists, keeping words apart', () => {
    expect(normalizeSummaryHtml('<ul><br><li>one</li><br><li>two<br>lines</li></ul><br>after')).toBe(
      '<ul><li>one</li><li>two lines</li></ul><br>after',
    );
    expect(normalizeSummaryHtml('<ol><li>a<ul><li>b</li><br></ul></li><br></ol>')).toBe('<ol><li>a<ul><li>b</li></ul></li></ol>');
  });

  it('picks the rule by the kind of answer', () => {
    expect(looksLikeHtml('a < b and c > d')).toBe(false);
    expect(looksLikeHtml('<p>x</p>')).toBe(true);
    expect(formatSummaryAnswer('one\ntwo')).toBe('one<br>two');
    expect(formatSummaryAnswer('<p>one</p><br><br><p>two</p>')).toBe('<p>one</p><br><p>two</p>');
  });
});
