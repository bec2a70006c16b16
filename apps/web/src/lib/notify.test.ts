import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import i18n from './i18n';
import { errorMessage } from './notify';

describe('errorMessage', () => {
  it('translates a known error code', async () => {
    await i18n.changeLanguage('pt');
    expect(errorMessage(new ApiError(409, { error: 'ERR_OTHER_OPEN_TICKET' }))).toBe(
      'Já existe um atendimento aberto para este contato.',
    );
    await i18n.changeLanguage('en');
  });

  it('shows unknown text as it is', () => {
    expect(errorMessage(new ApiError(400, { error: 'PENDING_INVOICE' as never }))).toBe('PENDING_INVOICE');
    expect(errorMessage(new ApiError(500, null, 'Bad gateway'))).toBe('Bad gateway');
  });

  it('names the field of a validation error', () => {
    expect(errorMessage(new ApiError(400, { error: 'ERR_VALIDATION', field: 'email' }))).toBe(
      'Invalid data. Check the fields. (email)',
    );
  });
});
