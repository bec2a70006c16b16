import { ZIdParam, ZPrompt, ZPromptBody, ZPromptsList } from '@zapdesk/shared';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { promptView, viewerOf } from '../../lib/secret-views.js';
import { createPrompt, deletePrompt, getPrompt, listPrompts, updatePrompt } from './prompts-service.js';

/** Prompts need the plan's useOpenAi flag (document 2 section 6); any user of the company reads them for pickers. */
const promptRoute = { auth: 'user', plan: 'useOpenAi' } as const;
const promptAdminRoute = { auth: 'user', role: 'admin', plan: 'useOpenAi' } as const;

/** AI prompts API (document 2 section 7 "Prompts"): list, read, create, edit, delete; the masked key only to admins. */
export function promptRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['prompts'];
  app.get('/prompt', { config: promptRoute, schema: { tags, response: { 200: ZPromptsList } } }, (request) =>
    listPrompts(ctx, request.auth.companyId).then((list) => ({
      prompts: list.prompts.map((p) => promptView(viewerOf(request.auth), p)),
    })),
  );
  app.get(
    '/prompt/:id',
    { config: promptRoute, schema: { tags, params: ZIdParam, response: { 200: ZPrompt } } },
    async (request) =>
      promptView(viewerOf(request.auth), await getPrompt(ctx, request.auth.companyId, request.params.id)),
  );
  // Create answers 200 and delete a message (not 201 and 204 as resourceRoutes does): kept as they are.
  app.post(
    '/prompt',
    { config: promptAdminRoute, schema: { tags, body: ZPromptBody, response: { 200: ZPrompt } } },
    (request) => createPrompt(ctx, request.auth.companyId, request.body),
  );
  app.put(
    '/prompt/:id',
    {
      config: promptAdminRoute,
      schema: { tags, params: ZIdParam, body: ZPromptBody.partial(), response: { 200: ZPrompt } },
    },
    (request) => updatePrompt(ctx, request.auth.companyId, request.params.id, request.body),
  );
  app.delete(
    '/prompt/:id',
    {
      config: promptAdminRoute,
      schema: { tags, params: ZIdParam, response: { 200: z.object({ message: z.string() }) } },
    },
    async (request) => {
      await deletePrompt(ctx, request.auth.companyId, request.params.id);
      return { message: 'Prompt deleted' };
    },
  );
}
