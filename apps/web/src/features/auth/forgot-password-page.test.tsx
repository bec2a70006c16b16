import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../lib/i18n';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { ForgotPasswordPage } from './forgot-password-page';

describe('ForgotPasswordPage (/forgetpsw)', () => {
  const fetchMock = stubFetch(({ url, init }) => {
    const body = JSON.parse(String(init?.body ?? '{}'));
    if (url === '/api/forgetpassword')
      return body.email === 'ana@loja.com'
        ? json(200, { status: 'ok' })
        : json(404, { error: 'ERR_NO_USER_FOUND' });
    if (url === '/api/resetpasswords')
      return body.token === '12345678'
        ? json(200, { status: 'ok' })
        : json(400, { error: 'ERR_INVALID_RESET_CODE' });
    return json(404, { error: 'ERR_NOT_FOUND' });
  });
  beforeEach(async () => {
    await i18n.changeLanguage('pt');
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18n.changeLanguage('en');
  });

  const renderPage = () =>
    renderWithProviders(
      <Routes>
        <Route path="/forgetpsw" element={<ForgotPasswordPage />} />
        <Route path="/login" element={<div data-testid="login-page" />} />
      </Routes>,
      { route: '/forgetpsw' },
    );

  it('mails a code, then sets the new password with the code (values in the body) and goes to /login', async () => {
    renderPage();
    await userEvent.type(screen.getByTestId('forgot-email'), 'ana@loja.com');
    await userEvent.click(screen.getByTestId('forgot-send'));
    await screen.findByText('E-mail enviado com sucesso! Verifique sua caixa de entrada.');
    expect((screen.getByTestId('reset-email') as HTMLInputElement).value).toBe('ana@loja.com');

    await userEvent.type(screen.getByTestId('reset-code'), '12345678');
    await userEvent.type(screen.getByTestId('reset-password'), 'fraca');
    await userEvent.type(screen.getByTestId('reset-confirm'), 'outra');
    await userEvent.click(screen.getByTestId('reset-submit'));
    await screen.findByText('As senhas não correspondem');
    expect(screen.getByText(/Muito curto!/)).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([u]) => String(u) === '/api/resetpasswords')).toHaveLength(0);

    await userEvent.clear(screen.getByTestId('reset-password'));
    await userEvent.type(screen.getByTestId('reset-password'), 'semdigitoS');
    await userEvent.click(screen.getByTestId('reset-submit'));
    await screen.findByText(/pelo menos 8 caracteres, com um número/);

    await userEvent.clear(screen.getByTestId('reset-password'));
    await userEvent.type(screen.getByTestId('reset-password'), 'NovaSenha1');
    await userEvent.clear(screen.getByTestId('reset-confirm'));
    await userEvent.type(screen.getByTestId('reset-confirm'), 'NovaSenha1');
    await userEvent.click(screen.getByTestId('reset-submit'));
    await screen.findByTestId('login-page');
    const call = fetchMock.mock.calls.find(([u]) => String(u) === '/api/resetpasswords')!;
    expect(JSON.parse(String(call[1]!.body))).toEqual({
      email: 'ana@loja.com',
      token: '12345678',
      password: 'NovaSenha1',
    });
    expect(fetchMock.mock.calls.every(([u]) => !String(u).includes('NovaSenha1'))).toBe(true);
  });

  it('says the e-mail is unknown on 404 and stays on step 1', async () => {
    renderPage();
    await userEvent.type(screen.getByTestId('forgot-email'), 'ninguem@loja.com');
    await userEvent.click(screen.getByTestId('forgot-send'));
    await screen.findByText('E-mail não encontrado.');
    expect(screen.getByTestId('forgot-step-email')).toBeTruthy();
  });

  it('shows the generic code error and lets the user ask again', async () => {
    renderPage();
    await userEvent.type(screen.getByTestId('forgot-email'), 'ana@loja.com');
    await userEvent.click(screen.getByTestId('forgot-send'));
    await screen.findByTestId('forgot-step-reset');
    await userEvent.type(screen.getByTestId('reset-code'), '99999999');
    await userEvent.type(screen.getByTestId('reset-password'), 'NovaSenha1');
    await userEvent.type(screen.getByTestId('reset-confirm'), 'NovaSenha1');
    await userEvent.click(screen.getByTestId('reset-submit'));
    await screen.findByText('Código inválido ou expirado. Peça um novo código.');
    await userEvent.click(screen.getByTestId('forgot-send-again'));
    await waitFor(() =>
      expect((screen.getByTestId('forgot-email') as HTMLInputElement).value).toBe('ana@loja.com'),
    );
  });
});
