import type { OutboundPolicy } from '../../lib/outbound-url.js';
import { BotServiceError, postJson } from './bot-error.js';

/** Where a typebot lives: the Typebot viewer's base URL (urlN8N) and the bot's public id (typebotSlug). */
export interface TypebotTarget {
  url: string;
  slug: string;
  timeoutMs: number;
  /** The outbound-URL policy (the URL is company input). */
  policy: OutboundPolicy;
}

/** What one turn of a Typebot chat gives: the bubbles to send in order, and what it waits for. */
export interface TypebotTurn {
  sessionId: string;
  /** Text bubbles (images and media as their URL), in order. */
  bubbles: string[];
  /** The buttons of a choice input, when the bot waits for a choice. */
  choices: string[];
  /** The bot waits for an answer; false when the flow ended. */
  waiting: boolean;
}

/** Typebot answered that the session does not exist any more (it expired on its side). */
export class TypebotSessionGone extends BotServiceError {
  constructor() {
    super('typebot', 'session not found', 404);
  }
}

interface RichNode {
  text?: string;
  children?: RichNode[];
  type?: string;
}

/** Flattens Typebot's rich text (Slate nodes: paragraphs of text leaves) into lines. */
function richTextToString(nodes: RichNode[]): string {
  const leaf = (node: RichNode): string =>
    node.text !== undefined ? node.text : (node.children ?? []).map(leaf).join('');
  return nodes.map(leaf).join('\n');
}

/** Reads a startChat/continueChat answer. @throws BotServiceError when it has no usable shape. */
export function parseTypebotAnswer(answer: unknown, sessionId?: string): TypebotTurn {
  const data = (answer ?? {}) as {
    sessionId?: unknown;
    messages?: { type?: string; content?: Record<string, unknown> }[];
    input?: { type?: string; items?: { content?: unknown }[] } | null;
  };
  const id = typeof data.sessionId === 'string' ? data.sessionId : sessionId;
  if (!id || (data.messages !== undefined && !Array.isArray(data.messages))) {
    throw new BotServiceError('typebot', 'malformed answer');
  }
  const bubbles: string[] = [];
  for (const message of data.messages ?? []) {
    const content = message.content ?? {};
    if (message.type === 'text') {
      if (typeof content.markdown === 'string') bubbles.push(content.markdown);
      else if (Array.isArray(content.richText))
        bubbles.push(richTextToString(content.richText as RichNode[]));
      else if (typeof content.plainText === 'string') bubbles.push(content.plainText);
    } else if (typeof content.url === 'string') {
      bubbles.push(content.url);
    }
  }
  const input = data.input ?? undefined;
  const choices =
    input?.type === 'choice input'
      ? (input.items ?? []).map((item) => String(item.content ?? '')).filter(Boolean)
      : [];
  return { sessionId: id, bubbles: bubbles.filter((b) => b.trim()), choices, waiting: !!input };
}

/**
 * Starts a chat with the typebot (`POST {url}/api/v1/typebots/{slug}/startChat`), optionally with
 * the customer's first message and prefilled variables. Callable on its own (the flow builder's
 * Typebot node). @throws BotServiceError.
 */
export async function typebotStart(
  target: TypebotTarget,
  options: { message?: string; variables?: Record<string, string> } = {},
): Promise<TypebotTurn> {
  const base = target.url.replace(/\/+$/, '');
  const answer = await postJson(
    'typebot',
    `${base}/api/v1/typebots/${encodeURIComponent(target.slug)}/startChat`,
    {
      ...(options.message ? { message: { type: 'text', text: options.message } } : {}),
      textBubbleContentFormat: 'markdown',
      prefilledVariables: options.variables ?? {},
    },
    { timeoutMs: target.timeoutMs, policy: target.policy },
  );
  return parseTypebotAnswer(answer);
}

/**
 * Sends the customer's answer to an open session (`POST {url}/api/v1/sessions/{id}/continueChat`).
 * @throws TypebotSessionGone when Typebot no longer knows the session; BotServiceError otherwise.
 */
export async function typebotContinue(
  target: TypebotTarget,
  sessionId: string,
  text: string,
): Promise<TypebotTurn> {
  const base = target.url.replace(/\/+$/, '');
  try {
    const answer = await postJson(
      'typebot',
      `${base}/api/v1/sessions/${encodeURIComponent(sessionId)}/continueChat`,
      { message: { type: 'text', text }, textBubbleContentFormat: 'markdown' },
      { timeoutMs: target.timeoutMs, policy: target.policy },
    );
    return parseTypebotAnswer(answer, sessionId);
  } catch (error) {
    if (error instanceof BotServiceError && error.status === 404) throw new TypebotSessionGone();
    throw error;
  }
}

/** The choice the customer's text names: the item's text (any case) or its number ('2'). */
export function matchChoice(choices: string[], text: string): string | undefined {
  const wanted = text.trim().toLowerCase();
  const byNumber = /^\d+$/.test(wanted) ? choices[Number(wanted) - 1] : undefined;
  return byNumber ?? choices.find((c) => c.trim().toLowerCase() === wanted);
}
