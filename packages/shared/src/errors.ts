/**
 * The error catalogue (core document section 8) plus the codes Zapdesk adds for cases the catalogue
 * does not name. Every failure the API answers is `{ "error": CODE }` with the HTTP status below.
 */
export const ERROR_STATUS = {
  ERR_INTERNAL_SERVER_ERROR: 500,
  ERR_NO_OTHER_WHATSAPP: 400,
  ERR_NO_DEF_WAPP_FOUND: 404,
  ERR_WAPP_NOT_INITIALIZED: 400,
  ERR_WAPP_CHECK_CONTACT: 400,
  ERR_WAPP_INVALID_CONTACT: 400,
  ERR_WAPP_DOWNLOAD_MEDIA: 400,
  ERR_INVALID_CREDENTIALS: 401,
  ERR_USER_DONT_EXISTS: 404,
  ERR_SENDING_WAPP_MSG: 400,
  ERR_DELETE_WAPP_MSG: 400,
  ERR_OTHER_OPEN_TICKET: 409,
  /** Expired or invalid access token (403: the client refreshes once) or refresh token (401). */
  ERR_SESSION_EXPIRED: 401,
  ERR_USER_CREATION_DISABLED: 403,
  ERR_NO_PERMISSION: 403,
  ERR_DUPLICATED_CONTACT: 409,
  ERR_NO_SETTING_FOUND: 404,
  ERR_NO_CONTACT_FOUND: 404,
  ERR_NO_TICKET_FOUND: 404,
  ERR_NO_USER_FOUND: 404,
  ERR_NO_WAPP_FOUND: 404,
  ERR_CREATING_MESSAGE: 500,
  ERR_CREATING_TICKET: 500,
  ERR_FETCH_WAPP_MSG: 400,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 409,
  ERR_WAPP_GREETING_REQUIRED: 400,
  // Codes added by Zapdesk.
  /** Body, query or path failed its schema; the answer names the `field`. */
  ERR_VALIDATION: 400,
  /** No such route, or a record that is not visible to the caller's company. */
  ERR_NOT_FOUND: 404,
  /** The company's dueDate has passed; the answer carries `dueDate`. */
  ERR_SUBSCRIPTION_EXPIRED: 402,
  /** Too many attempts (login rate limit). */
  ERR_TOO_MANY_REQUESTS: 429,
  /** A record with the same unique value exists (database unique constraint); names the `field`. */
  ERR_ALREADY_EXISTS: 409,
  /** E-mail already used by another user. */
  ERR_EMAIL_ALREADY_EXISTS: 409,
  /** The plan's user limit is reached. */
  ERR_USER_LIMIT_REACHED: 403,
  /** The change would leave the company without an admin. */
  ERR_LAST_ADMIN: 400,
  /** The company's plan does not include this feature. */
  ERR_PLAN_FEATURE_DISABLED: 403,
  ERR_NO_COMPANY_FOUND: 404,
  ERR_NO_PLAN_FOUND: 404,
  ERR_NO_QUEUE_FOUND: 404,
  ERR_NO_MESSAGE_FOUND: 404,
  /** The plan's queue limit is reached. */
  ERR_QUEUE_LIMIT_REACHED: 403,
  /** The plan's connection limit is reached. */
  ERR_CONNECTION_LIMIT_REACHED: 403,
  /** The name is already used by another record of the company. */
  ERR_NAME_ALREADY_EXISTS: 409,
  /** The operation does not apply to this connection's provider (e.g. simulator routes). */
  ERR_WRONG_PROVIDER: 400,
  /** The database could not be reached. */
  ERR_SERVICE_UNAVAILABLE: 503,
  /** The media storage (disk or S3 bucket) could not be reached; nothing was stored. */
  ERR_STORAGE_UNAVAILABLE: 503,
  /** The request body is too large or its content type is not accepted. */
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_UNSUPPORTED_MEDIA_TYPE: 415,
  /** Billing: the invoice is not the company's or does not exist. */
  ERR_NO_INVOICE_FOUND: 404,
  /** Two or more open invoices block a new subscription (document 3 section 8). */
  ERR_PENDING_INVOICE: 403,
  /** The invoice is no longer open (paid or cancelled). */
  ERR_INVOICE_NOT_OPEN: 409,
  /** A payment webhook without the provider's valid signature or token. */
  ERR_INVALID_SIGNATURE: 401,
  /** The manual provider has no platform Pix key yet (the super user sets it). */
  ERR_PIX_KEY_NOT_SET: 400,
  /** The payment service or CRM failed or is not configured; `message` carries its text. */
  ERR_PAYMENT_PROVIDER: 502,
  /**
   * CRM billing (document 3 section 8), each with the spec's own message; `message`, when
   * present, is the CRM's text as plain text of at most PROVIDER_MESSAGE_MAX characters.
   * The CRM refused a customer call, or could not be asked: 'Erro ao verificar dados no CRM.'
   */
  ERR_CRM_VERIFY: 502,
  /** The customer was created at the CRM but its id could not be read back. */
  ERR_CRM_CUSTOMER_ID: 502,
  /** The CRM refused the new invoice; `message` is its reason. */
  ERR_CRM_CREATE_INVOICE: 502,
  /** The CRM refused to update the open invoice; `message` is its reason. */
  ERR_CRM_UPDATE_INVOICE: 502,
  /** The CRM's invoice API could not be reached (network failure, timeout or 5xx). */
  ERR_CRM_INVOICE_API: 502,
  /**
   * The invoice exists at the CRM but its local copy could not be saved; `link` is the CRM's
   * payment link, so the payer can still pay (shown as a warning).
   */
  ERR_CRM_INVOICE_NOT_SAVED: 500,
  /**
   * Cloud API connection: the customer last wrote more than 24 hours ago, so only an approved
   * message template may be sent.
   */
  ERR_WAPP_OUTSIDE_WINDOW: 400,
  /** Password reset: the code is unknown, expired, already used or wrong (one answer for all). */
  ERR_INVALID_RESET_CODE: 400,
  /** The plan is the plan of some companies: move them to another plan first. */
  ERR_PLAN_IN_USE: 409,
  /** Campaign: not editable in its status (INATIVA, CANCELADA, or PROGRAMADA more than 1 h ahead). */
  ERR_CAMPAIGN_NOT_EDITABLE: 409,
  /** Campaign: only EM_ANDAMENTO or PROGRAMADA campaigns can be cancelled. */
  ERR_CAMPAIGN_NOT_CANCELLABLE: 409,
  /** Campaign: only CANCELADA (or INATIVA) campaigns can be restarted. */
  ERR_CAMPAIGN_NOT_RESTARTABLE: 409,
  /** Campaign: its contact list or tag has no valid recipient, so it cannot start. */
  ERR_CAMPAIGN_NO_RECIPIENTS: 400,
  /** Campaign: every message variant is empty. */
  ERR_CAMPAIGN_NO_MESSAGE: 400,
  /** Campaign: neither a contact list nor a tag was chosen. */
  ERR_CAMPAIGN_NO_LIST: 400,
  /**
   * Flow builder: the saved graph breaks a rule; `node` names the node (or `connection`
   * the edge), `reason` is one of FLOW_GRAPH_PROBLEMS and `field` the invalid data field.
   */
  ERR_FLOW_INVALID: 400,
  /**
   * A URL the server would call (bot integration, webhook, a service-account key's token_uri) is
   * not http(s) or leads to a non-public address; `field` names it.
   */
  ERR_URL_NOT_ALLOWED: 400,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** Shape of every error answer. Extra fields (field, dueDate, ticket) depend on the code. */
export interface ApiErrorBody {
  error: ErrorCode;
  /** For ERR_VALIDATION: the dotted path of the first invalid field. */
  field?: string;
  message?: string;
  [extra: string]: unknown;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in ERROR_STATUS;
}
