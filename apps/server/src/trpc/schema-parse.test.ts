import { initTRPC, TRPCError } from '@trpc/server';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

// patches/@trpc+server: tRPC parses inputs and outputs with a zod schema's synchronous parse, where
// zod compiles its fast object parser, and falls back to parseAsync for a schema that needs it.
describe('tRPC schema parsing (patched)', () => {
  const t = initTRPC.create();
  const lines = z.object({ lines: z.array(z.object({ text: z.string(), revision: z.number().int() })) });

  it('uses the synchronous parse for inputs and outputs', async () => {
    const parseAsync = vi.spyOn(lines, 'parseAsync');
    const parse = vi.spyOn(lines, 'parse');
    const router = t.router({ echo: t.procedure.input(lines).output(lines).query(({ input }) => input) });
    const input = { lines: [{ text: 'Hello', revision: 1 }] };
    await expect(t.createCallerFactory(router)({}).echo(input)).resolves.toEqual(input);
    expect(parse).toHaveBeenCalledTimes(2);
    expect(parseAsync).not.toHaveBeenCalled();
  });

  it('refuses bad input as before, with the issues', async () => {
    const router = t.router({ echo: t.procedure.input(lines).query(({ input }) => input) });
    const error = await t
      .createCallerFactory(router)({})
      .echo({ lines: [{ text: 1, revision: 1 }] } as never)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe('BAD_REQUEST');
    expect((error as TRPCError).message).toMatch(/expected string/);
  });

  it('parses a schema with an async refinement with parseAsync', async () => {
    const checked = z.string().refine(async (value) => value !== 'taken', 'That name is taken');
    const router = t.router({ name: t.procedure.input(checked).query(({ input }) => input) });
    const caller = t.createCallerFactory(router)({});
    await expect(caller.name('free')).resolves.toBe('free');
    await expect(caller.name('taken')).rejects.toThrow(/That name is taken/);
  });
});
