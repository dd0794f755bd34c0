import { describe, expect, it } from 'vitest';
import type { Mark } from './meeting.js';
import { isFilterActive, messageMatchesFilter, speakerOptions } from './message-filter.js';

const msg = (user: string, marks: Mark[] = [], comment = '') => ({ user, marks, comment });

describe('messageMatchesFilter (product.md, Validation)', () => {
  it('shows every message when nothing is chosen', () => {
    const filter = { speakers: [], marks: [] };
    expect(isFilterActive(filter)).toBe(false);
    expect(messageMatchesFilter(msg('Ana'), filter)).toBe(true);
    expect(messageMatchesFilter(msg('Bo', ['flagged'], 'x'), filter)).toBe(true);
  });

  it('matches on the speaker', () => {
    const filter = { speakers: ['Ana'], marks: [] };
    expect(messageMatchesFilter(msg('Ana'), filter)).toBe(true);
    expect(messageMatchesFilter(msg('Bo'), filter)).toBe(false);
    // Speaker names match exactly: a prefix is another person.
    expect(messageMatchesFilter(msg('Ana B'), filter)).toBe(false);
  });

  it('matches on any chosen mark', () => {
    const filter = { speakers: [], marks: ['important', 'flagged'] as Mark[] };
    expect(messageMatchesFilter(msg('Bo', ['flagged']), filter)).toBe(true);
    expect(messageMatchesFilter(msg('Bo', ['important', 'commented']), filter)).toBe(true);
    expect(messageMatchesFilter(msg('Bo', ['commented']), filter)).toBe(false);
    expect(messageMatchesFilter(msg('Bo'), filter)).toBe(false);
  });

  it('speaker or mark: either is enough', () => {
    const filter = { speakers: ['Ana'], marks: ['important'] as Mark[] };
    expect(messageMatchesFilter(msg('Ana'), filter)).toBe(true);
    expect(messageMatchesFilter(msg('Bo', ['important']), filter)).toBe(true);
    expect(messageMatchesFilter(msg('Bo', ['flagged']), filter)).toBe(false);
  });

  it("'commented' also matches a message with a comment but without the mark", () => {
    const filter = { speakers: [], marks: ['commented'] as Mark[] };
    expect(messageMatchesFilter(msg('Bo', [], 'check this'), filter)).toBe(true);
    expect(messageMatchesFilter(msg('Bo', ['commented']), filter)).toBe(true);
    expect(messageMatchesFilter(msg('Bo', [], '   '), filter)).toBe(false);
    // Other marks do not match on a comment.
    expect(messageMatchesFilter(msg('Bo', [], 'check this'), { speakers: [], marks: ['important'] })).toBe(false);
  });
});

describe('speakerOptions', () => {
  it('lists speakers once, in order of first line, with the first avatar and a line count', () => {
    const options = speakerOptions([
      { user: 'Bo', userAvatar: '' },
      { user: 'Ana', userAvatar: 'a.png' },
      { user: 'Bo', userAvatar: 'b.png' },
      { user: 'Bo', userAvatar: 'c.png' },
    ]);
    expect(options).toEqual([
      { user: 'Bo', avatar: 'b.png', count: 3 },
      { user: 'Ana', avatar: 'a.png', count: 1 },
    ]);
  });
});
