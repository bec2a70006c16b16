import { importPKCS8, SignJWT } from 'jose';
import { type OutboundPolicy, outboundRequest } from '../../lib/outbound-url.js';
import { BOT_ANSWER_MAX_BYTES, BotServiceError, botFailure, postJson } from './bot-error.js';

/** Google's scope for Dialogflow. */
const SCOPE = 'https://www.googleapis.com/auth/dialogflow';

/** The service-account key fields used (the JSON Google gives, stored in jsonContent). */
interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  project_id?: string;
  token_uri?: string;
}

export interface DialogflowTarget {
  /** The service-account JSON. */
  jsonContent: string;
  /** The agent's project id (projectName; the key's project_id when empty). */
  projectName: string;
  /** pt-BR, en or es. */
  language: string;
  /** Dialogflow's REST base (config DIALOGFLOW_BASE_URL). */
  baseUrl: string;
  timeoutMs: number;
  /** The outbound-URL policy for the key's token_uri and the API calls. */
  policy: OutboundPolicy;
}

export interface DialogflowAnswer {
  texts: string[];
  /** The matched intent ends the conversation: the ticket goes to a human. */
  endInteraction: boolean;
}

const tokens = new Map<string, { token: string; expiresAt: number }>();

function readKey(jsonContent: string): ServiceAccountKey {
  try {
    const key = JSON.parse(jsonContent) as ServiceAccountKey;
    if (typeof key.client_email === 'string' && typeof key.private_key === 'string') return key;
  } catch {
    // answered below
  }
  throw new BotServiceError('dialogflow', 'invalid service-account JSON');
}

/**
 * An OAuth access token for the service account: a JWT signed with its private key (RS256) traded
 * at its token_uri (grant type jwt-bearer) under the outbound-URL policy (the key is company input),
 * cached until a minute before it expires. `timeoutMs` in ms.
 * @throws BotServiceError when the key cannot sign, the token_uri is refused by the policy (reason
 *   'token endpoint unreachable'), or the token endpoint fails or refuses.
 */
export async function serviceAccountToken(
  jsonContent: string,
  timeoutMs: number,
  policy: OutboundPolicy,
): Promise<string> {
  const key = readKey(jsonContent);
  const tokenUri = key.token_uri ?? 'https://oauth2.googleapis.com/token';
  const cacheKey = `${key.client_email}|${tokenUri}`;
  const cached = tokens.get(cacheKey);
  if (cached && cached.expiresAt > Date.now() + 60_000) return cached.token;
  let assertion: string;
  try {
    const privateKey = await importPKCS8(key.private_key, 'RS256');
    const now = Math.floor(Date.now() / 1000);
    assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(key.client_email)
      .setAudience(tokenUri)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(privateKey);
  } catch {
    throw new BotServiceError('dialogflow', 'invalid private key');
  }
  let response: Awaited<ReturnType<typeof outboundRequest>>;
  try {
    response = await outboundRequest(
      tokenUri,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
          assertion,
        }).toString(),
        timeoutMs,
        maxBytes: BOT_ANSWER_MAX_BYTES,
      },
      policy,
    );
  } catch (error) {
    const failure = botFailure('dialogflow', error);
    throw new BotServiceError('dialogflow', 'token endpoint unreachable', undefined, failure.refusedUrl);
  }
  let body: { access_token?: string; expires_in?: number } = {};
  try {
    body = JSON.parse(response.text()) as typeof body;
  } catch {
    // answered below
  }
  if (!response.ok || typeof body?.access_token !== 'string') {
    throw new BotServiceError('dialogflow', 'credentials refused', response.status);
  }
  tokens.set(cacheKey, {
    token: body.access_token,
    expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000,
  });
  return body.access_token;
}

/**
 * Sends the customer's text to the agent (`POST {base}/v2/projects/{project}/agent/sessions/
 * {session}:detectIntent`) and answers the fulfilment texts. Callable on its own.
 * @throws BotServiceError.
 */
export async function detectIntent(
  target: DialogflowTarget,
  sessionId: string,
  text: string,
): Promise<DialogflowAnswer> {
  const key = readKey(target.jsonContent);
  const project = target.projectName.trim() || key.project_id || '';
  if (!project) throw new BotServiceError('dialogflow', 'no project');
  const token = await serviceAccountToken(target.jsonContent, target.timeoutMs, target.policy);
  const base = target.baseUrl.replace(/\/+$/, '');
  const answer = (await postJson(
    'dialogflow',
    `${base}/v2/projects/${encodeURIComponent(project)}/agent/sessions/${encodeURIComponent(sessionId)}:detectIntent`,
    { queryInput: { text: { text: text.slice(0, 256), languageCode: target.language } } },
    { timeoutMs: target.timeoutMs, policy: target.policy, headers: { authorization: `Bearer ${token}` } },
  )) as {
    queryResult?: {
      fulfillmentText?: string;
      fulfillmentMessages?: { text?: { text?: string[] } }[];
      intent?: { endInteraction?: boolean };
    };
  };
  const result = answer.queryResult;
  if (!result) throw new BotServiceError('dialogflow', 'malformed answer');
  const texts = (result.fulfillmentMessages ?? []).flatMap((m) => m.text?.text ?? []).filter((t) => t.trim());
  if (!texts.length && result.fulfillmentText?.trim()) texts.push(result.fulfillmentText);
  return { texts, endInteraction: result.intent?.endInteraction === true };
}
