/**
 * A small client of Meta's Graph API for the WhatsApp Business Cloud API: JSON calls and
 * media uploads with the bearer token, media downloads, and Graph errors as `GraphError`.
 */

/** An error answer of the Graph API (`{ error: { message, type, code, error_subcode, error_data } }`). */
export class GraphError extends Error {
  constructor(
    /** HTTP status of the answer (0 when the API could not be reached). */
    readonly status: number,
    /** Graph error code (190 token, 131047 outside the window, 130429 rate limit...), or 0. */
    readonly code: number,
    message: string,
    readonly details?: string,
    readonly subcode?: number,
  ) {
    super(message);
    this.name = 'GraphError';
  }
}

export interface GraphClientOptions {
  /** Origin of the Graph API ('https://graph.facebook.com'). */
  baseUrl: string;
  /** API version ('v21.0'). */
  version: string;
  accessToken: string;
  /** Per-call timeout, ms. */
  timeoutMs?: number;
}

interface GraphErrorBody {
  error?: {
    message?: string;
    code?: number;
    error_subcode?: number;
    error_data?: { details?: string };
  };
}

/** Graph API calls of one business phone number, authenticated with its access token. */
export class GraphClient {
  constructor(private readonly options: GraphClientOptions) {}

  /** Absolute URL of a Graph path ('/123/messages'). */
  url(path: string): string {
    return `${this.options.baseUrl}/${this.options.version}${path}`;
  }

  /**
   * Calls the Graph API and answers the parsed JSON.
   * @throws GraphError for an error answer or when the API cannot be reached.
   */
  async json<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown | FormData): Promise<T> {
    const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
    const response = await this.fetch(this.url(path), {
      method,
      headers: {
        authorization: `Bearer ${this.options.accessToken}`,
        ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = {};
    }
    if (!response.ok || (parsed as GraphErrorBody).error) {
      const error = (parsed as GraphErrorBody).error ?? {};
      throw new GraphError(
        response.status,
        error.code ?? 0,
        error.message ?? `Graph API answered ${response.status}`,
        error.error_data?.details,
        error.error_subcode,
      );
    }
    return parsed as T;
  }

  /**
   * Downloads a media the webhook named: its URL from GET /{media-id}, then the bytes from that
   * URL with the same token. @throws GraphError when the media is gone or the token refused.
   */
  async downloadMedia(mediaId: string): Promise<{ data: Buffer; mimetype: string }> {
    const info = await this.json<{ url: string; mime_type?: string }>(
      'GET',
      `/${encodeURIComponent(mediaId)}`,
    );
    const response = await this.fetch(info.url, {
      headers: { authorization: `Bearer ${this.options.accessToken}` },
    });
    if (!response.ok) throw new GraphError(response.status, 0, `media download answered ${response.status}`);
    return {
      data: Buffer.from(await response.arrayBuffer()),
      mimetype: info.mime_type ?? response.headers.get('content-type') ?? 'application/octet-stream',
    };
  }

  private async fetch(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000) });
    } catch (error) {
      throw new GraphError(0, 0, `Graph API unreachable: ${(error as Error).message}`);
    }
  }
}
