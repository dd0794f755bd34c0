import { describe, expect, it } from 'vitest';
import { participantBadges, truncateBadgeName, uniqueParticipants } from './participants.js';

describe('truncateBadgeName', () => {
  it('keeps names up to 20 characters and cuts longer ones with ...', () => {
    expect(truncateBadgeName('Ann')).toBe('Ann');
    expect(truncateBadgeName('a'.repeat(20))).toBe('a'.repeat(20));
    expect(truncateBadgeName('Alexandria Montgomery-Smith')).toBe('Alexandria Montgomer...');
  });
  it('counts characters, not UTF-16 units', () => {
    expect(truncateBadgeName('😀'.repeat(21))).toBe(`${'😀'.repeat(20)}...`);
  });
});

describe('uniqueParticipants', () => {
  it('drops duplicates and blanks, keeping first-seen order', () => {
    expect(uniqueParticipants(['Bob', 'Ann', ' Bob ', '', 'Ann'])).toEqual(['Bob', 'Ann']);
  });
});

describe('participantBadges', () => {
  it('shows up to 5 badges and collapses the rest into +N', () => {
    const names = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'A'];
    expect(participantBadges(names)).toEqual({ shown: ['A', 'B', 'C', 'D', 'E'], hidden: ['F', 'G'], more: '+2' });
  });
  it('has no +N when everyone fits', () => {
    expect(participantBadges(['A', 'B'])).toEqual({ shown: ['A', 'B'], hidden: [], more: null });
    expect(participantBadges([])).toEqual({ shown: [], hidden: [], more: null });
  });
  it('truncates shown names but keeps hidden ones whole for the tooltip', () => {
    const long = 'Bartholomew Fitzgerald Jones';
    const badges = participantBadges([long, 'B', 'C', 'D', 'E', long.toUpperCase()]);
    expect(badges.shown[0]).toBe('Bartholomew Fitzgera...');
    expect(badges.hidden).toEqual([long.toUpperCase()]);
  });
});
