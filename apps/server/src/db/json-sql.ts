/** SQL fragments shared by the modules' JSON reads; a module exports none to another. */

/**
 * Reads that have PostgreSQL write their rows out as JSON, one text per answer (meetings, shared
 * meetings, search results): JSON.parse reads it far faster than the driver reads rows of timestamps
 * and arrays (a grouped list has 1,000 meetings, an export 5,000+ lines), and each read is one round
 * trip. Times come as epoch ms, null past year 9999 (what servers before the input bounds stored;
 * JavaScript cannot show it).
 */
export const epochMs = (column: string) => `CASE WHEN ${column} < '10000-01-01' THEN ${epochMsOf(column)} END`;

/**
 * Epoch ms of a timestamp column that can be read back. date_part's double is exact to the millisecond
 * up to year 9999, and a sixth of a 1,000-meeting list's database time cheaper than extract's numeric.
 */
export const epochMsOf = (column: string) => `(date_part('epoch', ${column}) * 1000)::bigint`;

/**
 * The characters String.prototype.trim removes (ECMAScript WhiteSpace and LineTerminator), and as a
 * PostgreSQL string for btrim: a title read as JSON is trimmed as `title.trim()` trims it.
 */
export const JS_TRIM_CODE_POINTS = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009,
  0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
];
export const JS_TRIM_SQL = `U&'${JS_TRIM_CODE_POINTS.map((code) => `\\${code.toString(16).padStart(4, '0')}`).join('')}'`;
