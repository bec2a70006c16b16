import { beforeAll, describe, expect, it } from 'vitest';
import { a, t, useConnectionSuite, whatsappId } from '../../test/connection-suite.js';
import { bearer, customerNumber, injectMessage } from '../../test/factories.js';
import { campaignsAnyHour } from '../../test/fixtures.js';

useConnectionSuite();
beforeAll(async () => {
  await campaignsAnyHour(t.app, a.admin);
});

async function api(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  const res = await t.app.inject({ method, url, headers: bearer(a.admin), payload });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

const outbox = (number: string) => t.app.simulator.outbox(whatsappId, number).map((m) => m.body);

describe('campaign variables', () => {
  it('fills {key} as /campaigns-config teaches, {{key}} and the message variables in what is shipped', async () => {
    await api('POST', '/api/campaign-settings', {
      settings: { variables: [{ key: 'empresa', value: 'Padaria Central' }] },
    });
    const list = await api('POST', '/api/contact-lists', { name: 'Variáveis' });
    const number = customerNumber();
    await api('POST', '/api/contact-list-items', { contactListId: list.id, name: 'Ana Souza', number });
    const campaign = await api('POST', '/api/campaigns', {
      whatsappId,
      name: 'Com variáveis',
      message1: 'Olá {firstName}, a {empresa} ({{empresa}}) avisa {nome_inexistente}. {{name}}',
      contactListId: list.id,
      confirmation: true,
      confirmationMessage1: '{empresa} agradece, {name}!',
    });
    await api('POST', `/api/campaigns/${campaign.id}/restart`);
    await t.app.jobs.drain();
    expect(outbox(number)).toEqual([
      'Olá Ana, a Padaria Central (Padaria Central) avisa {nome_inexistente}. Ana Souza',
    ]);
    await injectMessage(t.app, a.admin, whatsappId, { from: number, body: 'Sim' });
    await expect.poll(() => outbox(number).length).toBe(2);
    expect(outbox(number)[1]).toBe('Padaria Central agradece, Ana Souza!');
  });
});
