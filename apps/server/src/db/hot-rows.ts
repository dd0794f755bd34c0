import { ColumnTypeEnum, type ArgType, type ColumnType, type SqlQueryable } from '@prisma/driver-adapter-utils';
import type { Prisma } from '../generated/prisma/client.js';
import { PREPARED } from './prepared.js';

/**
 * How the driver adapter should pass a value: lists element by element, dates in PostgreSQL's text
 * form (as Prisma's $queryRaw passes them); strings, numbers, booleans and null as they are.
 */
function argType(value: unknown): ArgType {
  if (Array.isArray(value)) return { scalarType: value[0] instanceof Date ? 'datetime' : 'unknown', arity: 'list' };
  if (value instanceof Date) return { scalarType: 'datetime', arity: 'scalar' };
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return { scalarType: 'unknown', arity: 'scalar' };
  throw new TypeError(`hotRows: a ${typeof value} parameter is not supported`);
}

/** A column's values as $queryRaw gives them; a type this reader does not know fails loudly, not silently. */
function reader(type: ColumnType, column: string): ((value: unknown) => unknown) | null {
  switch (type) {
    case ColumnTypeEnum.Int64:
      return (value) => BigInt(value as string);
    case ColumnTypeEnum.Date:
    case ColumnTypeEnum.DateTime:
      return (value) => new Date(value as string);
    case ColumnTypeEnum.Int32:
    case ColumnTypeEnum.Float:
    case ColumnTypeEnum.Double:
    case ColumnTypeEnum.Boolean:
    case ColumnTypeEnum.Character:
    case ColumnTypeEnum.Text:
    case ColumnTypeEnum.Enum:
    case ColumnTypeEnum.Uuid:
    case ColumnTypeEnum.Int32Array:
    case ColumnTypeEnum.BooleanArray:
    case ColumnTypeEnum.TextArray:
    case ColumnTypeEnum.EnumArray:
      return null;
    default:
      throw new TypeError(`hotRows: column ${column} has a type it does not read (${type})`);
  }
}

/**
 * The rows of a hot statement: one of fixed text run on every caption post or meeting read. It goes
 * straight to the driver adapter Prisma itself sends through (the same pool on PostgreSQL, the same
 * PGlite queue, outside any transaction), past Prisma Client's request pipeline, which costs more CPU
 * than the driver (0.27 ms a call, measured: a quarter of a one-line post's CPU), and it is a named
 * prepared statement on PostgreSQL (prepared.ts). Values and rows as $queryRaw gives them, for the
 * column types these statements return.
 */
export async function hotRows<T>(queryable: SqlQueryable, query: Prisma.Sql): Promise<T[]> {
  const { values } = query;
  const result = await queryable.queryRaw({ sql: PREPARED + query.text, args: values, argTypes: values.map(argType) });
  const { columnNames, columnTypes } = result;
  const readers = columnTypes.map((type, i) => reader(type, columnNames[i]!));
  return result.rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (let i = 0; i < columnNames.length; i++) {
      const value = row[i];
      const read = readers[i];
      record[columnNames[i]!] = read && value !== null ? read(value) : value;
    }
    return record as T;
  });
}
