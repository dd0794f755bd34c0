import { describe, expect, it } from 'vitest';
import { answerToSafeHtml, sanitizeSummaryHtml } from './sanitize.js';

describe('sanitising summary HTML', () => {
  it('strips scripts, event handlers and javascript: links', () => {
    const dirty =
      '<p onclick="x()" onmouseover="y()">Hi</p><script>alert(1)</script><img src="x" onerror="alert(2)">' +
      '<a href="javascript:alert(3)">bad</a><a href="JaVaScRiPt:alert(4)">bad2</a><a href="data:text/html,x">d</a>' +
      '<iframe src="https://evil.example"></iframe><style>p{}</style><svg onload="z()"></svg>';
    const clean = sanitizeSummaryHtml(dirty);
    expect(clean).not.toMatch(/script|onclick|onmouseover|onerror|onload|javascript:|data:|iframe|<style|<svg|<img/i);
    expect(clean).toContain('<p>Hi</p>');
  });

  it('keeps the formatting summaries use and safe links', () => {
    const html = '<h3>Topic</h3><ul><li><b>Ann:</b> <i>ok</i></li></ul><ol start="2"><li>x</li></ol><p>a<br>b</p>';
    expect(sanitizeSummaryHtml(html)).toBe(html);
    expect(sanitizeSummaryHtml('<a href="https://example.org/x">x</a>')).toBe(
      '<a href="https://example.org/x" rel="noopener noreferrer nofollow" target="_blank">x</a>',
    );
  });

  it('applies the output rules before sanitising an LLM answer', () => {
    expect(answerToSafeHtml('Line one\nx < y and y > z')).toBe('Line one<br>x &lt; y and y &gt; z');
    expect(answerToSafeHtml('```html\n<p>A</p><br><br><ul><br><li>B</li></ul>\n```')).toBe('<p>A</p><br><ul><li>B</li></ul>');
  });

  it('renders a Markdown answer as HTML, and keeps plain prose to the line-break rule', () => {
    const markdown = '### Decisions\n- Ship on **Friday**\n- Budget: 4000 euros\n\n1. Ana drafts the plan';
    expect(answerToSafeHtml(markdown)).toBe(
      '<h3>Decisions</h3>\n<ul>\n<li>Ship on <strong>Friday</strong></li>\n<li>Budget: 4000 euros</li>\n</ul>\n<ol>\n<li>Ana drafts the plan</li>\n</ol>',
    );
    expect(answerToSafeHtml('- [x](javascript:alert(1))\n- **y** <b onclick="y()">bold</b>')).not.toMatch(/href="javascript|onclick/);
    const links = answerToSafeHtml('- [x](javascript:alert(1))\n- [ok](https://example.org)');
    expect(links).not.toContain('javascript');
    expect(links).toContain('<a href="https://example.org"');
    expect(answerToSafeHtml('We agreed - more or less - on Friday.\nThanks')).toBe('We agreed - more or less - on Friday.<br>Thanks');
  });

  it('keeps the citation and unsupported marks of the contract, exactly', () => {
    const marks =
      '<ul><li>Ship on Friday<sup class="cite" data-cite="1,3">[1, 3]</sup>' +
      '<small class="unsupported" data-missing="Bob; 25 euros">not found in the transcript</small></li></ul>';
    expect(sanitizeSummaryHtml(marks)).toBe(marks);
    // Forged or loose variants lose their class and data (the text stays, as a plain sup or small).
    expect(sanitizeSummaryHtml('<sup class="cite" data-cite="1,x">[1]</sup>')).toBe('<sup>[1]</sup>');
    expect(sanitizeSummaryHtml('<sup class="cite" data-cite="12345">[1]</sup>')).toBe('<sup>[1]</sup>');
    expect(sanitizeSummaryHtml('<sup class="cite evil" data-cite="1">[1]</sup>')).toBe('<sup>[1]</sup>');
    expect(sanitizeSummaryHtml('<sup data-cite="1">[1]</sup>')).toBe('<sup>[1]</sup>');
    expect(sanitizeSummaryHtml('<sup class="cite">[1]</sup>')).toBe('<sup>[1]</sup>');
    expect(sanitizeSummaryHtml('<sup class="cite" data-cite="1" data-x="y" style="color:red" onclick="x()">[1]</sup>')).toBe(
      '<sup class="cite" data-cite="1">[1]</sup>',
    );
    expect(sanitizeSummaryHtml('<small class="note" data-missing="x">y</small>')).toBe('<small>y</small>');
    expect(sanitizeSummaryHtml('<small data-missing="x">y</small>')).toBe('<small>y</small>');
    expect(sanitizeSummaryHtml('<small class="unsupported" data-missing="&quot;><script>x()</script>">z</small>')).toBe(
      '<small class="unsupported" data-missing="&quot;&gt;&lt;script&gt;x()&lt;/script&gt;">z</small>',
    );
    // No other element takes a class or data attribute.
    expect(sanitizeSummaryHtml('<p class="cite" data-cite="1">a</p><span class="unsupported" data-missing="x">b</span>')).toBe(
      '<p>a</p><span>b</span>',
    );
    expect(sanitizeSummaryHtml(`<small class="unsupported" data-missing="${'x'.repeat(400)}">z</small>`)).toBe(
      `<small class="unsupported" data-missing="${'x'.repeat(300)}">z</small>`,
    );
  });
});
