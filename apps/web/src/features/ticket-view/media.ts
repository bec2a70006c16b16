/**
 * Media of the message list (core section 7 "Media"): files under /api/public are fetched with the
 * bearer token into blob object URLs; location and vCard bodies are parsed here.
 */
import { useEffect, useState } from 'react';
import { fetchWithSession } from '../../lib/api';

/**
 * Fetches `url` with the bearer token and returns its blob. An expired token waits for the API
 * client's one shared refresh (see `fetchWithSession`) and the fetch is replayed once.
 * @throws Error `HTTP <status>` for any other failed answer.
 */
export async function fetchMediaBlob(url: string): Promise<Blob> {
  const response = await fetchWithSession(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.blob();
}

/** True for URLs that need no fetch (data and blob URLs). */
const isInline = (url: string) => url.startsWith('data:') || url.startsWith('blob:');

/**
 * An object URL for the media at `url` (fetched with the token), revoked on unmount or change.
 * `enabled` false leaves it unfetched (documents are fetched on demand).
 */
export function useMediaUrl(url: string | null | undefined, enabled = true) {
  const [state, setState] = useState<{ src: string | null; error: boolean }>({ src: null, error: false });

  useEffect(() => {
    if (!url || !enabled) return;
    if (isInline(url)) {
      setState({ src: url, error: false });
      return;
    }
    let cancelled = false;
    let objectUrl: string | null = null;
    setState({ src: null, error: false });
    fetchMediaBlob(url)
      .then((blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setState({ src: objectUrl, error: false });
      })
      .catch(() => {
        if (!cancelled) setState({ src: null, error: true });
      });
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url, enabled]);

  return state;
}

/** Downloads the media at `url` under `name` (fetched with the token). */
export async function downloadMedia(url: string, name: string): Promise<void> {
  const blob = isInline(url) ? null : await fetchMediaBlob(url);
  const href = blob ? URL.createObjectURL(blob) : url;
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = name;
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  if (blob) setTimeout(() => URL.revokeObjectURL(href), 1000);
}

/** A location message body 'image|link|description'. */
export interface ParsedLocation {
  /** A thumbnail data URL, when the body carries one. */
  image: string | null;
  link: string | null;
  description: string;
}

/** Parses 'image|link|description' (the image may be empty; a bare link is accepted). */
export function parseLocation(body: string): ParsedLocation {
  const parts = body.split('|');
  if (parts.length === 1) {
    const only = parts[0]?.trim() ?? '';
    return /^https?:\/\//i.test(only)
      ? { image: null, link: only, description: '' }
      : { image: null, link: null, description: only };
  }
  const [rawImage = '', rawLink = '', ...rest] = parts;
  const image = rawImage.trim();
  const link = rawLink.trim();
  return {
    image: image.startsWith('data:') ? image : image ? `data:image/png;base64,${image}` : null,
    link: link || null,
    description: rest.join('|').trim(),
  };
}

/** One contact of a vCard text. */
export interface VCardContact {
  name: string;
  number: string;
}

/** Unescapes a vCard value (\, \; \n). */
const unescapeValue = (value: string) =>
  value
    .replace(/\\n/gi, ' ')
    .replace(/\\([,;\\])/g, '$1')
    .trim();

/**
 * Parses the contacts of a vCard text (one or more BEGIN:VCARD blocks): the name from FN (else N)
 * and the number from the first TEL's `waid` parameter (else its value's digits, keeping a '+').
 */
export function parseVCard(text: string): VCardContact[] {
  const lines = text
    .replace(/\r\n/g, '\n')
    .replace(/\n[ \t]/g, '')
    .split('\n');
  const contacts: VCardContact[] = [];
  let current: { fn: string; n: string; number: string } | null = null;
  const push = () => {
    if (!current) return;
    const name = current.fn || current.n;
    if (name || current.number) contacts.push({ name, number: current.number });
    current = null;
  };
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    const upper = line.toUpperCase();
    if (upper === 'BEGIN:VCARD') {
      push();
      current = { fn: '', n: '', number: '' };
      continue;
    }
    if (upper === 'END:VCARD') {
      push();
      continue;
    }
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    current ??= { fn: '', n: '', number: '' };
    const head = line.slice(0, colon);
    const value = line.slice(colon + 1);
    const [prop = '', ...params] = head.split(';');
    const property = prop.replace(/^item\d+\./i, '').toUpperCase();
    if (property === 'FN') current.fn = unescapeValue(value);
    else if (property === 'N' && !current.n)
      current.n = value.split(';').map(unescapeValue).filter(Boolean).reverse().join(' ');
    else if (property === 'TEL' && !current.number) {
      const waid = params.find((p) => p.toLowerCase().startsWith('waid='));
      const digits = waid ? waid.slice(5).replace(/\D/g, '') : value.replace(/[^\d+]/g, '');
      current.number = digits;
    }
  }
  push();
  return contacts;
}
