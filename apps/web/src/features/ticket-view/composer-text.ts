import { QUICK_REPLY_LABEL_LENGTH, type QuickMessage, STORAGE_KEYS } from '@zapdesk/shared';

/** The stored sign switch ('signOption', JSON true/false), default on. */
export function readSignOption(): boolean {
  const raw = localStorage.getItem(STORAGE_KEYS.signMessage);
  if (raw === null) return true;
  try {
    return JSON.parse(raw) !== false;
  } catch {
    return raw !== 'false';
  }
}

/**
 * A quick reply suggestion: label '/shortcode - message' cut as a whole to 35 characters
 * (core section 5, "the suggestion label is cut to 35 characters"); `value` is the full message.
 */
export interface QuickReplyOption {
  id: number;
  label: string;
  value: string;
}

/** Suggestions for `text` when it starts with '/' and is longer than 1 character. */
export function quickReplyOptions(text: string, list: QuickMessage[] | undefined): QuickReplyOption[] {
  if (!text.startsWith('/') || text.length <= 1 || !list) return [];
  const search = text.slice(1).toLowerCase();
  return list
    .filter((q) => q.shortcode.toLowerCase().includes(search))
    .map((q) => {
      // Cut by code points so an emoji is never split in half.
      const label = [...`/${q.shortcode} - ${q.message}`].slice(0, QUICK_REPLY_LABEL_LENGTH).join('');
      return { id: q.id, label, value: q.message };
    });
}

/** The composer's text after a refused send of `failed`: the failed text, then what was typed since. */
export function restoredText(failed: string, current: string): string {
  if (!failed) return current;
  return current.trim() ? `${failed}\n${current}` : failed;
}

/** A recording's length in whole seconds as 'mm:ss'. */
export const mmss = (total: number) =>
  `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
