import fs from 'node:fs';
import path from 'node:path';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { V } from '@zapdesk/shared';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../lib/i18n';
import { CLASSIC_WORDING, MESSAGE_WORDING, validationText } from '../../lib/validation-text';
import pt from '../../locales/pt.json';
import { createSessionUser } from '../../test/fixtures';
import { json } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { AnnouncementModal } from '../announcements/announcement-modal';
import { ForgotPasswordPage } from '../auth/forgot-password-page';
import { SignupPage } from '../auth/signup-page';
import { IntegrationModal } from '../bots/integration-modal';
import { PromptModal } from '../bots/prompt-modal';
import { ContactListItemModal, ContactListModal } from '../contact-lists/contact-list-modals';
import { ContactModal } from '../contacts/contact-modal';
import { FileListModal } from '../files/file-list-modal';
import { ScheduleModal } from '../schedules/schedule-modal';

/** English validation wording (ours and zod's defaults) that must never show on a pt screen. */
const ENGLISH =
  /\b(required|too short|too long|invalid (email|value|phone|input)|enter a name|expected \w+, received)\b/i;

type Tree = { [key: string]: string | Tree };
const entries = (tree: Tree, prefix = ''): [string, string][] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : entries(value, `${prefix}${key}.`),
  );

/** Source files (tests excluded) under `dir`. */
const sources = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });

describe('validation messages in pt', () => {
  const ptT = i18n.getFixedT('pt');

  it('the pt strings hold no English validation words but the ones the spec quotes (validation.classic)', () => {
    const english = entries(pt as Tree).filter(
      ([key, text]) => ENGLISH.test(text) && !key.startsWith('validation.classic.'),
    );
    expect(english).toEqual([]);
  });

  it('every validation key reads as Portuguese text under every wording of the forms', () => {
    const wordings = [undefined, MESSAGE_WORDING, { tooShort: 'nameTooShort', required: 'nameRequired' }];
    for (const key of Object.values(V)) {
      for (const wording of wordings) {
        const text = validationText(ptT, key, wording);
        expect(text).not.toBe(key);
        expect(text).not.toMatch(ENGLISH);
      }
    }
    expect(validationText(ptT, V.required)).toBe('Obrigatório');
    expect(validationText(ptT, V.tooShort, MESSAGE_WORDING)).toBe('Mensagem muito curta');
    // The user and queue-integration forms keep the spec's quoted words (core section 5).
    expect(validationText(ptT, V.tooShort, CLASSIC_WORDING)).toBe('Too Short!');
    expect(validationText(i18n.getFixedT('es'), V.required, CLASSIC_WORDING)).toBe('Obligatorio');
  });

  it('no screen maps validation keys to text but through lib/validation-text.ts', () => {
    const src = path.resolve(__dirname, '../..');
    const own = path.join(src, 'lib', 'validation-text.ts');
    const elsewhere = sources(src).filter(
      (file) => file !== own && /['"`]validation\.\$\{/.test(fs.readFileSync(file, 'utf8')),
    );
    expect(elsewhere.map((file) => path.relative(src, file))).toEqual([]);
  });
});

describe('pt screens show Portuguese validation messages', () => {
  const admin = createSessionUser({ profile: 'admin' }, { useCampaigns: true, useOpenAi: true });

  beforeEach(async () => {
    await i18n.changeLanguage('pt');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(404, { error: 'ERR_NOT_FOUND' })),
    );
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await i18n.changeLanguage('en');
  });

  /** Renders `ui`, lets `fill` type into it, presses `submit` and waits for every `expected` text. */
  async function expectPortuguese(
    ui: ReactElement,
    submit: string,
    expected: string[],
    fill?: (user: ReturnType<typeof userEvent.setup>) => Promise<void>,
  ) {
    const user = userEvent.setup();
    renderWithProviders(ui, { user: admin });
    await fill?.(user);
    await user.click(await screen.findByTestId(submit));
    for (const text of expected) expect((await screen.findAllByText(text)).length).toBeGreaterThan(0);
    await waitFor(() => expect(document.body.textContent).not.toMatch(ENGLISH));
  }

  it('signup', async () => {
    await expectPortuguese(<SignupPage />, 'signup-submit', ['Obrigatório']);
  });

  it('password reset', async () => {
    await expectPortuguese(<ForgotPasswordPage />, 'forgot-send', ['Obrigatório']);
  });

  it('schedules', async () => {
    await expectPortuguese(
      <ScheduleModal onClose={() => {}} />,
      'schedule-save',
      ['Obrigatório', 'Mensagem muito curta'],
      async (user) => user.type(await screen.findByTestId('schedule-body'), 'Oi'),
    );
  });

  it('announcements', async () => {
    await expectPortuguese(<AnnouncementModal record={null} onClose={() => {}} />, 'announcement-save', [
      'Obrigatório',
    ]);
  });

  it('file lists', async () => {
    await expectPortuguese(
      <FileListModal open onClose={() => {}} />,
      'file-list-save',
      ['Nome muito curto', 'Obrigatório'],
      async (user) => user.type(await screen.findByTestId('file-list-name'), 'ab'),
    );
  });

  it('prompts', async () => {
    await expectPortuguese(<PromptModal promptId={null} onClose={() => {}} />, 'prompt-save', [
      'Obrigatório',
    ]);
  });

  it('contact lists and their contacts', async () => {
    await expectPortuguese(
      <ContactListModal listId={null} onClose={() => {}} />,
      'contact-list-save',
      ['Muito curto!'],
      async (user) => user.type(await screen.findByTestId('contact-list-name'), 'a'),
    );
  });

  it('contact list items', async () => {
    await expectPortuguese(
      <ContactListItemModal listId={5} itemId={null} onClose={() => {}} />,
      'contact-list-item-save',
      ['Obrigatório'],
    );
  });

  it('the contact form', async () => {
    await expectPortuguese(
      <ContactModal open onClose={() => {}} />,
      'contact-modal-save',
      ['Muito curto!', 'E-mail inválido'],
      async (user) => {
        await user.type(await screen.findByLabelText('Nome'), 'A');
        await user.type(screen.getByLabelText('Endereço de email'), 'ruim');
      },
    );
  });

  it("the queue-integration form keeps the spec's quoted words (document 2 section 5)", async () => {
    const user = userEvent.setup();
    renderWithProviders(<IntegrationModal integrationId={null} onClose={() => {}} />, { user: admin });
    await user.type(screen.getByTestId('integration-name'), 'a');
    await user.click(screen.getByTestId('integration-save'));
    expect(await screen.findByText('Too Short!')).toBeTruthy();
  });
});
