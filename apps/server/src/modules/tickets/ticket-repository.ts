/** The ticket readers: they live in db/ with the other row readers channels and modules share. */
export * from '../../db/ticket-repository.js';
