import { describe, expect, it } from 'vitest';
import { changelogSchema, displayChangeType } from './changelog.js';

describe('changelogSchema', () => {
  it('accepts versions with typed, nested changes', () => {
    const entries = [
      {
        version: '1.2.3',
        date: '2026-11-22',
        changes: [
          { type: 'New', description: 'Thing', subChanges: [{ type: 'Fix', description: 'Sub', subChanges: [] }] },
          { type: 'Improvement', description: 'Faster' },
        ],
      },
    ];
    expect(changelogSchema.parse(entries)).toEqual(entries);
  });
  it.each([
    [{ version: 'v1', date: '2026-11-22', changes: [{ type: 'New', description: 'x' }] }],
    [{ version: '1.0.0', date: '22/11/2026', changes: [{ type: 'New', description: 'x' }] }],
    [{ version: '1.0.0', date: '2026-11-22', changes: [] }],
    [{ version: '1.0.0', date: '2026-11-22', changes: [{ type: 'Other', description: 'x' }] }],
    [{ version: '1.0.0', date: '2026-11-22', changes: [{ type: 'New', description: 'x', subChanges: [{ type: 'New' }] }] }],
  ])('refuses %j', (entry) => {
    expect(changelogSchema.safeParse([entry]).success).toBe(false);
  });
});

describe('displayChangeType', () => {
  it('treats anything but New and Improvement as a fix', () => {
    expect(displayChangeType('New')).toBe('New');
    expect(displayChangeType('Improvement')).toBe('Improvement');
    expect(displayChangeType('Security')).toBe('Fix');
  });
});
