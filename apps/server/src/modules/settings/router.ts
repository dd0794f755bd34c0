import { z } from 'zod';
import { userSettingsSchema, userSettingsUpdateSchema } from '@mbox/shared';
import { authedProcedure, router } from '../../trpc/trpc.js';
import { completeOnboarding, getSettings, updateSettings } from './service.js';

const tags = ['settings'];

export const settingsRouter = router({
  get: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/user-settings', tags, protect: true, summary: 'The user settings, with defaults' } })
    .input(z.void())
    .output(userSettingsSchema)
    .query(({ ctx }) => getSettings(ctx.deps, ctx.user.id)),

  update: authedProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/user-settings',
        tags,
        protect: true,
        summary: 'Change the fields sent; summary defaults are premium-only',
      },
    })
    .input(userSettingsUpdateSchema)
    .output(userSettingsSchema)
    .mutation(({ ctx, input }) => updateSettings(ctx.deps, ctx.user.id, input)),

  completeOnboarding: authedProcedure
    .meta({
      openapi: { method: 'PUT', path: '/user-settings/onboarding-complete', tags, protect: true, summary: 'Mark onboarding done' },
    })
    .input(z.void())
    .output(userSettingsSchema)
    .mutation(({ ctx }) => completeOnboarding(ctx.deps, ctx.user.id)),
});
