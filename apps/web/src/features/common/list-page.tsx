import { Stack } from '@mui/material';
import { type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteDialog } from './confirmation-dialog';
import { ListPageHeader, type ListPageHeaderProps } from './list-page-header';
import { useEditTarget, useSearchBox } from './use-list-page';

export interface ListPageProps extends ListPageHeaderProps {
  /** The page fills the window's height below the top bar (for a scrolling list); default false. */
  fill?: boolean;
  /** The page's body: its table or list. */
  children: ReactNode;
  /** The open add/edit form (usually lazy); rendered inside a Suspense with no fallback. */
  modal?: ReactNode;
  /** The delete confirmation, as `useConfirmDelete` gives it. */
  deleteDialog?: ReactNode;
  /** The page's data-testid. */
  testId?: string;
}

/**
 * A list page's frame: the header (title, search, add), the body, the lazily loaded add/edit form
 * and the delete confirmation, in a column.
 */
export function ListPage({ fill = false, children, modal, deleteDialog, testId, ...header }: ListPageProps) {
  return (
    <Stack spacing={2} sx={fill ? { height: 'calc(100vh - 112px)' } : undefined} data-testid={testId}>
      <ListPageHeader {...header} />
      {children}
      {modal && <Suspense fallback={null}>{modal}</Suspense>}
      {deleteDialog}
    </Stack>
  );
}

export interface ConfirmDeleteTexts<T> {
  /** The dialog's title for the record (null while the dialog closes). */
  title: (record: T | null) => string;
  message: string;
  /** The toast shown once the record is deleted. */
  deletedMessage: string;
}

/** A delete mutation, called with the record's id. */
export interface DeleteMutation {
  mutate: (id: number, options: { onSuccess: () => void }) => void;
}

/**
 * "Delete with confirmation and toast" for a list page: `ask(record)` opens the yes/no dialog,
 * `dialog` is the element to render; on yes `remove` deletes the record and the deleted message is
 * toasted. `texts` is either the texts themselves or a translation namespace `ns` whose
 * `ns.confirmDelete.title` (given the record's `name`), `ns.confirmDelete.message` and
 * `ns.toasts.deleted` are used.
 */
export function useConfirmDelete<T extends { id: number }>(
  remove: DeleteMutation,
  texts: T extends { name: string } ? string | ConfirmDeleteTexts<T> : ConfirmDeleteTexts<T>,
) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<T | null>(null);
  const ns: string | null = typeof texts === 'string' ? texts : null;
  const key = (suffix: string): string => `${ns}.${suffix}`;
  const { title, message, deletedMessage }: ConfirmDeleteTexts<T> =
    ns === null
      ? (texts as ConfirmDeleteTexts<T>)
      : {
          title: (record) =>
            t(key('confirmDelete.title'), { name: (record as { name?: string } | null)?.name ?? '' }),
          message: t(key('confirmDelete.message')),
          deletedMessage: t(key('toasts.deleted')),
        };
  const dialog = (
    <ConfirmDeleteDialog
      target={target}
      title={title(target)}
      message={message}
      deletedMessage={deletedMessage}
      remove={remove}
      onClose={() => setTarget(null)}
    />
  );
  return { ask: setTarget as (record: T) => void, dialog };
}

export interface RecordListPageOptions<T, M> {
  /**
   * The translation namespace: `ns.title`, `ns.search`, `ns.add`, the row buttons' `ns.edit` and
   * `ns.delete` (given `rowNames(row)`) and the delete texts as `useConfirmDelete` reads a namespace.
   */
  ns: string;
  /** The search box's data-testid; absent for a page without a search box. */
  searchTestId?: string;
  /** How the typed search becomes the server's (default: trimmed). */
  normalize?: (text: string) => string;
  /** The add button's data-testid and icon (default a plus sign). */
  addTestId: string;
  addIcon?: ReactNode;
  /** What the add/edit dialog edits for a new record and for the row `row`. */
  blank: M;
  edit: (row: T) => M;
  /** The delete mutation (called with the row's id). */
  remove: DeleteMutation;
  /** The delete texts, when not the namespace's. */
  deleteTexts?: ConfirmDeleteTexts<T>;
  /** Keys that differ from the namespace's: the search label, the row buttons' names. */
  keys?: { search?: string; edit?: string; delete?: string };
  /** The values the row buttons' names are given (default the row's `name`). */
  rowNames?: (row: T) => Record<string, string>;
  /**
   * The field that names a row when it is not `name` (e.g. `title`): the row buttons' names and the
   * namespace's delete title are given it under its own key.
   */
  nameKey?: keyof T & string;
}

/**
 * A record list page's state: `param` (the debounced search for the list query), the add/edit
 * dialog's `target` and `close`, `frame` (ListPage's title, search, add and deleteDialog, to spread)
 * and `actions(row)` (RowActions' props for a row but its testIdPrefix: edit opens the dialog on
 * `edit(row)`, delete asks for confirmation first).
 */
export function useRecordListPage<T extends { id: number }, M>(options: RecordListPageOptions<T, M>) {
  const { ns, keys = {} } = options;
  const { t } = useTranslation();
  const search = useSearchBox(
    t(keys.search ?? `${ns}.search`),
    options.searchTestId ?? '',
    options.normalize,
  );
  const modal = useEditTarget<M>(options.blank, {
    label: t(`${ns}.add`),
    testId: options.addTestId,
    ...(options.addIcon ? { icon: options.addIcon } : {}),
  });
  const nameKey = options.nameKey ?? 'name';
  const named = (row: T | null): Record<string, string> => ({
    [nameKey]: String((row as Record<string, unknown> | null)?.[nameKey] ?? ''),
  });
  const keyTexts: ConfirmDeleteTexts<T> | undefined = options.nameKey && {
    title: (record) => t(`${ns}.confirmDelete.title`, named(record)),
    message: t(`${ns}.confirmDelete.message`),
    deletedMessage: t(`${ns}.toasts.deleted`),
  };
  const confirmDelete = useConfirmDelete<T>(options.remove, (options.deleteTexts ?? keyTexts ?? ns) as never);
  const rowNames: (row: T) => Record<string, string> = options.rowNames ?? named;
  return {
    param: search.param,
    target: modal.target,
    close: modal.close,
    frame: {
      title: t(`${ns}.title`),
      search: options.searchTestId === undefined ? undefined : search.box,
      add: modal.add,
      deleteDialog: confirmDelete.dialog,
    },
    actions: (row: T) => ({
      id: row.id,
      editLabel: t(keys.edit ?? `${ns}.edit`, rowNames(row)),
      onEdit: () => modal.open(options.edit(row)),
      deleteLabel: t(keys.delete ?? `${ns}.delete`, rowNames(row)),
      onDelete: () => confirmDelete.ask(row),
    }),
  };
}
