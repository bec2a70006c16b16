/** Ticket visibility: it lives in db/ beside the ticket readers, for channels and modules alike. */
export * from '../../db/ticket-visibility.js';
