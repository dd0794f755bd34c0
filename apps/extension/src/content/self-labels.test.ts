import { describe, expect, it } from 'vitest';
import { SELF_LABELS_BY_LANGUAGE, isSelfLabel } from './self-labels.js';

describe('self labels', () => {
  it.each([
    ['en', 'You'],
    ['de', 'Sie'],
    ['fr', 'Vous'],
    ['es', 'Tú'],
    ['it', 'Tu'],
    ['pt', 'Você'],
    ['ru', 'Вы'],
    ['uk', 'Ви'],
    ['pl', 'Ty'],
    ['cs', 'Vy'],
    ['hu', 'Te'],
    ['nl', 'Jij'],
    ['sv', 'Du'],
    ['tr', 'Sen'],
    ['id', 'Anda'],
    ['vi', 'Bạn'],
    ['el', 'Εσύ'],
    ['he', 'אתה'],
    ['ar', 'أنت'],
    ['hi', 'आप'],
    ['zh-CN', '你'],
    ['ja', 'あなた'],
    ['ko', '나'],
  ])('knows the %s label %s', (language, label) => {
    expect(SELF_LABELS_BY_LANGUAGE[language]).toContain(label);
    expect(isSelfLabel(label)).toBe(true);
  });

  it('ignores case, Unicode form, spacing and a trailing note such as "(presenting)"', () => {
    expect(isSelfLabel(' you ')).toBe(true);
    expect(isSelfLabel('SIE')).toBe(true);
    expect(isSelfLabel('Tu\u0301'.normalize('NFD'))).toBe(true);
    expect(isSelfLabel('You (presenting)')).toBe(true);
  });

  it('does not take names, first-person words or empty labels for the user', () => {
    for (const label of ['', 'Alice Example', 'Ben', 'Mina', 'Nina', 'Ich', 'Youssef', 'Sieglinde']) {
      expect(isSelfLabel(label)).toBe(false);
    }
  });

  it('covers the languages Meet ships, each with at least one label', () => {
    expect(Object.keys(SELF_LABELS_BY_LANGUAGE).length).toBeGreaterThanOrEqual(70);
    expect(Object.values(SELF_LABELS_BY_LANGUAGE).every((labels) => labels.length > 0)).toBe(true);
  });
});
