/** Queries and mutations of the /files page (document 2 sections 2, 6 and 8 "Files"). */
import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type { FileListRecord, FileListsPage } from '@zapdesk/shared';
import { api } from '../../lib/api';
import { useRecordQuery, useSearchedList } from '../../lib/record-queries';

export const fileListsKeys = {
  all: ['file-lists'] as const,
  list: (search: string) => ['file-lists', 'page', search] as const,
  detail: (id: number) => ['file-lists', id] as const,
};

/** GET /files?searchParam=&pageNumber= as an infinite list. */
export function useFileLists(search: string) {
  return useSearchedList<FileListsPage>(fileListsKeys.list(search), '/files', search);
}

/** GET /files/:id when `id` is set. */
export function useFileList(id: number | null | undefined) {
  return useRecordQuery<FileListRecord>(fileListsKeys.detail(id ?? 0), '/files', id);
}

/** One row of the dialog's file options: an existing option (`id`) or a new one, with a chosen file. */
export interface FileOptionDraft {
  /** Row key in the dialog. */
  uid: number;
  id?: number;
  name: string;
  file?: File | null;
}

/**
 * Saves a file list (POST /files or PUT /files/:id with the kept and empty options), then uploads
 * the chosen files in one POST /files/uploadList/:id (fileId, typeArch 'fileList', then per file:
 * files, mediaType, name, id; a file for a new option goes without id and creates it).
 */
export function useSaveFileList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      id,
      name,
      message,
      options,
    }: {
      id?: number | null;
      name: string;
      message: string;
      options: FileOptionDraft[];
    }) => {
      const body = {
        name,
        message,
        options: options
          .filter((o) => o.id !== undefined || !o.file)
          .map((o) => ({ id: o.id, name: o.name })),
      };
      let saved =
        typeof id === 'number'
          ? await api.put<FileListRecord>(`/files/${id}`, body)
          : await api.post<FileListRecord>('/files', body);
      const uploads = options.filter((o) => o.file);
      if (uploads.length) {
        const form = new FormData();
        form.append('fileId', String(saved.id));
        form.append('typeArch', 'fileList');
        for (const option of uploads) {
          form.append('files', option.file!);
          form.append('mediaType', option.file!.type);
          form.append('name', option.name);
          form.append('id', option.id === undefined ? '' : String(option.id));
        }
        saved = await api.post<FileListRecord>(`/files/uploadList/${saved.id}`, form);
      }
      return saved;
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: fileListsKeys.all }),
  });
}

/** DELETE /files/:id. */
export function useDeleteFileList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/files/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: fileListsKeys.all }),
  });
}

/** `company-{id}-file` (create, update, delete): the file lists reload. */
export function applyFileListEvent(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: fileListsKeys.all });
}
