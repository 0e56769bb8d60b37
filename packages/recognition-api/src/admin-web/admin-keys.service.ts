import { API_SCOPES, type ApiScope, type KeysRepo } from '../keys/keys.repo.js';
import { AdminError, formError } from './admin-errors.js';
import type { AdminKeysRepo, KeyOverview } from './admin-keys.repo.js';

/** The create form as posted (strings; `scopes` one value per checked box). */
export interface CreateKeyForm {
  name?: unknown;
  scopes?: unknown;
}

/** Names of the scopes in the interface. */
export const SCOPE_LABELS: Record<ApiScope, string> = { recognition: 'Распознавание', edo: 'ЭДО (шлюз оператора)' };

/**
 * The API keys section (issue 10, item 3; Spec: Authentication, rule 1): list with usage, create (the key is
 * returned once), deactivate and reactivate. Deactivation takes effect on the next request (the key check reads
 * the row every time).
 */
export class AdminKeysService {
  constructor(private readonly deps: { keys: KeysRepo; overview: AdminKeysRepo }) {}

  list(): Promise<KeyOverview[]> {
    return this.deps.overview.overview();
  }

  /** @throws AdminError VALIDATION naming `name` or `scopes`; nothing is created then. */
  async create(form: CreateKeyForm): Promise<{ key: string; callbackSecret: string; id: string; name: string; scopes: ApiScope[] }> {
    const name = typeof form.name === 'string' ? form.name.trim() : '';
    if (!name) throw formError('name', 'Укажите название ключа, например «Бухгалтерия».');
    if (name.length > 100) throw formError('name', 'Название ключа должно быть не длиннее 100 символов.');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the check
    if (/[\u0000-\u001f\u007f]/.test(name)) throw formError('name', 'Название ключа не должно содержать управляющих символов.');
    const raw = form.scopes === undefined ? [] : Array.isArray(form.scopes) ? form.scopes : [form.scopes];
    const scopes = [...new Set(raw.map(String))];
    if (scopes.length === 0) throw formError('scopes', 'Выберите хотя бы одну область доступа.');
    if (!scopes.every((s) => (API_SCOPES as readonly string[]).includes(s))) throw formError('scopes', 'Неизвестная область доступа.');
    const ordered = API_SCOPES.filter((s) => scopes.includes(s));
    const { key, callbackSecret, record } = await this.deps.keys.create(name, undefined, ordered);
    return { key, callbackSecret, id: record.id, name: record.name, scopes: record.scopes };
  }

  /** @throws AdminError NOT_FOUND when there is no such active key. */
  async deactivate(id: string): Promise<void> {
    if (!(await this.deps.keys.deactivate(id))) throw new AdminError('NOT_FOUND', 'Такого действующего ключа нет (возможно, он уже отключён).');
  }

  /** @throws AdminError NOT_FOUND when there is no such deactivated key. */
  async reactivate(id: string): Promise<void> {
    if (!(await this.deps.keys.reactivate(id))) throw new AdminError('NOT_FOUND', 'Такого отключённого ключа нет (возможно, он уже включён).');
  }
}
