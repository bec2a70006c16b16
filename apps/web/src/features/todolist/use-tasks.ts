/** The browser-only task list of /todolist (core section 2), kept in local storage `tasks`. */
import { STORAGE_KEYS } from '@zapdesk/shared';
import { useCallback, useState } from 'react';
import { readJson, writeJson } from '../../lib/storage';

/** A local task (core section 3): text and ISO timestamps. */
export interface Task {
  id: string;
  text: string;
  createdAt: string;
  updatedAt: string;
}

const newId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** Reads the stored tasks, dropping entries that are not tasks. */
export function loadTasks(): Task[] {
  const stored = readJson<unknown>(STORAGE_KEYS.todo, []);
  if (!Array.isArray(stored)) return [];
  return stored
    .filter((t): t is Partial<Task> & { text: string } => typeof t?.text === 'string')
    .map((t) => {
      const at = t.updatedAt ?? t.createdAt ?? new Date().toISOString();
      return { id: t.id ?? newId(), text: t.text, createdAt: t.createdAt ?? at, updatedAt: at };
    });
}

/** The task list with add, update and remove; blank text is ignored. */
export function useTasks() {
  const [tasks, setTasks] = useState<Task[]>(loadTasks);

  const commit = useCallback((next: Task[]) => {
    writeJson(STORAGE_KEYS.todo, next);
    setTasks(next);
  }, []);

  const add = useCallback(
    (text: string): boolean => {
      const clean = text.trim();
      if (!clean) return false;
      const now = new Date().toISOString();
      commit([...loadTasks(), { id: newId(), text: clean, createdAt: now, updatedAt: now }]);
      return true;
    },
    [commit],
  );

  const update = useCallback(
    (id: string, text: string): boolean => {
      const clean = text.trim();
      if (!clean) return false;
      const now = new Date().toISOString();
      commit(loadTasks().map((t) => (t.id === id ? { ...t, text: clean, updatedAt: now } : t)));
      return true;
    },
    [commit],
  );

  const remove = useCallback((id: string) => commit(loadTasks().filter((t) => t.id !== id)), [commit]);

  return { tasks, add, update, remove };
}
