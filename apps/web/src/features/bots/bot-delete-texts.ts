import type { TFunction } from 'i18next';
import type { ConfirmDeleteTexts } from '../common/list-page';

/**
 * The delete confirmation's texts of a bots page (`kind` 'prompts' or 'integrations'):
 * `bots.{kind}.confirmDelete` given the record's name, the shared `bots.confirmDeleteMessage` and
 * the toast `bots.{kind}.deleted`.
 */
export function botDeleteTexts<T extends { name: string }>(
  t: TFunction,
  kind: 'prompts' | 'integrations',
): ConfirmDeleteTexts<T> {
  return {
    title: (record) => t(`bots.${kind}.confirmDelete`, { name: record?.name ?? '' }),
    message: t('bots.confirmDeleteMessage'),
    deletedMessage: t(`bots.${kind}.deleted`),
  };
}
