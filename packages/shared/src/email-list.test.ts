import { describe, expect, it } from 'vitest';
import { emailListSchema, emailListTextSchema, isValidEmail, parseEmailList } from './email-list.js';

describe('isValidEmail', () => {
  it.each(['a@b.co', 'first.last+tag@mail.example.com', 'x_y%z@sub-domain.museum', 'UPPER@CASE.ORG'])(
    'accepts %s',
    (email) => expect(isValidEmail(email)).toBe(true),
  );
  it.each(['', 'plain', '@b.co', 'a@', 'a@b', 'a@b.c', 'a@b.toolong', 'a b@c.com', 'a@b.c0m', 'a@@b.com', 'a@b..com'])(
    'refuses %j',
    (email) => expect(isValidEmail(email)).toBe(false),
  );
  it('refuses addresses over 254 characters', () => {
    expect(isValidEmail(`${'a'.repeat(250)}@b.co`)).toBe(false);
  });
});

describe('parseEmailList', () => {
  it('splits on commas and any whitespace, keeping valid entries once, in order', () => {
    expect(parseEmailList('a@b.co, c@d.org\n e@f.net\tg@h.io,,a@b.co')).toEqual({
      valid: ['a@b.co', 'c@d.org', 'e@f.net', 'g@h.io'],
      invalid: [],
    });
  });
  it('sets invalid entries apart', () => {
    expect(parseEmailList('ok@x.com nope bad@x')).toEqual({ valid: ['ok@x.com'], invalid: ['nope', 'bad@x'] });
  });
  it('gives nothing for empty or blank text', () => {
    expect(parseEmailList('  , \n')).toEqual({ valid: [], invalid: [] });
  });
});

describe('email list schemas', () => {
  it('validates each address of a list and drops duplicates', () => {
    expect(emailListSchema.parse(['a@b.co', ' a@b.co ', 'c@d.org'])).toEqual(['a@b.co', 'c@d.org']);
    expect(emailListSchema.safeParse(['a@b.co', 'nope']).error?.issues[0]?.path).toEqual([1]);
  });
  it('bounds the number of addresses', () => {
    const many = Array.from({ length: 101 }, (_, i) => `u${i}@x.com`);
    expect(emailListSchema.safeParse(many).success).toBe(false);
  });
  it('normalises text lists and names the first invalid entry', () => {
    expect(emailListTextSchema.parse('a@b.co   c@d.org,')).toBe('a@b.co, c@d.org');
    expect(emailListTextSchema.parse('')).toBe('');
    expect(emailListTextSchema.safeParse('a@b.co, oops').error?.issues[0]?.message).toBe('Invalid e-mail address: oops');
    expect(emailListTextSchema.safeParse('x@ a@b.co, oops').error?.issues[0]?.message).toBe('Invalid e-mail addresses: x@, oops');
    expect(emailListSchema.safeParse(['a@b.co', 'nope@x']).error?.issues[0]).toMatchObject({
      path: [1],
      message: 'Invalid e-mail address: nope@x (expected name@domain.tld)',
    });
  });
});
