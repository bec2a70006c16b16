import OpenAI from 'openai';
import { BotServiceError } from './bot-error.js';

/**
 * What the model answers when the customer asks for a human; the system message tells it so. The
 * engine strips it from the text and hands the ticket to the queue's agents.
 */
export const HANDOVER_MARK = '#ATENDENTE#';

/** One prompt's settings (document 2 section 3 "Prompt"; document 3 "OpenAI integration"). */
export interface PromptSettings {
  prompt: string;
  model: string;
  maxTokens: number;
  temperature: number;
  apiKey: string;
  /** An OpenAI-compatible server (config OPENAI_BASE_URL); the SDK's default when undefined. */
  baseURL?: string;
  /** Per-request timeout, ms. */
  timeoutMs: number;
}

/** A past message of the conversation, oldest first. */
export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface ModelAnswer {
  /** The reply to send (without the handover mark); may be empty on a handover. */
  text: string;
  /** The customer asked for a human. */
  handover: boolean;
}

/** The system message: the prompt, then how to ask for a human. */
export function systemMessage(prompt: string): string {
  return `${prompt.trim()}\n\nSe o cliente pedir para falar com um atendente humano, responda somente ${HANDOVER_MARK}.`;
}

/**
 * Asks the model for the next reply: the prompt as system message, then `history` (the last
 * maxMessages messages), with the prompt's model, temperature and maxTokens, through the `openai`
 * SDK (one retry, `timeoutMs` each). Callable on its own (the flow builder's OpenAI node).
 * @throws BotServiceError on an unreachable server, a refused key, a timeout or an empty answer.
 */
export async function askModel(settings: PromptSettings, history: ChatTurn[]): Promise<ModelAnswer> {
  const client = new OpenAI({
    apiKey: settings.apiKey || 'missing',
    baseURL: settings.baseURL,
    timeout: settings.timeoutMs,
    maxRetries: 1,
  });
  let content: string | null | undefined;
  try {
    const completion = await client.chat.completions.create({
      model: settings.model,
      temperature: settings.temperature,
      max_tokens: settings.maxTokens,
      messages: [{ role: 'system', content: systemMessage(settings.prompt) }, ...history],
    });
    content = completion.choices?.[0]?.message?.content;
  } catch (error) {
    if (error instanceof OpenAI.APIConnectionTimeoutError) throw new BotServiceError('openai', 'timeout');
    if (error instanceof OpenAI.APIConnectionError) throw new BotServiceError('openai', 'unreachable');
    if (error instanceof OpenAI.APIError) {
      const reason = error.status === 401 ? 'API key refused' : `status ${error.status ?? '?'}`;
      throw new BotServiceError('openai', reason, error.status);
    }
    throw new BotServiceError('openai', 'malformed answer');
  }
  if (typeof content !== 'string' || !content.trim()) throw new BotServiceError('openai', 'empty answer');
  const handover = content.includes(HANDOVER_MARK);
  return { text: content.replaceAll(HANDOVER_MARK, '').trim(), handover };
}
