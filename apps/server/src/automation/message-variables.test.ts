import { describe, expect, it } from 'vitest';
import { fillCampaignText, fillVariables, greetingFor, protocolOf } from './message-variables.js';

describe('message variables', () => {
  const context = {
    contactName: '  Maria  da Silva ',
    ticketId: 42,
    ticketCreatedAt: new Date('2026-11-20T02:30:00Z'), // 19/11 23:30 in São Paulo
    now: new Date('2026-11-21T13:05:09Z'), // 10:05:09 in São Paulo
  };

  it('fills first name, name, greeting, protocol, date and hour in São Paulo time', () => {
    expect(fillVariables('{{ms}}, {{firstName}}! ({{name}}) #{{protocol}} {{date}} {{hour}}', context)).toBe(
      'Bom dia, Maria! (Maria  da Silva) #20261119000042 21/11/2026 10:05:09',
    );
  });

  it('leaves unknown placeholders and plain text alone', () => {
    expect(fillVariables('Olá {{unknown}}', context)).toBe('Olá {{unknown}}');
    expect(fillVariables('sem variáveis', context)).toBe('sem variáveis');
    // Names of an object's own machinery are not variables either.
    expect(fillVariables('{{toString}} {{constructor}}', context)).toBe('{{toString}} {{constructor}}');
    expect(fillCampaignText('{toString}', context, [])).toBe('{toString}');
  });

  it('greets by time of day', () => {
    expect([3, 6, 11, 12, 17, 18, 23].map(greetingFor)).toEqual([
      'Boa madrugada',
      'Bom dia',
      'Bom dia',
      'Boa tarde',
      'Boa tarde',
      'Boa noite',
      'Boa noite',
    ]);
    expect(protocolOf(7, new Date('2026-01-01T12:00:00Z'))).toBe('20260101000007');
  });

  it('fills a campaign text written with one or two braces, message variables first', () => {
    const variables = [
      { key: 'empresa', value: 'Zapdesk Ltda' },
      { key: 'name', value: 'not this' },
      { key: 'loop', value: '{empresa}' },
    ];
    expect(
      fillCampaignText(
        '{ms}, {firstName}! A {empresa} ({{empresa}}, { empresa }) {{name}} {loop} {outra} {} {{x}} {a b}',
        context,
        variables,
      ),
    ).toBe(
      'Bom dia, Maria! A Zapdesk Ltda (Zapdesk Ltda, Zapdesk Ltda) Maria  da Silva {empresa} {outra} {} {{x}} {a b}',
    );
    expect(fillCampaignText('sem chaves', context, variables)).toBe('sem chaves');
    // The same variable twice has the same value (each is computed once per text).
    expect(fillCampaignText('{{hour}} {hour} {{firstName}}', context, [])).toBe('10:05:09 10:05:09 Maria');
  });
});
