import { ZIdParam, ZPrompt, ZPromptBody, ZPromptsList } from '@zapdesk/shared';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { promptView, viewerOf } from '../../lib/secret-views.js';
import { routeTable } from '../common/route-table.js';
import { createPrompt, deletePrompt, getPrompt, listPrompts, updatePrompt } from './prompts-service.js';

/** Prompts need the plan's useOpenAi flag (document 2 section 6); any user of the company reads them for pickers. */
const promptRoute = { auth: 'user', plan: 'useOpenAi' } as const;
const promptAdminRoute = { auth: 'user', role: 'admin', plan: 'useOpenAi' } as const;

/** AI prompts API (document 2 section 7 "Prompts"): list, read, create, edit, delete; the masked key only to admins. */
export function promptRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['prompts'];
  const route = routeTable(app, tags, promptAdminRoute);
  route.get('/prompt', { guard: promptRoute, reply: ZPromptsList }, (request) =>
    listPrompts(ctx, request.auth.companyId).then((list) => ({
      prompts: list.prompts.map((p) => promptView(viewerOf(request.auth), p)),
    })),
  );
  route.get('/prompt/:id', { guard: promptRoute, params: ZIdParam, reply: ZPrompt }, async (request) =>
    promptView(viewerOf(request.auth), await getPrompt(ctx, request.auth.companyId, request.params.id)),
  );
  // Create answers 200 and delete a message (not 201 and 204 as resourceRoutes does): kept as they are.
  route.post('/prompt', { body: ZPromptBody, reply: ZPrompt }, (request) =>
    createPrompt(ctx, request.auth.companyId, request.body),
  );
  route.put('/prompt/:id', { params: ZIdParam, body: ZPromptBody.partial(), reply: ZPrompt }, (request) =>
    updatePrompt(ctx, request.auth.companyId, request.params.id, request.body),
  );
  route.delete(
    '/prompt/:id',
    { params: ZIdParam, reply: z.object({ message: z.string() }) },
    async (request) => {
      await deletePrompt(ctx, request.auth.companyId, request.params.id);
      return { message: 'Prompt deleted' };
    },
  );
}
