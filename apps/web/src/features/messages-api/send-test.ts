/**
 * The external API test forms' call (document 2 section 2 "Messages API page"): a plain fetch with
 * the connection's token as bearer, outside the session client (a refused token must not end the
 * user's session).
 */
import type { ApiErrorBody, ExternalSendResult } from '@zapdesk/shared';
import { ApiError } from '../../lib/api';
import { API_BASE } from '../../lib/config';

/** The absolute URL of POST /messages/send on this deployment. */
export function sendUrl(origin: string = window.location.origin): string {
  return `${origin}${API_BASE}/messages/send`;
}

/** The curl command sending a text. */
export function curlText(url: string, token: string): string {
  return [
    `curl -X POST '${url}' \\`,
    `  -H 'Authorization: Bearer ${token}' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '{"number": "5511999998888", "body": "Olá! Seu pedido foi enviado."}'`,
  ].join('\n');
}

/** The curl command sending a file with a caption. */
export function curlMedia(url: string, token: string): string {
  return [
    `curl -X POST '${url}' \\`,
    `  -H 'Authorization: Bearer ${token}' \\`,
    `  -F 'number=5511999998888' \\`,
    `  -F 'body=Segue o boleto' \\`,
    `  -F 'medias=@/caminho/boleto.pdf'`,
  ].join('\n');
}

/**
 * Sends a text (`body`) or a file (`file`, `body` as caption) through the external API.
 * @throws ApiError with the answer's status and error body (401 for a wrong token).
 */
export async function sendTest(input: {
  token: string;
  number: string;
  body: string;
  file?: File | null;
}): Promise<ExternalSendResult> {
  let init: RequestInit;
  if (input.file) {
    const form = new FormData();
    form.append('number', input.number);
    if (input.body) form.append('body', input.body);
    form.append('medias', input.file, input.file.name);
    init = { method: 'POST', body: form };
  } else {
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ number: input.number, body: input.body }),
    };
  }
  const response = await fetch(sendUrl(), {
    ...init,
    headers: {
      ...(init.headers as Record<string, string> | undefined),
      authorization: `Bearer ${input.token}`,
    },
    credentials: 'omit',
  });
  const data = (await response.json().catch(() => null)) as unknown;
  if (!response.ok) throw new ApiError(response.status, data as ApiErrorBody | null);
  return data as ExternalSendResult;
}
