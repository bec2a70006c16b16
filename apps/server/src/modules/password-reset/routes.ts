import { ZEmail, ZForgotPasswordBody, ZPasswordResetResponse, ZResetPasswordBody } from '@zapdesk/shared';
import { z } from 'zod';
import type { AppContext, ZodApp } from '../../context.js';
import { publicRoute } from '../../lib/guards.js';
import { createMailer } from '../../lib/mailer.js';
import { forgotPassword, resetPassword } from './password-reset-service.js';

/**
 * Password reset (document 3 sections 2, 5 and 7): the spec's path forms, and the same values in a
 * JSON body so that clients can keep the password out of URLs. Request logs never show these paths'
 * values (see redactSecretUrl).
 */
export function passwordResetRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['auth'];
  const mailer = createMailer(ctx.config, ctx.log);
  const ok = { status: 'ok' as const };
  const client = (request: { ip: string; headers: Record<string, unknown> }) => ({
    ip: request.ip,
    acceptLanguage:
      typeof request.headers['accept-language'] === 'string' ? request.headers['accept-language'] : undefined,
  });
  const forgot = {
    config: publicRoute,
    schema: { tags, security: [], response: { 200: ZPasswordResetResponse } },
  };
  app.post(
    '/forgetpassword/:email',
    { ...forgot, schema: { ...forgot.schema, params: z.object({ email: ZEmail }) } },
    async (request) => {
      await forgotPassword(ctx, mailer, request.params, client(request));
      return ok;
    },
  );
  app.post(
    '/forgetpassword',
    { ...forgot, schema: { ...forgot.schema, body: ZForgotPasswordBody } },
    async (request) => {
      await forgotPassword(ctx, mailer, request.body, client(request));
      return ok;
    },
  );
  app.post(
    '/resetpasswords/:email/:token/:password',
    { ...forgot, schema: { ...forgot.schema, params: ZResetPasswordBody } },
    async (request) => {
      await resetPassword(ctx, request.params, client(request));
      return ok;
    },
  );
  app.post(
    '/resetpasswords',
    { ...forgot, schema: { ...forgot.schema, body: ZResetPasswordBody } },
    async (request) => {
      await resetPassword(ctx, request.body, client(request));
      return ok;
    },
  );
}

/** The URL with the values of the password-reset paths replaced, for request logs. */
export function redactSecretUrl(url: string): string {
  return url.replace(/(\/(?:forgetpassword|resetpasswords))\/[^?#]*/i, '$1/[redacted]');
}
