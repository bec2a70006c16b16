/** The message readers: they live in db/ with the other row readers channels and modules share. */
export * from '../../db/message-repository.js';
