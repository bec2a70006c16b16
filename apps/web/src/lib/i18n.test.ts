import { ERROR_CODES } from '@zapdesk/shared';
import { describe, expect, it } from 'vitest';
import en from '../locales/en.json';
import es from '../locales/es.json';
import pt from '../locales/pt.json';
import i18n from './i18n';

type Tree = { [key: string]: string | Tree };

function keysOf(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );
}

describe('locales', () => {
  const ptKeys = keysOf(pt).sort();

  it('pt, en and es have exactly the same keys', () => {
    expect(keysOf(en).sort()).toEqual(ptKeys);
    expect(keysOf(es).sort()).toEqual(ptKeys);
  });

  it('have no empty strings', () => {
    for (const lng of ['pt', 'en', 'es']) {
      const t = i18n.getFixedT(lng);
      const empty = ptKeys.filter((key) => !/_(zero|one|other)$/.test(key) && t(key).trim() === '');
      expect(empty).toEqual([]);
      expect(ptKeys.filter((key) => t(key) === key && !/_(zero|one|other)$/.test(key))).toEqual([]);
    }
  });

  it('translate every error code of the shared catalogue', () => {
    for (const code of ERROR_CODES) expect(ptKeys).toContain(`errors.${code}`);
  });

  it('keep the spec pt strings literally', () => {
    const pt_ = i18n.getFixedT('pt');
    expect(pt_('pages.noPermission')).toBe('Acesso não permitido');
    // The CRM's messages (document 3 section 8), kept in the billing section and nested.
    expect(pt_('errors.ERR_CRM_VERIFY')).toBe('Erro ao verificar dados no CRM.');
    expect(pt_('errors.ERR_CRM_CREATE_INVOICE', { message: 'Sem cliente' })).toBe(
      'Erro ao criar fatura no Perfex CRM: Sem cliente',
    );
    expect(pt_('errors.ERR_CRM_INVOICE_NOT_SAVED')).toBe(
      'A fatura foi gerada no CRM, mas houve um erro ao salvá-la em nosso sistema.',
    );
    expect(pt_('auth.duplicateLogin')).toBe('Sua conta foi acessada em outro computador.');
    expect(pt_('users.confirmDelete.message')).toBe('Deseja realmente excluir este registro?');
  });

  it('words the due-date warning in singular and plural', () => {
    const pt_ = i18n.getFixedT('pt');
    expect(pt_('auth.dueDateWarning', { count: 1 })).toBe('Sua assinatura vence em 1 dia');
    expect(pt_('auth.dueDateWarning', { count: 3 })).toBe('Sua assinatura vence em 3 dias');
    expect(pt_('auth.dueDateWarning', { count: 0 })).toBe('Sua assinatura vence hoje');
    expect(i18n.getFixedT('en')('auth.dueDateWarning', { count: 1 })).toBe(
      'Your subscription expires in 1 day',
    );
  });

  it('words zero in the plural in every language (pt plural rules read 0 as one: "0 ticket")', () => {
    const pt_ = i18n.getFixedT('pt');
    expect(pt_('kanban.count', { count: 0 })).toBe('0 tickets');
    expect(pt_('kanban.count', { count: 1 })).toBe('1 ticket');
    expect(pt_('billing.users', { count: 0 })).toBe('0 usuários');
    const singular = ptKeys.filter((key) => key.endsWith('_one')).map((key) => key.slice(0, -4));
    expect(singular.filter((key) => !ptKeys.includes(`${key}_zero`))).toEqual([]);
  });

  it('words the tags column of tagged tickets in real pt', () => {
    expect(i18n.getFixedT('pt')('tags.table.tickets')).toBe('Tickets com a tag');
  });
});
