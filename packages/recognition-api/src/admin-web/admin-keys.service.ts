import { AdminError, formError } from '@app/admin-web';
import type { Clock } from '@app/shared';
import type { KeyUsageCounter } from '../keys/key-usage.js';
import type { KeyOverview, KeysQueries } from '../keys/keys.queries.js';
import { API_SCOPES, type ApiScope, type KeysRepo } from '../keys/keys.repo.js';

/** The create form as posted (strings; `scopes` one value per checked box). */
export interface CreateKeyForm {
  name?: unknown;
  scopes?: unknown;
}

/** Names of the scopes in the interface. */
export const SCOPE_LABELS: Record<ApiScope, string> = { recognition: 'Распознавание', edo: 'ЭДО (шлюз оператора)' };

/** Checked scopes of a form (one value or several), in API_SCOPES order. @throws AdminError VALIDATION naming `scopes`. */
function parseScopes(value: unknown): ApiScope[] {
  const raw = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const scopes = [...new Set(raw.map(String))];
  if (scopes.length === 0) throw formError('scopes', 'Выберите хотя бы одну область доступа.');
  if (!scopes.every((s) => (API_SCOPES as readonly string[]).includes(s))) throw formError('scopes', 'Неизвестная область доступа.');
  return API_SCOPES.filter((s) => scopes.includes(s));
}

/**
 * The API keys section (docs/admin-panel.md; Spec: Authentication, rule 1): list with usage, create (the key is
 * returned once), deactivate and reactivate. Deactivation takes effect on the next request (the key check reads
 * the row every time).
 */
export class AdminKeysService {
  constructor(private readonly deps: { keys: KeysRepo; overview: KeysQueries; usage?: KeyUsageCounter; clock: Clock }) {}

  /** Every key with its usage; this instance's counts are written first, so the page includes them. */
  async list(): Promise<KeyOverview[]> {
    await this.deps.usage?.flush();
    return this.deps.overview.overview(this.deps.clock.now());
  }

  /** @throws AdminError VALIDATION naming `name` or `scopes`; nothing is created then. */
  async create(form: CreateKeyForm): Promise<{ key: string; callbackSecret: string; id: string; name: string; scopes: ApiScope[] }> {
    const name = typeof form.name === 'string' ? form.name.trim() : '';
    if (!name) throw formError('name', 'Укажите название ключа, например «Бухгалтерия».');
    if (name.length > 100) throw formError('name', 'Название ключа должно быть не длиннее 100 символов.');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the check
    if (/[\u0000-\u001f\u007f]/.test(name)) throw formError('name', 'Название ключа не должно содержать управляющих символов.');
    const ordered = parseScopes(form.scopes);
    const { key, callbackSecret, record } = await this.deps.keys.create(name, undefined, ordered);
    return { key, callbackSecret, id: record.id, name: record.name, scopes: record.scopes };
  }

  /**
   * Replaces a key's scopes (docs/admin-panel.md); takes effect on the key's next request.
   * @throws AdminError VALIDATION naming `scopes`, NOT_FOUND when there is no such key.
   */
  async setScopes(id: string, scopes: unknown): Promise<ApiScope[]> {
    const ordered = parseScopes(scopes);
    if (!(await this.deps.keys.setScopes(id, ordered))) throw new AdminError('NOT_FOUND', 'Такого ключа нет.');
    return ordered;
  }

  /**
   * A new callback signing secret for the key (docs/admin-panel.md), to be shown once; callbacks still pending
   * are signed with it. @throws AdminError NOT_FOUND.
   */
  async rotateCallbackSecret(id: string): Promise<string> {
    const secret = await this.deps.keys.rotateCallbackSecret(id);
    if (!secret) throw new AdminError('NOT_FOUND', 'Такого ключа нет.');
    return secret;
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
