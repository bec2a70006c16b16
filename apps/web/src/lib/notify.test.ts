import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import i18n from './i18n';
import { errorMessage, onToastNeeded, setToastApi, showToast, type ToastApi } from './notify';

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
    expect(errorMessage(new ApiError(400, { message: 'Limite atingido' } as never))).toBe('Limite atingido');
  });

  it('only logs an answer with neither a code nor a text (no "HTTP 400" toast)', () => {
    expect(errorMessage(new ApiError(400, null))).toBeNull();
    expect(errorMessage(new ApiError(502, null, '<html><body>Bad Gateway</body></html>'))).toBeNull();
    expect(errorMessage(new ApiError(0, null, 'Failed to fetch'))).toBe(i18n.t('errors.network'));
  });

  it('names the field of a validation error', () => {
    expect(errorMessage(new ApiError(400, { error: 'ERR_VALIDATION', field: 'email' }))).toBe(
      'Invalid data. Check the fields. (email)',
    );
  });
});

describe('showToast', () => {
  const fakeApi = () => {
    const api = Object.assign(vi.fn(), { error: vi.fn(), warn: vi.fn(), success: vi.fn(), info: vi.fn() });
    return api as unknown as ToastApi & typeof api;
  };

  it('shows at once once the toast library is in hand', () => {
    const api = fakeApi();
    setToastApi(api);
    showToast('error', 'Falhou', { toastId: 'Falhou' });
    expect(api.error).toHaveBeenCalledWith('Falhou', { toastId: 'Falhou' });
    showToast('warning', 'Vence logo');
    expect(api.warn).toHaveBeenCalledWith('Vence logo', undefined);
  });

  it('asks for a container first and waits until it is mounted', async () => {
    const api = fakeApi();
    setToastApi(api);
    let mounted = () => {};
    const listener = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          mounted = resolve;
        }),
    );
    const off = onToastNeeded(listener);
    try {
      showToast('error', 'Sem rede');
      expect(listener).toHaveBeenCalledTimes(1);
      await Promise.resolve();
      expect(api.error).not.toHaveBeenCalled();
      mounted();
      await vi.waitFor(() => expect(api.error).toHaveBeenCalledWith('Sem rede', undefined));
    } finally {
      off();
    }
  });
});
